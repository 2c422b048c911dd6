// The game on the server and the changes sent to it: new games, moves, undo, redo, steps
// through the tree, the seats and the AI's moves. Every reply goes through setGame, which
// keeps the tab's game id, redraws the page (the renderer app.js registers) and lets a
// running hint follow the board. A refusal is said and changes nothing else: the AI's move
// waits for a free search slot (429), a new game for room on the server (503: room.js), a
// game the server closed (410) is replaced, a record full (409) is offered to be saved.

import { $, el, showMessage } from "./dom.js";
import { api, withSearchSlot } from "./api.js";
import { state, update, isSolo, positionKey, seatName } from "./state.js";
import { cancelHint, clearHint, startHint } from "./hint.js";
import { createGame } from "./room.js";

let render = () => {};
export function onRender(fn) { render = fn; }

// The seats as the page's selectors say: one in the solo game.
export const pageSeats = (g) => (isSolo(g) ? [$("seat0").value] : [$("seat0").value, $("seat1").value]);

export async function setGame(reply, { autoAI = true } = {}) {
  const before = state.game && positionKey(state.id, state.game);
  if (reply.id !== state.id) clearHint();  // another game: the last hint was about this one
  // the AI waiting for a search slot waits no more for a position the board has left
  if (state.aiWait && before !== positionKey(reply.id, reply.game)) state.aiWait.abort();
  update({ id: reply.id, game: reply.game });
  sessionStorage.setItem("arle-game", reply.id);
  render();
  // a running hint follows the board: the server stopped the old position's search
  if (state.hintFollow && before !== positionKey(reply.id, reply.game)) {
    if (reply.game.terminal) cancelHint();
    else startHint(state.hintFollow.seconds);
  }
  if (autoAI) maybeAI();
}

// A new game of `body` (with the page's seats), once the server has room for it (room.js);
// false when another new game was asked for meanwhile (that one is shown).
export async function newGame(body) {
  cancelHint();
  body.seats = body.players === 1 ? [$("seat0").value] : [$("seat0").value, $("seat1").value];
  update({ paused: false });
  let reply;
  try {
    reply = await createGame(body);
  } catch (e) {
    if (e.superseded) return false;
    throw e;
  }
  await setGame(reply);
  return true;
}

// Changes to the game go to the server one at a time, in the order they were made, so the
// board always shows the answer to the last of them. Each is a change to the game shown
// when it was asked for (none when another game was opened meanwhile), and whatever
// becomes of it, the next one is sent: a refusal never holds up the changes after it.
let queue = Promise.resolve();
export function act(path, body = {}, opts = {}) {
  const gid = state.id;
  queue = queue.then(() => change(gid, path, body, opts)).catch((e) => showMessage(e.message));
  return queue;
}

async function change(gid, path, body, opts) {
  if (!gid || state.id !== gid) return;
  let reply;
  try {
    reply = await api(`/api/games/${gid}/${path}`, { body });
  } catch (e) {
    if (e.status === 404 || e.status === 410) await replaceClosed(e);
    else if (e.reason === "record_full") recordFull(e);
    else showMessage(e.message);
    return;
  }
  if (state.id !== gid) return; // another game was opened meanwhile: this one is gone
  await setGame(reply, opts);
  showMessage(opts.said ? opts.said(reply.game) : "", Boolean(opts.said));
}

const sentence = (text) => (/[.!?]$/.test(text) ? text : `${text}.`);

// The server closed the game (or never had it): say why and start a new one, once there is
// room for it.
async function replaceClosed(refused) {
  const why = sentence(refused.message);
  showMessage(`${why} A new game is started when the server has room for it.`);
  try {
    if (await newGame({ seed: 0 })) showMessage(`${why} A new game was started.`);
  } catch (e) {
    showMessage(`${why} ${sentence(e.message.charAt(0).toUpperCase() + e.message.slice(1))}`);
  }
}

// A move that would outgrow what a game record keeps: the game is kept as it is; Save game
// keeps it, and a new game from the position shown goes on from there.
function recordFull(refused) {
  const g = state.game;
  showMessage(sentence(refused.message));
  $("message").append(" ",
    el("a", { class: "button", id: "full-save", href: `/api/games/${state.id}/record`, download: "" }, "Save game"), " ",
    el("button", { id: "full-new", onclick: () => playOnFrom(g) }, "New game from this position"));
}

