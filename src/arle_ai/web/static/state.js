// The page's state: one object, owned by this module. The other modules read it through
// `state` (a view that refuses writes) and change it with `update({field: value})`, which
// refuses a field not declared here; an object held in a field is replaced, not changed.

const FIELDS = {
  catalog: null,        // /api/catalog: the game's pieces, names, budgets, the entry's questions
  id: null,             // this tab's game on the server (kept in sessionStorage too)
  game: null,           // the game's view as the server last sent it
  aiBusy: false,        // an AI move has been asked for and not answered yet
  aiWait: null,         // the AI move's AbortController: it ends its wait for a search slot
  roomWait: null,       // a new game waiting for room on the server: {stop(why)} (room.js)
  paused: false,        // the AI does not play on by itself (after Undo, Pause, a step back)
  navTarget: null,      // the decision the arrow keys asked for last (they repeat fast)
  hint: null,           // the running hint's AbortController
  hintFollow: null,     // {seconds}: the hint starts again when the board's position changes
  hintFor: null,        // what the hint shown answers: {key, decision, player, prompt, labels}
  hintMoves: null,      // the hint's moves as its last update ranked them (drawn on the board)
  learn: null,          // the mistakes mode (mistakes.js): its decisions, where it is, its marks
  editorBase: null,     // the position the editor started from (its answers apply to it)
  editorInitial: null,  // the editor's answers as it started: only changed ones are sent
  editorOccupied: null, // the editor's workers on the action spaces: space key -> player
  editorPosition: null, // the editor's position when every answer is accepted, else null
};

const data = { ...FIELDS };

export const state = new Proxy(data, {
  set(_, key) { throw new TypeError(`the page's state changes through update(), not .${String(key)} =`); },
  deleteProperty(_, key) { throw new TypeError(`the page's state keeps its field ${String(key)}`); },
});

export function update(changes) {
  for (const key of Object.keys(changes)) {
    if (!(key in FIELDS)) throw new TypeError(`the page's state has no field ${key}`);
  }
  Object.assign(data, changes);
}

// ---- what the state says, in the page's words

// The printed name of a piece (the catalog's), or its key with spaces.
export const nameOf = (key) => (data.catalog && data.catalog.names[key]) || key.replaceAll("_", " ");

export const isSolo = (g) => !!g && g.players_count === 1;

// The game's review rates moves by the expected final score in VP (the solo game's, as the
// analysis JSON's `measure` says), not by the value.
export const reviewedInVP = (g) => !!g && !!g.analysis && g.analysis.measure === "score";

// The position on the board: the game and the decisions that led to it.
export const positionKey = (id, g) => `${id} ${g.node}`;

// A seat as the page names it: P0 (you), P1 (AI); a tournament's game by its agents.
export function seatName(p) {
  const g = data.game;
  if (g && g.seat_names) return isSolo(g) ? `${g.seat_names[0]} (solo)` : `P${p} ${g.seat_names[p]}`;
  const who = g && g.seats[p] === "ai" ? "AI" : "you";
  return isSolo(g) ? (who === "AI" ? "AI (solo)" : "You (solo)") : `P${p} (${who})`;
}
