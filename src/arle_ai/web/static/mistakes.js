// "Learn from your mistakes" (as lichess offers after a review): the reviewed game's `?` and
// `??` decisions of the seats you play (every seat's when you play none, or made none), one
// at a time: the position before the move and "find a better move" (played on the board, it
// starts a variation: the game's moves are kept), then the answer: the review's better move
// drawn on the board beside the move played, the line the search expects and why. It reads
// the review as the server gives it (arle_ai.play.analysis, play.why): no search of its own.

import { $, el } from "./dom.js";
import { state, reviewedInVP, update } from "./state.js";
import { act } from "./game.js";
import { whyLine } from "./hint.js";
import { TONES, renderBoardMarks } from "./overlay.js";

const markClass = (mark) => (mark === "??" ? "mark-qq" : "mark-q");

// The marked decisions of the review, of the seats played at the keyboard when they made any.
function mistakesOf(g) {
  const a = g.analysis;
  if (!a) return { items: [], who: [] };
  const marked = a.decisions.filter((d) => d.mark && d.ply <= a.nodes.length);
  const mine = g.seats.map((s, p) => (s === "human" ? p : null)).filter((p) => p !== null);
  const yours = marked.filter((d) => mine.includes(d.player));
  const items = yours.length ? yours : marked;
  return { items, who: [...new Set(items.map((d) => d.player))].sort() };
}

// The position before decision `d` (a node of the line reviewed).
const baseOf = (g, d) => (d.ply > 1 ? g.analysis.nodes[d.ply - 2] : 0);

export function startLearning() {
  const g = state.game;
  const { items, who } = mistakesOf(g);
  if (!items.length) return;
  update({ paused: true, learn: { gid: state.id, items, who, index: 0, found: 0, phase: "find", marks: null } });
  goTo(0);
}

function goTo(index) {
  const learn = state.learn;
  update({ learn: { ...learn, index, phase: index < learn.items.length ? "find" : "done", attempt: null, marks: null } });
  if (index < learn.items.length) act("goto", { node: baseOf(state.game, learn.items[index]) }, { autoAI: false });
  else render(state.game);
}

function setPhase(phase, extra = {}) {
  update({ learn: { ...state.learn, phase, marks: null, ...extra } });
}

// The panel and the learn button, drawn with the board (play.js): an attempt made at the
// decision's position is judged here, when the board comes back with the move played.
export function renderLearn(g) {
  const button = $("learn-start");
  const { items, who } = mistakesOf(g);
  button.disabled = !items.length;
  button.textContent = items.length ? `Learn from ${whose(who)} mistakes (${items.length})` : "Learn from your mistakes";
  const learn = state.learn;
  if (learn && (learn.gid !== state.id || !g.analysis)) update({ learn: null });
  render(g);
}

const whose = (who) => (who.length === 1 ? `P${who[0]}'s` : "both players'");

