// Fields of Arle analysis board: the page's entry (a native ES module, no build step). It
// fetches the catalog and the tab's game, and wires the controls to the modules:
//   state.js      the page's state (the only module that changes it)
//   api.js        the server's JSON API and streams
//   dom.js        HTML helpers and number formats
//   game.js       the game on the server: moves, undo, redo, steps, seats, the AI's moves
//   room.js       a new game, waiting for room when the server is full; the server's terms
//   play.js       the board page: status, boards, legal moves (svg.js, gameboard.js, homeboard.js)
//   moves.js      the move list, the review of a move, the event log, the analysis and graph
//   hint.js       the hint, streamed
//   overlay.js    the hint's best moves and the mistakes mode's answer drawn on the boards
//   leadbar.js    the expected lead beside the board, from the AI's own search
//   mistakes.js   learn from your mistakes: the review's marked decisions one at a time
//   editor.js     the position editor, over the position entry arle edit asks with
//   tournament.js the tournament results page
// Every game fact comes from the server (/api/catalog and the game view). Each tab keeps
// its own game id in sessionStorage.

import { $, el, showMessage } from "./dom.js";
import { api, stopSearch } from "./api.js";
import { state, update } from "./state.js";
import { act, navigate, newGame, onRender, pageSeats, pauseAI, runAI, setGame, takenBack } from "./game.js";
import { createGame, showTerms } from "./room.js";
import { render } from "./play.js";
import { cancelHint, startHint } from "./hint.js";
import { startAnalysis } from "./moves.js";
import { buildEditor, editorTyped } from "./editor.js";
import { openTournament } from "./tournament.js";
import { startLearning } from "./mistakes.js";

function showPage(name) {
  for (const p of ["play", "editor", "tournament"]) {
    $(`page-${p}`).hidden = p !== name;
    $(`tab-${p}`).classList.toggle("active", p === name);
  }
  if (name === "editor" && !state.editorBase && state.game) buildEditor(state.game.position);
}

async function loadFile(file) {
  try {
    const text = await file.text();
    cancelHint();
    await setGame(await createGame({ text, seats: [$("seat0").value, $("seat1").value] }), { autoAI: false });
    showMessage(`Opened ${file.name}: ${state.game.length} decisions`, true);
  } catch (e) { showMessage(`${file.name}: ${e.message}`); }
}

// A tournament's game on the board, its seats named by its agents (both at the keyboard:
// a move tried there is a variation, and no AI plays on by itself); on a full server it waits
// for room as every new game does (room.js).
async function openTournamentGame(text, game, name) {
  try {
    cancelHint();
    await setGame(await createGame({ text, game, seats: ["human", "human"] }), { autoAI: false });
    showPage("play");
    const names = state.game.seat_names;
    showMessage(`Opened game ${game} of ${name}: ${names.length === 1 ? `${names[0]} (solo)` : names.join(" against ")}, ${state.game.length} decisions`, true);
  } catch (e) { showMessage(`${name}, game ${game}: ${e.message}`); }
}

// The catalog's facts on the page's controls: variants, default budgets (the hint's legend:
// hint.js, by the game shown).
function showCatalog(catalog) {
  for (const v of catalog.variants) $("new-variant").append(el("option", { value: v, text: v }));
  // the default budgets are the CLI's (arle play's hint, arle analyze): one verdict
  $("hint-seconds").value = String(catalog.budgets.hint_seconds);
  $("analysis-seconds").value = String(catalog.budgets.analysis_seconds);
}

