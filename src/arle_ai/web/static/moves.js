// The moves played and their review: the move list as a tree of variations, the review of
// the move shown (what was better and why, retry, play the better move), the event log, and
// the analysis of the line shown with its graph, marks and accuracy.

import { $, el, showMessage } from "./dom.js";
import { streamLines } from "./api.js";
import { state, isSolo, reviewedInVP, seatName, update } from "./state.js";
import { act } from "./game.js";
import { whyLine } from "./hint.js";
import { svgEl } from "./svg.js";

// The game's own line: the first move tried at each decision (its main continuation).
export function mainLine(g) {
  const byId = Object.fromEntries(g.tree.map((n) => [n.node, n]));
  const out = [];
  let kids = g.root_children;
  while (kids.length) { out.push(kids[0]); kids = byId[kids[0]].children; }
  return out;
}

// Where the line shown leaves the game's main line (null: it does not).
export function branchPly(g) {
  const main = mainLine(g);
  for (let i = 0; i < g.moves.length; i++) if (main[i] !== g.moves[i].node) return i;
  return null;
}

const markClass = (mark) => (mark === "??" ? "mark-qq" : mark === "?" ? "mark-q" : "");

// A count answered at a how-many question (a repeated conversion) is one entry, on the node
// of its last move: the nodes before it ("inner": the count going on) are folded into it,
// shown only where the count stops short (the position shown, the end of a line); the
// entry carries the worst review mark of its moves.
const folded = (n, g) => n.inner && n.node !== g.node && n.children.length > 0;
const worse = (a, b) => ((b === "??" || (b === "?" && a !== "??")) ? b : a);

// The moves as a tree (as lichess shows it): the game's own line, each variation after the
// move it is an alternative to, indented (another count at the same question after the
// count's entry); the line shown is marked, the position shown too.
export function renderMoveList(g) {
  const ol = $("move-list");
  ol.replaceChildren();
  const byId = Object.fromEntries(g.tree.map((n) => [n.node, n]));
  const plyOf = new Map(g.moves.map((m, i) => [m.node, i + 1]));
  const item = (n, carried = "") => {
    const ply = plyOf.get(n.node);
    const cls = [n.node === g.node ? "current" : "", ply === undefined ? "off-line" : ply > g.ply ? "future" : ""].filter(Boolean).join(" ");
    const li = el("li", { class: cls, "data-node": String(n.node), title: `notation: ${n.text}` },
      el("span", { class: "num", text: `${n.ply}.` }), el("span", { class: `tag p${n.player}`, text: `P${n.player}` }), ` ${n.label}`);
    if (ply !== undefined) li.setAttribute("data-ply", String(ply));
    const mark = worse(n.mark, carried);
    if (mark) li.append(" ", el("span", { class: `mark ${markClass(mark)}`, text: mark }));
    li.addEventListener("click", () => act("goto", { node: n.node }, { autoAI: false }));
    return li;
  };
  const chain = (first, into, alternatives) => {
    let id = first;
    let alts = alternatives;
    let carried = "";
    while (id !== undefined) {
      const n = byId[id];
      if (folded(n, g)) {  // its alternatives and its mark wait for the count's entry
        alts = alts.concat(n.children.slice(1));
        carried = worse(carried, n.mark);
        id = n.children[0];
        continue;
      }
      into.append(item(n, carried));
      carried = "";
      for (const alt of alts) {
        const sub = el("ol", { class: "variation" });
        chain(alt, sub, []);
        into.append(el("li", { class: "variation-box" }, sub));
      }
      alts = n.children.slice(1);
      id = n.children[0];
    }
  };
  if (g.root_children.length) chain(g.root_children[0], ol, g.root_children.slice(1));
  const cur = ol.querySelector(".current");
  // the move shown scrolled into the list's view, the list only (scrollIntoView scrolled the
  // side column too, taking the panels above the list out of sight)
  if (cur) {
    const top = cur.getBoundingClientRect().top - ol.getBoundingClientRect().top + ol.scrollTop;
    if (top < ol.scrollTop || top + cur.offsetHeight > ol.scrollTop + ol.clientHeight) ol.scrollTop = top - ol.clientHeight / 2;
  }
  $("ply-text").textContent = `decision ${g.ply} of ${g.length}`;
}