async function playOnFrom(g) {
  try {
    if (await newGame({ position: g.position })) showMessage(`A new game from the full game's position after decision ${g.ply}: play on from here.`, true);
  } catch (e) { showMessage(e.message); }
}

// What Undo took back, as arle play says it: "Taken back: P0 place Grocer, P1 animal sheep"
// (a count once, by its entry).
export function takenBack(was, now) {
  const gone = was ? was.moves.slice(now.ply, was.ply).filter((m, i, all) => !m.inner || i === all.length - 1) : [];
  if (!gone.length) return "";
  return `Taken back: ${gone.map((m) => `P${m.player} ${m.label}`).join(", ")} (Redo plays ` +
    `${gone.length === 1 ? "it" : "them"} again)`;
}

function aiChoice() {
  const kind = $("ai-kind").value;
  return kind === "mcts" ? { kind, seconds: Number($("ai-seconds").value) } : { kind };
}

// The AI plays the pending decision. Refused for want of a free search slot (429), it says
// so and asks again after a wait (api.js's withSearchSlot), until the board leaves the
// position, the AI is paused (Pause AI, or Stop waiting) or it gives up.
export async function runAI() {
  if (state.aiBusy || !state.game || state.game.terminal) return;
  const gid = state.id, key = positionKey(gid, state.game), p = state.game.to_move;
  const waiter = new AbortController();
  update({ aiBusy: true, aiWait: waiter });
  const ask = () => {
    if (state.paused || state.id !== gid || positionKey(gid, state.game) !== key) waiter.abort();
    if (waiter.signal.aborted) throw new DOMException("the AI stopped waiting", "AbortError");
    aiStatus(`${seatName(p)} is thinking...`);
    return api(`/api/games/${gid}/ai`, { body: { ai: aiChoice() } });
  };
  try {
    const reply = await withSearchSlot(ask, { signal: waiter.signal, waiting: (s, waited, e) => aiWaiting(p, s, waited, e) });
    update({ aiBusy: false, aiWait: null });
    if (state.id !== gid) { aiStatus(""); return; } // another game now
    const last = reply.game.moves[reply.game.ply - 1];
    aiStatus(`AI (P${p}) played ${last ? last.label : ""} in ${reply.ai.seconds.toFixed(2)} s`);
    await setGame(reply);
  } catch (e) {
    update({ aiBusy: false, aiWait: null });
    if (e.name === "AbortError") {  // paused, or the board left the position
      aiStatus(state.paused ? `${seatName(p)} stopped waiting for a free search slot: AI move asks again` : "");
      render();
    } else if (e.reason === "record_full") {
      aiStatus(""); recordFull(e);
    } else if (e.status === 409 && e.message.includes("position changed")) {
      // the board changed while the AI was thinking (you undid or stepped): not a fault
      aiStatus(`P${p}'s AI move was cancelled: the position changed`);
    } else {
      aiStatus(e.status === 429 ? `${seatName(p)} gave up waiting for a free search slot: AI move asks again` : "");
      showMessage(e.message);
    }
  }
}

function aiStatus(text, ...more) {
  $("ai-status").replaceChildren(text, ...more);
}

function aiWaiting(p, seconds, waited, refused) {
  aiStatus(`${seatName(p)} is waiting for a free search slot: the server's searches are all busy ` +
    `(asking again in ${Math.max(1, Math.round(seconds))} s${waited ? `, waited ${Math.round(waited)} s` : ""}) `,
    el("button", { id: "ai-wait-stop", title: refused.message, onclick: pauseAI }, "Stop waiting"));
}

// Pause AI: the AI seats play no more by themselves, and an AI move waiting for a search
// slot stops waiting.
export function pauseAI() {
  update({ paused: true });
  if (state.aiWait) state.aiWait.abort();
  render();
}

export function maybeAI() {
  const g = state.game;
  if (g && g.ai_to_move && g.ply === g.length && !state.paused) setTimeout(runAI, 30);
}

// Arrow keys may repeat faster than the server answers: step from the last ply asked for.
export async function navigate(delta) {
  const g = state.game;
  if (!g) return;
  const from = state.navTarget ?? g.ply;
  const ply = delta === "start" ? 0 : delta === "end" ? g.length : from + delta;
  if (ply < 0 || ply > g.length || ply === from) return;
  update({ navTarget: ply });
  await act("goto", { ply }, { autoAI: false });
  if (state.navTarget === ply) update({ navTarget: null });
}