function render(g) {
  const learn = state.learn;
  const panel = $("learn-panel");
  panel.hidden = !learn;
  if (!learn) return;
  const d = learn.items[learn.index];
  const base = d ? baseOf(g, d) : null;
  const tried = d && learn.phase === "find" ? attemptAt(g, base) : null;
  if (tried && !tried.going) judge(g, d, tried);
  $("learn-count").textContent = learn.index < learn.items.length
    ? `${learn.index + 1} of ${learn.items.length}, ${whose(learn.who)}; found ${state.learn.found}` : "";
  const body = $("learn-body");
  const actions = $("learn-actions");
  body.replaceChildren();
  actions.replaceChildren();
  const button = (id, text, onclick) => actions.append(el("button", { id, onclick }, text));
  const stop = () => button("learn-stop", "Stop", () => { update({ learn: null }); render(state.game); renderBoardMarks(); });
  if (!d) {
    body.append(el("div", {}, el("b", { text: "Done: " }), `you found ${learn.found} of ${learn.items.length} better moves.`));
    button("learn-again", "Again", startLearning);
    stop();
    return;
  }
  const { phase } = state.learn;
  body.append(el("div", {}, el("b", { text: `Decision ${d.ply}` }), ` (half-year ${d.half_year}): `,
    el("span", { class: `tag p${d.player}`, text: `P${d.player}` }), ` played ${d.played_label || d.played} `,
    el("span", { class: `mark ${markClass(d.mark)}`, text: d.mark }), ` and lost ${d.vp_lost.toFixed(1)} VP.`));
  const here = g.node === base;
  if (phase === "find") {
    if (tried && tried.going) {  // a count being given, a step at a time: judged once whole
      body.append(el("div", { class: "learn-ask" }, el("b", { text: "A count in progress: " }),
        `${tried.label} so far; give the rest of it from the count buttons: the whole count is judged.`));
      button("learn-back", `Back to decision ${d.ply}`, () => act("goto", { node: base }, { autoAI: false }));
    } else if (here) body.append(el("div", { class: "learn-ask" }, el("b", { text: "Find a better move: " }), "play it on the board or from the list of moves."));
    else {
      body.append(el("div", { class: "hint-text", text: "The board shows another position." }));
      button("learn-back", `Back to decision ${d.ply}`, () => act("goto", { node: base }, { autoAI: false }));
    }
    button("learn-answer", "Show the answer", showAnswer);
    button("learn-skip", "Skip", () => goTo(learn.index + 1));
  } else if (phase === "wrong") {
    const a = state.learn.attempt;
    body.append(el("div", { class: "learn-wrong" }, el("b", { text: "✗ " }), a.played
      ? `${a.label} is the ${a.counted ? "count" : "move"} played in the game.`
      : a.counted ? countNotFound(a.label, d) : notFound(a.label, d)));
    button("learn-retry", "Try again", () => { setPhase("find"); act("goto", { node: base }, { autoAI: false }); });
    button("learn-answer", "Show the answer", showAnswer);
  } else {  // right, or the answer shown
    if (phase === "right") {
      const a = state.learn.attempt;
      const what = a.counted ? "count" : "move";
      body.append(el("div", { class: "learn-right" }, el("b", { text: "✓ " }), a.best
        ? `${a.label}: the better ${what} the review found.` : `${a.label}: as good as the better ${what} the review found.`));
    }
    answer(body, d);
    if (phase === "answer" && !here) button("learn-back", `Back to decision ${d.ply}`, () => act("goto", { node: base }, { autoAI: false }));
    // at a how-many question the better answer is a count, played whole as its button plays it
    const better = d.best_count !== null && d.best_count !== undefined ? { count: d.best_count } : { move: d.best };
    if (phase === "answer" && here) button("learn-play", "Play the better move", () => act("move", better, { autoAI: false }));
    button("learn-next", learn.index + 1 < learn.items.length ? "Next mistake" : "Finish", () => goTo(learn.index + 1));
  }
  stop();
  if (phase === "answer" && here && !state.learn.marks) update({ learn: { ...state.learn, marks: answerMarks(g, d), marksAt: base } });
}

// The answer the board shows to the decision asked at `base`, if it shows one: its label,
// the engine's moves it took (their notation, first to last) and, at a how-many question,
// its count (counted from `base`: the server's count of each move's answer so far, the
// tree's `count`); `going` while a count is still being given (the position after some
// `more`, its entry `inner`, folded into the count's one answer). Null when the board shows
// the decision itself or another position.
function attemptAt(g, base) {
  const byId = Object.fromEntries(g.tree.map((n) => [n.node, n]));
  const last = byId[g.node];
  if (!last || g.node === base) return null;
  const run = [last];  // back through the steps of a count to the decision's position
  while (run[0].parent !== base) {
    const parent = byId[run[0].parent];
    if (!parent || !parent.inner) return null;
    run.unshift(parent);
  }
  const atBase = byId[base];
  const before = atBase && atBase.inner ? atBase.count : 0;  // a count already going on there
  const count = last.count === null || last.count === undefined ? null : last.count - before;
  return { label: last.label, moves: run.map((n) => n.text), count, going: last.inner };
}