// The review of the move shown, in arle analyze's words. A marked move: what it lost (the
// solo game, reviewed by the score: the expected final score in VP, no value), the better
// move, at most three moves as good as it and how many more the search could not separate,
// its line and why, and a way to try the decision again (a variation: the game's moves are
// kept). A move without a mark is one of the best: it lost nothing.
export function renderReviewDetail(g) {
  const box = $("review-detail");
  box.replaceChildren();
  const m = g.ply ? g.moves[g.ply - 1] : null;
  const r = m && m.review;
  box.hidden = !r;
  if (!r) return;
  box.classList.toggle("best", !r.mark);
  const head = el("div", {}, el("b", { text: `Decision ${m.ply}: ` }), el("span", { class: `tag p${m.player}`, text: `P${m.player}` }), ` ${m.label} `);
  box.append(head);
  if (!r.mark) {
    head.append("- one of the best moves (no mark: it lost nothing)");
    if (r.as_good) box.append(el("div", { class: "as-good", text: r.as_good }));
    return;
  }
  const inVP = reviewedInVP(g);
  head.append(el("span", { class: `mark ${markClass(r.mark)}`, text: r.mark }),
    inVP ? ` lost ${r.vp_lost.toFixed(1)} VP of the expected final score` : ` lost ${r.lost.toFixed(3)} value (${r.vp_lost.toFixed(1)} VP)`);
  const measured = inVP ? `expected final score ${r.best_margin.toFixed(1)} VP against ${r.played_margin.toFixed(1)}`
    : `value ${r.best_value.toFixed(3)} against ${r.played_value.toFixed(3)}`;
  box.append(el("div", {}, el("b", { text: "Better: " }), r.best, ` (${measured})`,
    r.as_good ? el("span", { class: "as-good", text: `; ${r.as_good}` }) : null));
  if (r.best_line.length > 1) {
    const line = el("div", { class: "pv" }, el("b", { text: "The better line: " }));
    for (const step of r.best_line) line.append(el("span", { class: `tag p${step.player}`, text: `P${step.player}` }), ` ${step.label}  `);
    box.append(line);
  }
  if (r.why) box.append(whyLine(r.why));
  box.append(el("div", { class: "row" },
    el("button", { id: "retry", onclick: () => retry(m.ply) }, "Retry this decision"),
    el("button", { id: "play-better", onclick: () => playBetter(m.ply, r.best_text) }, "Play the better move")));
}

async function retry(ply) {
  update({ paused: true });
  await act("goto", { ply: ply - 1 }, { autoAI: false });
  showMessage(`Decision ${ply} again: play another move; the game's own moves stay as they are.`, true);
}

async function playBetter(ply, move) {
  update({ paused: true });
  await act("goto", { ply: ply - 1 }, { autoAI: false });
  await act("move", { move }, { autoAI: false });
}

// The event log, oldest first like the move list (the last 40 entries, scrolled to the
// newest): each move with its player's tag (the event names only other players), a count one
// entry (what all its moves did), then what the inventorying after it did.
export function renderLog(g) {
  const ul = $("event-log");
  ul.replaceChildren();
  const shown = g.moves.slice(0, g.ply).filter((m, i) => !m.inner || i === g.ply - 1);
  for (const m of shown.slice(-40)) {
    ul.append(el("li", {}, el("span", { class: `tag p${m.player}`, text: `${seatName(m.player)}` }), ` ${m.event}`));
    for (const step of m.steps) ul.append(el("li", { class: "step", text: step }));
  }
  ul.scrollTop = ul.scrollHeight;
}

export async function startAnalysis() {
  const seconds = Number($("analysis-seconds").value);
  $("analysis-status").textContent = "starting...";
  $("analysis-start").disabled = true;
  let finished = false;
  try {
    await streamLines(`/api/games/${state.id}/analysis?seconds=${seconds}`, (msg) => {
      if (msg.kind === "progress") $("analysis-status").textContent = `${msg.data.done}/${msg.data.total} positions`;
      else if (msg.kind === "done") finished = true;
      else if (msg.kind === "error") showMessage(msg.data);
    });
    if (finished) {  // the board again, with the marks
      await act("goto", { node: state.game.node }, { autoAI: false });
      $("analysis-status").textContent = "done";
    }
  } catch (e) { showMessage(e.message); $("analysis-status").textContent = ""; }
  $("analysis-start").disabled = false;
}

