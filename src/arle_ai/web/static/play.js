// The board page: the status line, the history cue, the boards (gameboard.js, homeboard.js)
// with the pieces a legal move is about made clickable, the legal moves as buttons, and the
// panels of moves.js and hint.js, all drawn from the game's view in the state.

import { $, el, num, signed, title } from "./dom.js";
import { state, isSolo, nameOf, seatName } from "./state.js";
import { act, navigate } from "./game.js";
import { renderHintFreshness, renderLegend } from "./hint.js";
import { markedSpaces, onBoardRedraw, renderBoardMarks } from "./overlay.js";
import { renderLeadBar } from "./leadbar.js";
import { renderLearn } from "./mistakes.js";
import { branchPly, mainLine, renderGraph, renderLog, renderMoveList, renderReviewDetail } from "./moves.js";
import { drawGameBoard } from "./gameboard.js";
import { drawHomeBoard } from "./homeboard.js";

export function render() {
  const g = state.game;
  if (!g) return;
  renderStatus(g);
  renderHistoryCue(g);
  renderLeadBar(g);  // before the board: the board takes the width the bar leaves
  drawGameBoard($("gameboard"), g, state.catalog, { show: markedSpaces(g) });
  renderPlayers(g);
  markTargets(g, $("board"));
  renderLegal(g);
  renderMoveList(g);
  renderReviewDetail(g);
  renderLog(g);
  renderGraph(g);
  renderHintFreshness();
  renderLegend(g);
  renderLearn(g);  // (its answer's marks, drawn next)
  renderBoardMarks();
  $("seat0").value = g.seats[0];
  if (g.seats.length > 1) $("seat1").value = g.seats[1];
  $("seat1-label").hidden = isSolo(g);
  $("save-record").href = `/api/games/${state.id}/record`;
  $("save-position").href = `/api/games/${state.id}/position`;
  $("undo").disabled = g.ply === 0;
  $("redo").disabled = g.ply >= g.length;
  $("ai-move").disabled = g.terminal;
  $("hint-start").disabled = g.terminal || !!state.hint;
}

// The game board alone drawn again, with the spaces the marks are about (overlay.js asks).
onBoardRedraw((g) => {
  drawGameBoard($("gameboard"), g, state.catalog, { show: markedSpaces(g) });
  markTargets(g, $("gameboard"));
});

function renderStatus(g) {
  const s = $("status");
  s.replaceChildren();
  const season = g.season === "summer" ? "Summer" : "Winter";
  s.append(el("span", {}, el("b", { text: `Half-year ${g.half_year}/${state.catalog.half_years}` }), ` (${season})`));
  if (isSolo(g)) {  // one player, always the start player: the score is the result
    s.append(el("span", { text: `Solo game: workers placed ${g.position.workers_placed}/${g.workers_per_half_year}` }));
    s.append(g.terminal ? el("span", {}, el("b", { text: "Game over: final score " }), `${num(g.scores[0])} VP`)
      : el("span", { text: `Score ${num(g.scores[0])} VP` }));
    if (g.setup) s.append(el("span", { class: "hint-text", text: `seed ${g.setup.seed}, ${g.setup.variant}` }));
    return;
  }
  s.append(el("span", {}, "Start player: ", el("span", { class: `tag p${g.start_player}`, text: `P${g.start_player}` })));
  s.append(el("span", { text: `Workers placed ${g.position.workers_placed}/${2 * state.catalog.workers}` }));
  if (g.terminal) {
    // scores with their unit, a comma between (a " - " read "-19 - -18")
    s.append(el("span", {}, el("b", { text: `Game over: P${g.winner} wins ` }), `P0 ${num(g.scores[0])} VP, P1 ${num(g.scores[1])} VP`));
  } else {
    s.append(el("span", {}, "To move: ", el("span", { class: `tag p${g.to_move}`, text: seatName(g.to_move) })));
  }
  s.append(el("span", { text: `Score P0 ${num(g.scores[0])} VP, P1 ${num(g.scores[1])} VP` }));
  if (g.setup) s.append(el("span", { class: "hint-text", text: `seed ${g.setup.seed}, ${g.setup.variant}` }));
}

function renderHistoryCue(g) {
  const cue = $("history-cue");
  const back = g.ply < g.length;
  const branch = branchPly(g);
  const inVariation = branch !== null && g.ply > branch;
  $("board").classList.toggle("history", back || inVariation);
  cue.replaceChildren();
  cue.hidden = !back && !inVariation;
  if (cue.hidden) return;
  if (inVariation) cue.append(el("b", { text: "Variation " }), `from decision ${branch + 1}: the game's own moves are kept beside it. `);
  if (back) {
    cue.append(el("b", { text: "Viewing history: " }), `decision ${g.ply} of ${g.length}. A move played here starts a variation. `);
    cue.append(el("button", { id: "cue-end", onclick: () => navigate("end") }, `Back to decision ${g.length}`));
  }
  if (inVariation) {
    const main = mainLine(g);
    cue.append(" ", el("button", { id: "cue-main", onclick: () => act("goto", { node: main[Math.min(branch, main.length - 1)] ?? 0 }, { autoAI: false }) }, "Back to the game"));
  }
}