function wire() {
  document.querySelectorAll(".tab").forEach((b) => b.addEventListener("click", () => showPage(b.dataset.page)));
  const chosenGame = () => ({ seed: Number($("new-seed").value), variant: $("new-variant").value, players: Number($("new-players").value) });
  $("new-game").addEventListener("click", () => newGame(chosenGame()).catch((e) => showMessage(e.message)));
  for (const i of [0, 1]) $(`seat${i}`).addEventListener("change", () => { update({ paused: false }); act("seats", { seats: pageSeats(state.game) }); });
  $("undo").addEventListener("click", () => {
    update({ paused: true });
    const was = state.game;
    act("undo", {}, { autoAI: false, said: (g) => takenBack(was, g) });
  });
  $("redo").addEventListener("click", () => act("redo", {}, { autoAI: false }));
  $("ai-move").addEventListener("click", () => { update({ paused: false }); runAI(); });
  $("pause").addEventListener("click", pauseAI);
  $("hint-start").addEventListener("click", () => startHint(Number($("hint-seconds").value)));
  $("hint-stop").addEventListener("click", () => { cancelHint(); stopSearch(state.id, "hint"); });
  $("analysis-start").addEventListener("click", startAnalysis);
  $("learn-start").addEventListener("click", startLearning);
  $("nav-first").addEventListener("click", () => navigate("start"));
  $("nav-prev").addEventListener("click", () => navigate(-1));
  $("nav-next").addEventListener("click", () => navigate(1));
  $("nav-last").addEventListener("click", () => navigate("end"));
  $("load-file").addEventListener("change", (ev) => { if (ev.target.files[0]) loadFile(ev.target.files[0]); ev.target.value = ""; });
  $("tournament-file").addEventListener("change", (ev) => { if (ev.target.files[0]) openTournament(ev.target.files[0], openTournamentGame); ev.target.value = ""; });
  $("editor").addEventListener("input", editorTyped);
  $("editor-from-game").addEventListener("click", () => buildEditor(state.game.position));
  $("editor-from-new").addEventListener("click", async () => {
    try {
      const r = await api("/api/games", { body: { ...chosenGame(), seats: ["human", "human"] } });
      buildEditor(r.game.position);
    } catch (e) { showMessage(e.message); }
  });
  $("editor-play").addEventListener("click", async () => {
    if (!state.editorPosition) return;
    try {
      cancelHint();
      await setGame(await createGame({ position: state.editorPosition, seats: [$("seat0").value, $("seat1").value] }));
      showPage("play");
    } catch (e) { showMessage(e.message); }
  });
  document.addEventListener("keydown", (ev) => {
    if ($("page-play").hidden || ["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName)) return;
    if (ev.key === "ArrowLeft") { ev.preventDefault(); navigate(-1); }
    else if (ev.key === "ArrowRight") { ev.preventDefault(); navigate(1); }
    else if (ev.key === "Home") { ev.preventDefault(); navigate("start"); }
    else if (ev.key === "End") { ev.preventDefault(); navigate("end"); }
  });
  window.addEventListener("pagehide", () => { if (state.id) navigator.sendBeacon(`/api/games/${state.id}/stop`); });
}

async function init() {
  // the catalog and the tab's game are fetched together (the first page load is timed)
  const saved = sessionStorage.getItem("arle-game");
  let lost = null;  // why the tab's game is gone (the server closed it), to say so
  const first = saved ? api(`/api/games/${saved}`).catch((e) => { lost = e; return null; })
    : createGame({ seed: 0, seats: ["human", "ai"] });  // (a full server: when it has room)
  first.catch(() => {});  // (awaited below)
  update({ catalog: await api("/api/catalog") });
  showCatalog(state.catalog);
  showTerms(state.catalog.server);
  onRender(render);
  wire();
  // (first: null when the tab's game is gone; a superseded AbortError when a new game was
  // asked for while the page waited for room: that one is shown)
  const reply = await first.catch((e) => { if (e.superseded) return undefined; throw e; });
  if (reply) await setGame(reply, { autoAI: false });
  else if (reply === null) {
    if (lost && lost.status === 410) showMessage(`${lost.message}. A new game is started when the server has room for it.`);
    if (!await newGame({ seed: 0 })) return;
    if (lost && lost.status === 410) showMessage(`${lost.message}. A new game was started.`);
  } else return;
  document.body.dataset.ready = "1";
}

init().catch((e) => showMessage(`cannot start: ${e.message}`));