// The review's graph: per decision the value (player 0's view, blue) and the VP margin
// (brown); the solo review's, reviewed by the score, the expected final score alone (its
// squashed value is flat at the scores searches expect). The marks on the line they rate.
export function renderGraph(g) {
  const box = $("graph");
  const list = $("mistakes");
  box.replaceChildren(); list.replaceChildren(); $("accuracy").replaceChildren();
  const a = g.analysis;
  if (!a) { box.append(el("div", { class: "hint-text", text: isSolo(g) ? "Analyse the game to see the expected final score per decision, and its mistakes marked ? and ?? by the VP they lost." : "Analyse the game to see the value and VP margin per decision, and its mistakes marked ? and ??." })); return; }
  const solo = reviewedInVP(g);  // the brown line: the expected final score (0 up), not a lead (+/-)
  const pts = a.points;
  const nodeAt = (ply) => (ply > 0 ? a.nodes[ply - 1] : 0);
  const goPly = (ply) => act("goto", { node: nodeAt(Math.max(0, Math.min(a.nodes.length, ply))) }, { autoAI: false });
  const W = 420, H = 150, L = 30, R = 30, T = 8, B = 18;
  const maxPly = Math.max(1, a.nodes.length);
  const lowest = solo ? Math.min(0, ...pts.map((p) => p.margin)) : 0;
  const maxM = solo ? Math.max(lowest + 5, ...pts.map((p) => p.margin)) : Math.max(5, ...pts.map((p) => Math.abs(p.margin)));
  const minM = solo ? lowest : -maxM;
  const x = (ply) => L + ((W - L - R) * ply) / maxPly;
  const yv = (v) => T + (H - T - B) * (1 - v);
  const ym = (m) => T + (H - T - B) * (1 - (m - minM) / (maxM - minM));
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}` });
  const add = (tag, attrs, text) => { const n = svgEl(tag, attrs, text); svg.append(n); return n; };
  const vp = (m) => (solo ? `${Math.round(m)} VP` : `${m > 0 ? "+" : m < 0 ? "-" : ""}${Math.round(Math.abs(m))}`);
  if (solo) add("line", { x1: L, x2: W - R, y1: ym(0), y2: ym(0), stroke: "#ccc" });
  else {
    add("line", { x1: L, x2: W - R, y1: yv(0.5), y2: yv(0.5), stroke: "#ccc" });
    add("text", { x: 2, y: yv(1) + 8, "font-size": 9, fill: "#555" }, "P0 1");
    add("text", { x: 2, y: yv(0), "font-size": 9, fill: "#555" }, "0");
  }
  add("text", { x: W - R + 2, y: ym(maxM) + 8, "font-size": 9, fill: "#b28b3e", class: "axis-top" }, vp(maxM));
  add("text", { x: W - R + 2, y: ym(minM), "font-size": 9, fill: "#b28b3e", class: "axis-bottom" }, vp(minM));
  add("text", { x: L, y: H - 4, "font-size": 9, fill: "#555" }, solo ? "expected final score (brown, VP) per decision" : "value (P0's view, blue) and VP margin (brown) per decision");
  const path = (f) => pts.map((p, i) => `${i ? "L" : "M"}${x(p.ply).toFixed(1)},${f(p).toFixed(1)}`).join(" ");
  add("path", { d: path((p) => ym(p.margin)), fill: "none", stroke: "#b28b3e", "stroke-width": solo ? 1.5 : 1.2, class: "score-line" });
  if (!solo) add("path", { d: path((p) => yv(p.value)), fill: "none", stroke: "#2d6cb5", "stroke-width": 1.5, class: "value-line" });
  const at = (p) => (solo ? ym(p.margin) : yv(p.value));  // a mark on the line its review rates
  const shown = a.nodes.indexOf(g.node) + 1;
  if (shown > 0 || g.node === 0) add("line", { x1: x(shown), x2: x(shown), y1: T, y2: H - B, stroke: "#e2b93b", "stroke-width": 2 });
  const marked = a.mistakes.filter((m) => m.mark);  // "?" and "??" as arle analyze marks them
  for (const m of marked) {
    const p = pts.find((q) => q.ply === m.ply);
    if (!p) continue;
    const c = add("circle", { cx: x(p.ply), cy: at(p), r: 5, fill: m.mark === "??" ? "#c0392b" : "#e67e22", class: "mistake", "data-ply": m.ply });
    c.addEventListener("click", (ev) => { ev.stopPropagation(); goPly(m.ply); });
    // beside its point, inside the plot (clear of the axis's labels)
    add("text", { x: x(p.ply) + (x(p.ply) > W - R - 16 ? -18 : 6), y: at(p) < T + 10 ? at(p) + 12 : at(p) - 4, "font-size": 10, fill: "#c0392b" }, m.mark);
  }
  svg.addEventListener("click", (ev) => {
    const r = svg.getBoundingClientRect();
    goPly(Math.round(((ev.clientX - r.left) * W / r.width - L) / (W - L - R) * maxPly));
  });
  box.append(svg);
  const budget = a.time_limit ? `${a.time_limit} s` : `${a.iterations} iterations`;
  for (const p of [0, 1]) {
    const s = a.players[String(p)];
    // the library's sentence, as arle analyze prints it
    if (s && s.summary) $("accuracy").append(el("div", { class: "summary", "data-player": String(p) }, el("span", { class: `tag p${p}`, text: `P${p}` }), ` ${s.summary}`));
  }
  $("accuracy").append(el("div", { class: "hint-text", text: `searched ${budget} a decision` + (a.shared < a.nodes.length ? `; the line shown leaves the reviewed one after decision ${a.shared}` : "") }));
  for (const m of marked) {
    list.append(el("li", { onclick: () => goPly(m.ply) },
      el("span", { class: `mark ${markClass(m.mark)}`, text: m.mark }), " ",
      el("span", { class: `tag p${m.player}`, text: `P${m.player}` }),
      ` decision ${m.ply} (half-year ${m.half_year}): played ${m.played_label || m.played}, better ${m.best_label || m.best}, lost ${solo ? `${m.vp_lost.toFixed(1)} VP` : `${m.value_lost.toFixed(3)} (${m.vp_lost.toFixed(1)} VP)`}`));
  }
}
