// The game on the server and the changes sent to it: new games, moves, undo, redo, steps
// through the tree, the seats and the AI's moves. Every reply goes through setGame, which
// keeps the tab's game id, redraws the page (the renderer app.js registers) and lets a
// running hint follow the board.

import { $, showMessage } from "./dom.js";
import { api } from "./api.js";
import { state, update, isSolo, positionKey, seatName } from "./state.js";
import { cancelHint, clearHint, startHint } from "./hint.js";

let render = () => {};
export function onRender(fn) { render = fn; }

// The seats as the page's selectors say: one in the solo game.
export const pageSeats = (g) => (isSolo(g) ? [$("seat0").value] : [$("seat0").value, $("seat1").value]);

export async function setGame(reply, { autoAI = true } = {}) {
  const before = state.game && positionKey(state.id, state.game);
  if (reply.id !== state.id) clearHint();  // another game: the last hint was about this one
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

export async function newGame(body) {
  cancelHint();
  body.seats = body.players === 1 ? [$("seat0").value] : [$("seat0").value, $("seat1").value];
  update({ paused: false });
  await setGame(await api("/api/games", { body }));
}

// Changes to the game go to the server one at a time, in the order they were made, so the
// board always shows the answer to the last of them.
let queue = Promise.resolve();
export function act(path, body = {}, opts = {}) {
  queue = queue.then(async () => {
    const gid = state.id;
    try {
      const reply = await api(`/api/games/${gid}/${path}`, { body });
      if (state.id !== gid) return; // another game was opened meanwhile: this one is gone
      await setGame(reply, opts);
      showMessage(opts.said ? opts.said(reply.game) : "", Boolean(opts.said));
    } catch (e) {
      showMessage(e.message);
      if (e.status === 404 || e.status === 410) {  // the server closed the game: say why
        await newGame({ seed: 0 });
        showMessage(`${e.message} A new game was started.`);
      }
    }
  });
  return queue;
}

// What Undo took back, as arle play says it: "Taken back: P0 place Grocer, P1 animal sheep".
export function takenBack(was, now) {
  const gone = was ? was.moves.slice(now.ply, was.ply) : [];
  if (!gone.length) return "";
  return `Taken back: ${gone.map((m) => `P${m.player} ${m.label}`).join(", ")} (Redo plays ` +
    `${gone.length === 1 ? "it" : "them"} again)`;
}

function aiChoice() {
  const kind = $("ai-kind").value;
  return kind === "mcts" ? { kind, seconds: Number($("ai-seconds").value) } : { kind };
}

export async function runAI() {
  if (state.aiBusy || !state.game || state.game.terminal) return;
  update({ aiBusy: true });
  const p = state.game.to_move;
  $("ai-status").textContent = `${seatName(p)} is thinking...`;
  try {
    const gid = state.id;
    const reply = await api(`/api/games/${gid}/ai`, { body: { ai: aiChoice() } });
    update({ aiBusy: false });
    if (state.id !== gid) { $("ai-status").textContent = ""; return; } // another game now
    const last = reply.game.moves[reply.game.ply - 1];
    $("ai-status").textContent = `AI (P${p}) played ${last ? last.label : ""} ` +
      `in ${reply.ai.seconds.toFixed(2)} s`;
    await setGame(reply);
  } catch (e) {
    update({ aiBusy: false });
    // 409: the board changed while the AI was thinking (you undid or stepped): not a fault
    $("ai-status").textContent = e.status === 409 && e.message.includes("position changed")
      ? `P${p}'s AI move was cancelled: the position changed` : "";
    if (!$("ai-status").textContent) showMessage(e.message);
  }
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