// The answer made at the decision's position. A move: the review's better move or one it
// names as good as it (its `near_best`: at most three, measured and within noise of the
// best; not the moves it counts in `unseparated`, which it never measured), the move played
// in the game, or another one. At a how-many question the whole count, once given: the
// review's better count (`best_count`, the count its better line converts) or the count
// played (`played_count`); another count is as good as the better one only when it is one
// move the review named as good as it (a `stop`, none); else the review rated no such count.
function judge(g, d, tried) {
  const counted = tried.count !== null && d.best_count !== null && d.best_count !== undefined;
  const single = tried.moves.length === 1;
  const best = counted ? tried.count === d.best_count : single && tried.moves[0] === d.best;
  const played = counted ? tried.count === d.played_count : single && tried.moves[0] === d.played;
  const good = best || (single && (d.near_best || []).includes(tried.moves[0]));
  const attempt = { label: tried.label, best, played: played && !best, counted };
  setPhase(good ? "right" : "wrong", { attempt, found: state.learn.found + (good ? 1 : 0) });
}

function showAnswer() {
  const d = state.learn.items[state.learn.index];
  setPhase("answer");
  act("goto", { node: baseOf(state.game, d) }, { autoAI: false });
}

// A move the review neither found the better one nor named as good as it: when the search
// could not separate other moves from the best (it names at most three), it may be one of them.
function notFound(label, d) {
  if (!d.unseparated) return `${label} is not the better move the review found (the review rated the move played and its own choice only).`;
  const others = `${d.unseparated} other move${d.unseparated === 1 ? "" : "s"}`;
  return `${label} is neither the better move the review found nor one it named as good as it (it may be one of the ${others} the search could not separate from the best, without measuring them).`;
}

// A count neither the review's better one nor the one played: the review measured its
// answers only (each of the engine's moves here, `more` or `stop`, by its own line), so of
// this count it can say nothing.
function countNotFound(label, d) {
  const theirs = d.best_label && d.played_label ? ` (${d.best_label}) nor the count played (${d.played_label})` : " nor the count played";
  return `${label} is neither the better count the review found${theirs}: the review measured no other count, so it cannot say how this one compares.`;
}

// The answer in the review's words: the better move and its value against the move played's
// (the solo game, reviewed by the score: the expected final scores in VP), the moves as good
// (arle analyze's sentence), the line the search expects after it, and why by scoring category.
function answer(body, d) {
  const measured = reviewedInVP(state.game) ? `expected final score ${d.best_margin.toFixed(1)} VP against ${d.played_margin.toFixed(1)}`
    : `value ${d.best_value.toFixed(3)} against ${d.played_value.toFixed(3)}`;
  body.append(el("div", {}, el("b", { text: "Better: " }), d.best_label || d.best,
    ` (${measured})${d.as_good ? `; ${d.as_good}` : ""}`));
  if (d.best_line && d.best_line.length > 1) {
    const line = el("div", { class: "pv" }, el("b", { text: "The better line: " }));
    for (const step of d.best_line) line.append(el("span", { class: `tag p${step.player}`, text: `P${step.player}` }), ` ${step.label}  `);
    body.append(line);
  }
  if (d.why) body.append(whyLine(d.why));
}

// The answer on the board: the better move's piece and the move played's; at a how-many
// question each on the count button of the answer it gives, as the review reads it (its
// `best_count` and `played_count`: the count the better line converts in all, the count the
// game played).
function answerMarks(g, d) {
  const byText = Object.fromEntries(g.legal.map((m) => [m.text, m]));
  const marks = [];
  const better = byText[d.best], played = byText[d.played];
  const counted = !!g.counts;
  if (better) marks.push({ action: better.action, count: counted ? d.best_count : null, badge: "better", text: "", tone: TONES.better, title: `the better move: ${counted ? d.best_label || better.label : better.label}` });
  if (played) marks.push({ action: played.action, count: counted ? d.played_count : null, badge: d.mark, text: "played", tone: TONES.played, title: `the move played: ${counted ? d.played_label || played.label : played.label} (${d.mark})` });
  return marks;
}