function renderPlayers(g) {
  const wrap = $("players");
  wrap.replaceChildren();
  g.position.players.forEach((p, i) => {
    const box = el("div", { class: `player` + (g.to_move === i ? " to-move" : ""), id: `player${i}` });
    box.append(el("h3", {}, el("span", { class: `p${i}`, text: `${seatName(i)}${g.start_player === i && !isSolo(g) ? " - start player" : ""}` }),
      el("span", { text: `${num(g.scores[i])} VP` })));
    const holder = el("div", { class: "home" });
    box.append(holder);
    const a = p.animals;
    box.append(el("div", { class: "counts", text: state.catalog.animals.map((k) => `${a[k] || 0} ${nameOf(k)}`).join(", ") }));
    const table = el("table", { class: "score-table" });
    const bd = g.breakdown[i];
    const keys = Object.keys(bd);
    for (let k = 0; k < keys.length; k += 4) {
      const tr = el("tr");
      for (const key of keys.slice(k, k + 4)) tr.append(el("td", { text: title(key) }), el("td", { class: "n", text: num(bd[key]) }));
      table.append(tr);
    }
    box.append(table);
    wrap.append(box);
    drawHomeBoard(holder, g, i, state.catalog);
  });
}

// Pieces a legal move is about become clickable: one move plays it, several are picked out
// in the list of moves.
function markTargets(g, root) {
  const aiTurn = g.ai_to_move && g.ply === g.length && !state.paused;
  if (g.terminal || aiTurn || state.aiBusy) return;
  const byTarget = {};
  for (const m of g.legal) if (m.on) (byTarget[m.on] = byTarget[m.on] || []).push(m);
  for (const node of root.querySelectorAll("[data-on]")) {
    const moves = node.getAttribute("data-on").split(" ").flatMap((t) => byTarget[t] || []);
    if (!moves.length) continue;
    node.classList.add("clickable");
    node.addEventListener("click", (ev) => { ev.stopPropagation(); chooseMoves(moves); });
  }
}

function chooseMoves(moves) {
  if (moves.length === 1) { act("move", { action: moves[0].action }); return; }
  const wanted = new Set(moves.map((m) => String(m.action)));
  for (const b of $("legal").querySelectorAll(".move-btn")) {
    b.classList.toggle("picked", wanted.has(b.dataset.action));
    b.classList.toggle("dimmed", !wanted.has(b.dataset.action));
  }
  const first = $("legal").querySelector(".picked");
  if (first) first.scrollIntoView({ block: "nearest" });
  $("ai-status").textContent = `${moves.length} moves: choose one below`;
}

function renderLegal(g) {
  const list = $("legal");
  list.replaceChildren();
  $("prompt").textContent = g.terminal ? "Game over" : g.prompt;
  const aiTurn = g.ai_to_move && g.ply === g.length && !state.paused;
  // a repeated conversion is asked as a count: its answers (0..n) in place of more and stop
  for (const m of g.counts || g.legal) {
    // as arle play's menu says it: "built a stall (-1 grain, -2 clay)", "+3 clay"
    const amounts = [];
    for (const a of m.amounts) {
      if (amounts.length) amounts.push(", ");
      amounts.push(el("span", { class: a.startsWith("-") ? "cost" : "gain", text: a }));
    }
    const cg = m.done ? [m.done, ...(amounts.length ? [" (", ...amounts, ")"] : [])] : amounts.length || m.vp ? amounts : [m.effect || ""];
    const counted = m.count !== undefined;
    const btn = el("button", { class: "move-btn", title: `notation: ${m.text}`, [counted ? "data-count" : "data-action"]: String(counted ? m.count : m.action), onclick: () => act("move", counted ? { count: m.count } : { action: m.action }) },
      el("span", { class: "label", text: counted ? `${m.count}: ${m.label}` : m.label }),
      el("span", { class: "vp", text: m.vp ? `${signed(m.vp)} VP` : "" }),
      el("span", { class: "cg", ...(m.note ? { title: m.note } : {}) }, ...cg));  // what pass does
    btn.disabled = aiTurn || state.aiBusy;
    list.append(btn);
  }
  list.classList.toggle("wide", g.legal.length > 2);
}
