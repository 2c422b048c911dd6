// Fields of Arle analysis board: the page's logic (plain JavaScript, no build step).
// Every game fact comes from the server (/api/catalog and the game view); this file draws
// and sends the player's choices. Each tab keeps its own game id in sessionStorage.
"use strict";

const $ = (id) => document.getElementById(id);
const state = {
  catalog: null, id: null, game: null, hint: null, hintFollow: null, analysis: null,
  aiBusy: false, paused: false, editor: null, editorBase: null,
};

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

function showMessage(text, ok = false) {
  const m = $("message");
  if (!text) { m.hidden = true; return; }
  m.textContent = text; m.className = ok ? "ok" : ""; m.hidden = false;
}

async function api(path, options = {}) {
  const init = { method: options.method || (options.body ? "POST" : "GET"), headers: {} };
  if (options.body !== undefined) {
    init.body = JSON.stringify(options.body);
    init.headers["Content-Type"] = "application/json";
  }
  if (options.signal) init.signal = options.signal;
  const res = await fetch(path, init);
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) {
    const err = new Error((data && data.error) || `${res.status} ${res.statusText}`);
    err.status = res.status;
    throw err;
  }
  return data;
}

// Read a JSON-lines stream, calling onMessage for each line; resolves when it ends.
async function streamLines(path, onMessage, signal) {
  const res = await fetch(path, { signal });
  if (!res.ok) {
    let msg = `${res.status}`;
    try { msg = (await res.json()).error; } catch (e) { /* keep the status */ }
    throw new Error(msg);
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += decoder.decode(value, { stream: true });
    let nl;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl); buf = buf.slice(nl + 1);
      if (line.trim()) onMessage(JSON.parse(line));
    }
  }
}

const nameOf = (key) => (state.catalog && state.catalog.names[key]) || key.replaceAll("_", " ");
const title = (key) => { const s = key.replaceAll("_", " "); return s.charAt(0).toUpperCase() + s.slice(1); };
const num = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(1));
const signed = (x, d = 1) => (x >= 0 ? "+" : "") + x.toFixed(d);
const pct = (x) => (100 * x).toFixed(1) + "%";

const isSolo = (g) => !!g && g.players_count === 1;
// The seats as the page's selectors say: one in the solo game.
const pageSeats = (g) => (isSolo(g) ? [$("seat0").value] : [$("seat0").value, $("seat1").value]);

function seatName(p) {
  const g = state.game;
  const who = g && g.seats[p] === "ai" ? "AI" : "you";
  return isSolo(g) ? (who === "AI" ? "AI (solo)" : "You (solo)") : `P${p} (${who})`;
}

// ---------------------------------------------------------------- the game

// The position on the board: the game and the decisions that led to it.
const positionKey = (id, g) => `${id} ${g.node}`;

async function setGame(reply, { autoAI = true } = {}) {
  const before = state.game && positionKey(state.id, state.game);
  if (reply.id !== state.id) clearHint();  // another game: the last hint was about this one
  state.id = reply.id;
  state.game = reply.game;
  sessionStorage.setItem("arle-game", reply.id);
  render();
  // a running hint follows the board: the server stopped the old position's search
  if (state.hintFollow && before !== positionKey(reply.id, reply.game)) {
    if (reply.game.terminal) cancelHint();
    else startHint(state.hintFollow.seconds);
  }
  if (autoAI) maybeAI();
}

async function newGame(body) {
  cancelHint();
  body.seats = body.players === 1 ? [$("seat0").value] : [$("seat0").value, $("seat1").value];
  state.paused = false;
  await setGame(await api("/api/games", { body }));
}

// Changes to the game go to the server one at a time, in the order they were made, so the
// board always shows the answer to the last of them.
let queue = Promise.resolve();
function act(path, body = {}, opts = {}) {
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
function takenBack(was, now) {
  const gone = was ? was.moves.slice(now.ply, was.ply) : [];
  if (!gone.length) return "";
  return `Taken back: ${gone.map((m) => `P${m.player} ${m.label}`).join(", ")} (Redo plays ` +
    `${gone.length === 1 ? "it" : "them"} again)`;
}

function aiChoice() {
  const kind = $("ai-kind").value;
  return kind === "mcts" ? { kind, seconds: Number($("ai-seconds").value) } : { kind };
}

async function runAI() {
  if (state.aiBusy || !state.game || state.game.terminal) return;
  state.aiBusy = true;
  const p = state.game.to_move;
  $("ai-status").textContent = `${seatName(p)} is thinking...`;
  try {
    const gid = state.id;
    const reply = await api(`/api/games/${gid}/ai`, { body: { ai: aiChoice() } });
    state.aiBusy = false;
    if (state.id !== gid) { $("ai-status").textContent = ""; return; } // another game now
    const last = reply.game.moves[reply.game.ply - 1];
    $("ai-status").textContent = `AI (P${p}) played ${last ? last.label : ""} ` +
      `in ${reply.ai.seconds.toFixed(2)} s`;
    await setGame(reply);
  } catch (e) {
    state.aiBusy = false;
    // 409: the board changed while the AI was thinking (you undid or stepped): not a fault
    $("ai-status").textContent = e.status === 409 && e.message.includes("position changed")
      ? `P${p}'s AI move was cancelled: the position changed` : "";
    if (!$("ai-status").textContent) showMessage(e.message);
  }
}

function maybeAI() {
  const g = state.game;
  if (g && g.ai_to_move && g.ply === g.length && !state.paused) setTimeout(runAI, 30);
}

// ---------------------------------------------------------------- drawing the board

function render() {
  const g = state.game;
  if (!g) return;
  renderStatus(g);
  renderHistoryCue(g);
  drawGameBoard($("gameboard"), g, state.catalog);
  renderPlayers(g);
  markTargets(g);
  renderLegal(g);
  renderMoveList(g);
  renderReviewDetail(g);
  renderLog(g);
  renderGraph(g);
  renderHintFreshness();
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
    s.append(el("span", {}, el("b", { text: `Game over: P${g.winner} wins ` }), `${num(g.scores[0])} - ${num(g.scores[1])}`));
  } else {
    s.append(el("span", {}, "To move: ", el("span", { class: `tag p${g.to_move}`, text: seatName(g.to_move) })));
  }
  s.append(el("span", { text: `Score P0 ${num(g.scores[0])} - P1 ${num(g.scores[1])}` }));
  if (g.setup) s.append(el("span", { class: "hint-text", text: `seed ${g.setup.seed}, ${g.setup.variant}` }));
}

// The game's own line: the first move tried at each decision (its main continuation).
function mainLine(g) {
  const byId = Object.fromEntries(g.tree.map((n) => [n.node, n]));
  const out = [];
  let kids = g.root_children;
  while (kids.length) { out.push(kids[0]); kids = byId[kids[0]].children; }
  return out;
}

// Where the line shown leaves the game's main line (null: it does not).
function branchPly(g) {
  const main = mainLine(g);
  for (let i = 0; i < g.moves.length; i++) if (main[i] !== g.moves[i].node) return i;
  return null;
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
function markTargets(g) {
  const aiTurn = g.ai_to_move && g.ply === g.length && !state.paused;
  if (g.terminal || aiTurn || state.aiBusy) return;
  const byTarget = {};
  for (const m of g.legal) if (m.on) (byTarget[m.on] = byTarget[m.on] || []).push(m);
  for (const node of $("board").querySelectorAll("[data-on]")) {
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
  for (const m of g.legal) {
    // as arle play's menu says it: "built a stall (-1 grain, -2 clay)", "+3 clay"
    const amounts = [];
    for (const a of m.amounts) {
      if (amounts.length) amounts.push(", ");
      amounts.push(el("span", { class: a.startsWith("-") ? "cost" : "gain", text: a }));
    }
    const cg = m.done ? [m.done, ...(amounts.length ? [" (", ...amounts, ")"] : [])] : amounts;
    const btn = el("button", { class: "move-btn", title: `notation: ${m.text}`, "data-action": String(m.action), onclick: () => act("move", { action: m.action }) },
      el("span", { class: "label", text: m.label }),
      el("span", { class: "vp", text: m.vp ? `${signed(m.vp)} VP` : "" }),
      el("span", { class: "cg" }, ...cg));
    btn.disabled = aiTurn || state.aiBusy;
    list.append(btn);
  }
  list.classList.toggle("wide", g.legal.length > 2);
}

const markClass = (mark) => (mark === "??" ? "mark-qq" : mark === "?" ? "mark-q" : "");

// The moves as a tree (as lichess shows it): the game's own line, each variation after the
// move it is an alternative to, indented; the line shown is marked, the position shown too.
function renderMoveList(g) {
  const ol = $("move-list");
  ol.replaceChildren();
  const byId = Object.fromEntries(g.tree.map((n) => [n.node, n]));
  const plyOf = new Map(g.moves.map((m, i) => [m.node, i + 1]));
  const item = (n) => {
    const ply = plyOf.get(n.node);
    const cls = [n.node === g.node ? "current" : "", ply === undefined ? "off-line" : ply > g.ply ? "future" : ""].filter(Boolean).join(" ");
    const li = el("li", { class: cls, "data-node": String(n.node), title: `notation: ${n.text}` },
      el("span", { class: "num", text: `${n.ply}.` }), el("span", { class: `tag p${n.player}`, text: `P${n.player}` }), ` ${n.label}`);
    if (ply !== undefined) li.setAttribute("data-ply", String(ply));
    if (n.mark) li.append(" ", el("span", { class: `mark ${markClass(n.mark)}`, text: n.mark }));
    li.addEventListener("click", () => act("goto", { node: n.node }, { autoAI: false }));
    return li;
  };
  const chain = (first, into, alternatives) => {
    let id = first;
    let alts = alternatives;
    while (id !== undefined) {
      const n = byId[id];
      into.append(item(n));
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
  if (cur) cur.scrollIntoView({ block: "nearest" });
  $("ply-text").textContent = `decision ${g.ply} of ${g.length}`;
}

// The review of the move shown (a marked one): what was better, its line and why, and a way
// to try the decision again (a variation: the game's moves are kept).
function renderReviewDetail(g) {
  const box = $("review-detail");
  box.replaceChildren();
  const m = g.ply ? g.moves[g.ply - 1] : null;
  const r = m && m.review;
  box.hidden = !r || !r.mark;
  if (box.hidden) return;
  box.append(el("div", {}, el("b", { text: `Decision ${m.ply}: ` }), el("span", { class: `tag p${m.player}`, text: `P${m.player}` }),
    ` ${m.label} `, el("span", { class: `mark ${markClass(r.mark)}`, text: r.mark }),
    ` lost ${r.lost.toFixed(3)} value (${r.vp_lost.toFixed(1)} VP)`));
  box.append(el("div", {}, el("b", { text: "Better: " }), r.best, ` (value ${r.best_value.toFixed(3)} against ${r.played_value.toFixed(3)})` + (r.near_best.length ? `; as good: ${r.near_best.join(", ")}` : "")));
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

// Why the better move is better, in the library's words (arle_ai.play.why): the mover's lead
// in VP by scoring category, better move against the other.
function whyLine(why) {
  const better = why.better_label || why.better, other = why.other_label || why.other;
  return el("div", { class: "why" }, el("b", { text: "Why " }), `${better} rather than ${other}: ${why.text}`);
}

async function retry(ply) {
  state.paused = true;
  await act("goto", { ply: ply - 1 }, { autoAI: false });
  showMessage(`Decision ${ply} again: play another move; the game's own moves stay as they are.`, true);
}

async function playBetter(ply, move) {
  state.paused = true;
  await act("goto", { ply: ply - 1 }, { autoAI: false });
  await act("move", { move }, { autoAI: false });
}

function renderLog(g) {
  const ul = $("event-log");
  ul.replaceChildren();
  const shown = g.moves.slice(0, g.ply).slice(-40).reverse();
  for (const m of shown) {
    for (const step of [...m.steps].reverse()) ul.append(el("li", { class: "step", text: step }));
    ul.append(el("li", {}, el("span", { class: `tag p${m.player}`, text: `${seatName(m.player)}` }), ` ${m.event}`));
  }
}

// ---------------------------------------------------------------- hint

// A hint runs on the position shown, also while the AI is thinking (the server keeps a
// game's hint and AI move apart). While it runs it follows the board: when the position
// changes (the AI replied, you moved, undid or stepped) it starts again on the new one.
// It is labelled with the decision it answers, and greyed once the board shows another.
function stopHint() {
  if (state.hint) { state.hint.abort(); state.hint = null; }
  $("hint-stop").disabled = true;
  $("hint-start").disabled = !state.game || state.game.terminal;
}

function cancelHint() {
  state.hintFollow = null;
  if (state.hint) $("hint-status").textContent += " - stopped";
  stopHint();
}

function clearHint() {
  cancelHint();
  state.hintFor = null;
  $("hint-table").replaceChildren();
  $("hint-why").replaceChildren();
  $("hint-status").textContent = "";
  $("hint-for").textContent = "";
  $("hint-body").classList.remove("stale");
}

function renderHintFreshness() {
  const f = state.hintFor;
  if (!f || !state.game) return;
  const stale = f.key !== positionKey(state.id, state.game);
  $("hint-body").classList.toggle("stale", stale);
  $("hint-for").textContent = `for decision ${f.decision} (${f.prompt})` + (stale ? " - the board shows another position" : "");
}

async function startHint(seconds) {
  stopHint();
  const controller = new AbortController();
  const g = state.game;
  state.hint = controller;
  state.hintFollow = { seconds };
  const asked = { key: positionKey(state.id, g), decision: g.ply + 1, player: g.to_move, prompt: g.prompt, labels: Object.fromEntries(g.legal.map((m) => [m.action, m.label])) };
  $("hint-stop").disabled = false;
  $("hint-start").disabled = true;
  $("hint-status").textContent = "starting...";
  $("hint-why").replaceChildren();
  let updates = 0;
  const mine = () => state.hint === controller;
  try {
    await streamLines(`/api/games/${state.id}/hint?seconds=${seconds}`, (msg) => {
      if (!mine()) return;
      if (msg.kind === "start") document.body.dataset.hintPly = String(msg.ply);
      else if (msg.kind === "update") {
        updates++;
        state.hintFor = asked;
        renderHint(msg.data, asked);
        renderHintFreshness();
      } else if (msg.kind === "done") {
        const why = msg.data.reason;
        $("hint-status").textContent += why === "memory" ? " - stopped at its memory bound"
          : why === "stopped" ? ` - stopped (${msg.data.message})` : " - done";
        // the position changed: the board's next reply starts the hint again
        if (why !== "stopped" || msg.data.message !== "the position changed") state.hintFollow = null;
        if (why !== "stopped") document.body.dataset.hintUpdates = String(updates);
        $("hint-why").replaceChildren(...(msg.data.why ? [whyLine(msg.data.why)] : []));
      } else if (msg.kind === "error") { state.hintFollow = null; showMessage(msg.data); }
    }, controller.signal);
  } catch (e) {
    // (an AbortError: cancelled, or started again on a new position)
    if (e.name !== "AbortError") { if (mine()) state.hintFollow = null; showMessage(e.message); }
  }
  if (mine()) { state.hint = null; $("hint-stop").disabled = true; $("hint-start").disabled = !state.game || state.game.terminal; }
}

// The hint in the words and units of `arle suggest`: visits, value (0..1, a ranking score,
// not a chance to win), margin in VP, "~" for a move within statistical noise of the best.
function renderHint(d, asked) {
  $("hint-status").textContent = `${d.iterations} simulations in ${d.seconds.toFixed(1)} s (${Math.round(d.iterations_per_second)}/s)`;
  const t = $("hint-table");
  const solo = isSolo(state.game);  // the solo game: the expected final score, not a lead
  t.replaceChildren(el("tr", {}, el("th", { text: "move" }), el("th", { class: "n", text: "visits" }), el("th", { class: "n", text: "value" }), el("th", { class: "n", text: solo ? "score" : "margin" }), el("th", { text: "" })));
  for (const m of d.moves.slice(0, 6)) {
    const row = el("tr", { class: "hint-row" },
      el("td", {}, el("b", { text: asked.labels[m.action] || m.move })),
      el("td", { class: "n", text: String(m.visits) }),
      el("td", { class: "n", text: m.value.toFixed(3), title: (solo ? state.catalog.solo_legend : state.catalog.legend)[1] }),
      el("td", { class: "n", text: solo ? m.margin.toFixed(1) : signed(m.margin), title: solo ? "the mean final score the search expects" : "the mover's mean final VP lead" }),
      el("td", { class: "near", text: m.near_best ? "~" : "", title: m.near_best ? "within statistical noise of the best move" : "" }));
    t.append(row);
    if (m.pv.length > 1) {
      const pv = el("td", { class: "pv", colspan: "5" });
      for (const step of m.pv.slice(1)) pv.append(el("span", { class: `tag p${step.player}`, text: `P${step.player}` }), ` ${step.label}  `);
      t.append(el("tr", {}, pv));
    }
  }
}

// ---------------------------------------------------------------- analysis and graph

async function startAnalysis() {
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

function renderGraph(g) {
  const box = $("graph");
  const list = $("mistakes");
  box.replaceChildren(); list.replaceChildren(); $("accuracy").replaceChildren();
  const a = g.analysis;
  const solo = isSolo(g);  // the brown line: the expected final score (0 up), not a lead (+/-)
  if (!a) { box.append(el("div", { class: "hint-text", text: `Analyse the game to see the value and ${solo ? "expected final score" : "VP margin"} per decision, and its mistakes marked ? and ??.` })); return; }
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
  add("line", { x1: L, x2: W - R, y1: yv(0.5), y2: yv(0.5), stroke: "#ccc" });
  add("text", { x: 2, y: yv(1) + 8, "font-size": 9, fill: "#555" }, solo ? "1" : "P0 1");
  add("text", { x: 2, y: yv(0), "font-size": 9, fill: "#555" }, "0");
  const vp = (m) => (solo ? `${Math.round(m)} VP` : `${m > 0 ? "+" : m < 0 ? "-" : ""}${Math.round(Math.abs(m))}`);
  add("text", { x: W - R + 2, y: ym(maxM) + 8, "font-size": 9, fill: "#b28b3e", class: "axis-top" }, vp(maxM));
  add("text", { x: W - R + 2, y: ym(minM), "font-size": 9, fill: "#b28b3e", class: "axis-bottom" }, vp(minM));
  add("text", { x: L, y: H - 4, "font-size": 9, fill: "#555" }, solo ? "value (blue) and expected final score (brown) per decision" : "value (P0's view, blue) and VP margin (brown) per decision");
  const path = (f) => pts.map((p, i) => `${i ? "L" : "M"}${x(p.ply).toFixed(1)},${f(p).toFixed(1)}`).join(" ");
  add("path", { d: path((p) => ym(p.margin)), fill: "none", stroke: "#b28b3e", "stroke-width": 1.2 });
  add("path", { d: path((p) => yv(p.value)), fill: "none", stroke: "#2d6cb5", "stroke-width": 1.5 });
  const shown = a.nodes.indexOf(g.node) + 1;
  if (shown > 0 || g.node === 0) add("line", { x1: x(shown), x2: x(shown), y1: T, y2: H - B, stroke: "#e2b93b", "stroke-width": 2 });
  const marked = a.mistakes.filter((m) => m.mark);  // "?" and "??" as arle analyze marks them
  for (const m of marked) {
    const p = pts.find((q) => q.ply === m.ply);
    if (!p) continue;
    const c = add("circle", { cx: x(p.ply), cy: yv(p.value), r: 5, fill: m.mark === "??" ? "#c0392b" : "#e67e22", class: "mistake", "data-ply": m.ply });
    c.addEventListener("click", (ev) => { ev.stopPropagation(); goPly(m.ply); });
    add("text", { x: x(p.ply) + 6, y: yv(p.value) - 4, "font-size": 10, fill: "#c0392b" }, m.mark);
  }
  svg.addEventListener("click", (ev) => {
    const r = svg.getBoundingClientRect();
    goPly(Math.round(((ev.clientX - r.left) * W / r.width - L) / (W - L - R) * maxPly));
  });
  box.append(svg);
  const budget = a.time_limit ? `${a.time_limit} s` : `${a.iterations} iterations`;
  for (const p of [0, 1]) {
    const s = a.players[String(p)];
    if (s && s.accuracy !== null) $("accuracy").append(el("div", {}, el("span", { class: `tag p${p}`, text: `P${p}` }), ` accuracy ${s.accuracy.toFixed(1)}%, ${s.mean_vp_lost.toFixed(2)} VP lost a decision, a best move in ${(100 * s.best_move_rate).toFixed(0)}% of ${s.decisions}`));
  }
  $("accuracy").append(el("div", { class: "hint-text", text: `searched ${budget} a decision` + (a.shared < a.nodes.length ? `; the line shown leaves the reviewed one after decision ${a.shared}` : "") }));
  for (const m of marked) {
    list.append(el("li", { onclick: () => goPly(m.ply) },
      el("span", { class: `mark ${markClass(m.mark)}`, text: m.mark }), " ",
      el("span", { class: `tag p${m.player}`, text: `P${m.player}` }),
      ` decision ${m.ply} (half-year ${m.half_year}): played ${m.played_label || m.played}, better ${m.best_label || m.best}, lost ${m.value_lost.toFixed(3)} (${m.vp_lost.toFixed(1)} VP)`));
  }
}

// ---------------------------------------------------------------- position editor

const HOME_FIELDS = ["dikes", "hydrated_moors", "boardwalk_peat", "grain_fields", "flax_fields", "forests", "parks", "stalls", "depots", "stables", "double_stalls"];

function numberInput(path, value, min = 0, max = 999) {
  return el("input", { type: "number", min: String(min), max: String(max), value: String(value), "data-path": path });
}

function buildEditor(position) {
  if (position.players.length !== 2) {  // the form asks two boards
    state.editorBase = null;
    $("editor").replaceChildren(el("p", { class: "hint-text", text: "The editor enters two-player positions; a solo position is entered with 'arle edit FILE --players 1' and opened here." }));
    return;
  }
  state.editorBase = JSON.parse(JSON.stringify(position));
  delete state.editorBase.pending;
  const form = $("editor");
  form.replaceChildren();
  const cat = state.catalog;
  const general = el("fieldset", {}, el("legend", { text: "Game" }));
  const gg = el("div", { class: "grid two" });
  gg.append(el("label", { text: "Half-year" }), numberInput("half_year", position.half_year, 1, 9));
  const sp = el("select", { "data-path": "start_player", "data-type": "int" }, el("option", { value: "0", text: "P0" }), el("option", { value: "1", text: "P1" }));
  sp.value = String(position.start_player);
  gg.append(el("label", { text: "Start player" }), sp);
  gg.append(el("label", { text: "Workers placed" }), numberInput("workers_placed", position.workers_placed || 0, 0, 8));
  const sab = el("select", { "data-path": "special_action_by", "data-type": "player" },
    el("option", { value: "", text: "nobody" }), el("option", { value: "0", text: "P0" }), el("option", { value: "1", text: "P1" }));
  sab.value = position.special_action_by === null || position.special_action_by === undefined ? "" : String(position.special_action_by);
  gg.append(el("label", { text: "Special action used by" }), sab);
  general.append(gg);
  form.append(general);
  // the workers on the action spaces: click a space for P0, again for P1, again for none
  state.editorOccupied = { ...(position.occupied || {}) };
  const workers = el("fieldset", { id: "editor-workers" }, el("legend", { text: "Workers on the action spaces" }),
    el("div", { class: "hint-text", text: "Click a space: a worker of P0, click again: of P1, again: none. A space of the other season is the special action." }),
    el("div", { id: "editor-board", class: "panel" }));
  // the buildings in play (on the game board's spaces, or built) and where each is
  const inPlay = new Set([...(position.setup && position.setup.buildings || []), ...position.buildings_on_board,
    ...position.players.flatMap((p) => p.home.buildings)]);
  const where = (key) => {
    for (const i of [0, 1]) if (position.players[i].home.buildings.includes(key)) return `built${i}`;
    if (position.buildings_on_board.includes(key)) return "board";
    return inPlay.has(key) ? "board" : "out";
  };
  const bfs = el("fieldset", { id: "editor-buildings" }, el("legend", { text: "Buildings in play" }),
    el("div", { id: "editor-colours", class: "hint-text" }));
  const bt = el("div", { class: "building-grid" });
  for (const b of cat.buildings) {
    const sel = el("select", { "data-building": b.key, "aria-label": b.name },
      el("option", { value: "out", text: "not in play" }), el("option", { value: "board", text: "on the board" }),
      el("option", { value: "built0", text: "built by P0" }), el("option", { value: "built1", text: "built by P1" }));
    sel.value = where(b.key);
    bt.append(el("label", { class: `chip b-${b.colour}`, title: `${b.name}: ${b.cost}. ${b.ability}`, text: b.name }), sel);
  }
  bfs.append(bt);
  position.players.forEach((p, i) => {
    const fs = el("fieldset", { id: `editor-p${i}` }, el("legend", { class: `p${i}`, text: `Player ${i}` }));
    const grid = el("div", { class: "grid" });
    const allGoods = [...cat.goods.track, ...cat.goods.materials, "peat", ...cat.goods.textiles];
    for (const k of allGoods) grid.append(el("label", { text: title(k) }), numberInput(`players.${i}.goods.${k}`, p.goods[k] || 0));
    for (const k of cat.animals) grid.append(el("label", { text: title(k) }), numberInput(`players.${i}.animals.${k}`, p.animals[k] || 0));
    for (const t of cat.tools) {
      const s = el("select", { "data-path": `players.${i}.tools.${t.key}`, "data-type": "int" });
      for (const v of t.values) s.append(el("option", { value: String(v), text: String(v) }));
      s.value = String(p.tools[t.key]);
      grid.append(el("label", { text: t.name }), s);
    }
    for (const k of HOME_FIELDS) grid.append(el("label", { text: title(k) }), numberInput(`players.${i}.home.${k}`, p.home[k]));
    grid.append(el("label", { text: "Dehydrated moors (peat on each)" }), el("input", { type: "text", size: "6", value: p.home.dehydrated_moors.join(","), "data-path": `players.${i}.home.dehydrated_moors`, "data-type": "intlist" }));
    grid.append(el("label", { text: "Peat boats" }), numberInput(`players.${i}.barn.peat_boats`, p.barn.peat_boats));
    grid.append(el("label", { text: "Plows" }), numberInput(`players.${i}.barn.plows`, p.barn.plows));
    grid.append(el("label", { text: "Bottlenecks" }), numberInput(`players.${i}.bottlenecks`, p.bottlenecks));
    fs.append(grid);
    const counts = {};
    for (const v of p.barn.vehicles) counts[v.kind] = (counts[v.kind] || 0) + 1;
    const vg = el("div", { class: "grid" });
    for (const v of cat.vehicles.filter((x) => x.kind !== "equipment")) vg.append(el("label", { text: v.name }), numberInput(`players.${i}.vehicles.${v.key}`, counts[v.key] || 0, 0, 3));
    fs.append(el("div", { class: "hint-text", text: "Vehicles in the barn:" }), vg);
    const travel = el("div", { class: "checks" });
    for (const d of cat.destinations) {
      const cb = el("input", { type: "checkbox", "data-list": `players.${i}.travel`, value: d.key });
      cb.checked = p.travel.includes(d.key);
      travel.append(el("label", {}, cb, ` ${d.name}`));
    }
    fs.append(el("div", { class: "hint-text", text: "Travel track:" }), travel);
    form.append(fs);
  });
  form.append(workers, bfs);
  form.dataset.built = String(Number(form.dataset.built || 0) + 1);
  drawEditorBoard(position);
  checkEditor();
}

function setPath(obj, path, value) {
  const keys = path.split(".");
  let o = obj;
  for (const k of keys.slice(0, -1)) o = o[k];
  o[keys[keys.length - 1]] = value;
}

function editorPosition() {
  const pos = JSON.parse(JSON.stringify(state.editorBase));
  const form = $("editor");
  for (const input of form.querySelectorAll("[data-path]")) {
    const path = input.dataset.path;
    const raw = input.value.trim();
    let value;
    if (input.dataset.type === "player") value = raw === "" ? null : Number(raw);
    else if (input.dataset.type === "intlist") value = raw ? raw.split(",").map((s) => (/^\s*-?\d+\s*$/.test(s) ? Number(s) : s.trim())) : [];
    else value = /^-?\d+$/.test(raw) ? Number(raw) : raw;
    const m = path.match(/^players\.(\d)\.vehicles\.(\w+)$/);
    if (m) continue;
    setPath(pos, path, value);
  }
  for (const i of [0, 1]) {
    const vehicles = [];
    for (const v of state.catalog.vehicles) {
      const input = form.querySelector(`[data-path="players.${i}.vehicles.${v.key}"]`);
      if (!input) continue;
      const n = /^\d+$/.test(input.value.trim()) ? Number(input.value) : 0;
      const kept = state.editorBase.players[i].barn.vehicles.filter((x) => x.kind === v.key);
      for (let k = 0; k < n; k++) vehicles.push(kept[k] || { kind: v.key, used: [] });
    }
    pos.players[i].barn.vehicles = vehicles;
  }
  const lists = {};
  for (const cb of form.querySelectorAll("[data-list]")) {
    lists[cb.dataset.list] = lists[cb.dataset.list] || [];
    if (cb.checked) lists[cb.dataset.list].push(cb.value);
  }
  for (const [path, value] of Object.entries(lists)) setPath(pos, path, value);
  // the workers, and the buildings by where they are
  pos.occupied = { ...state.editorOccupied };
  const chosen = {};
  for (const sel of form.querySelectorAll("[data-building]")) chosen[sel.dataset.building] = sel.value;
  const keys = state.catalog.buildings.map((b) => b.key);
  pos.setup = { ...(pos.setup || {}), buildings: keys.filter((k) => chosen[k] !== "out") };
  pos.buildings_on_board = keys.filter((k) => chosen[k] === "board");
  for (const i of [0, 1]) pos.players[i].home.buildings = keys.filter((k) => chosen[k] === `built${i}`);
  return pos;
}

// The editor's game board: the spaces with the workers placed so far, clickable.
function drawEditorBoard(pos) {
  const season = pos.half_year % 2 === 1 ? "summer" : "winter";
  const g = { position: { ...pos, occupied: state.editorOccupied }, season, half_year: pos.half_year, start_player: pos.start_player };
  const box = $("editor-board");
  if (!box) return;
  drawGameBoard(box, g, state.catalog, { id: "editor-board-svg", spacesOnly: true });
  for (const card of box.querySelectorAll(".space-card")) {
    card.classList.add("clickable");
    card.addEventListener("click", () => {
      const key = card.dataset.space;
      const who = state.editorOccupied[key];
      if (who === undefined) state.editorOccupied[key] = 0;
      else if (who === 0) state.editorOccupied[key] = 1;
      else delete state.editorOccupied[key];
      const other = state.catalog.spaces.find((x) => x.key === key).season !== season;
      const form = $("editor");
      if (other && state.editorOccupied[key] !== undefined) form.querySelector("[data-path='special_action_by']").value = String(state.editorOccupied[key]);
      const placed = form.querySelector("[data-path='workers_placed']");
      const n = Object.keys(state.editorOccupied).length;
      if (Number(placed.value) < n) placed.value = String(n);  // each worker on a space was placed
      drawEditorBoard(editorPosition());
      checkEditor();
    });
  }
}

let editorTimer = null;
let editorSeq = 0;
async function checkEditor() {
  const pos = editorPosition();
  const seq = ++editorSeq;
  const colours = {};
  for (const k of pos.setup.buildings) {
    const c = state.catalog.buildings.find((b) => b.key === k).space;
    colours[c] = (colours[c] || 0) + 1;
  }
  $("editor-colours").textContent = "In play: " + Object.entries(state.catalog.building_spaces).map(([c, n]) => `${colours[c] || 0} of ${n} ${c}`).join(", ");
  const box = $("editor-check");
  try {
    const r = await api("/api/position/check", { body: { position: pos } });
    if (seq !== editorSeq) return;
    for (const inp of $("editor").querySelectorAll(".invalid")) inp.classList.remove("invalid");
    if (r.valid) {
      box.className = "check good";
      box.textContent = `Valid position: half-year ${r.view.half_year} (${r.view.season}), P${r.view.to_move} to move; score P0 ${num(r.view.scores[0])} - P1 ${num(r.view.scores[1])}`;
      state.editor = r.position;
      const blob = new Blob([JSON.stringify(r.position, null, 1) + "\n"], { type: "application/json" });
      $("editor-export").href = URL.createObjectURL(blob);
      $("editor-export").classList.remove("disabled");
      $("editor-play").disabled = false;
    } else {
      box.className = "check bad";
      box.textContent = r.error;
      state.editor = null;
      $("editor-play").disabled = true;
      $("editor-export").removeAttribute("href");
      markField(r.error);
    }
  } catch (e) { box.className = "check bad"; box.textContent = e.message; }
}

// Outline the input the library's message names (e.g. "players[1].goods.grain: ...").
function markField(message) {
  const m = message.match(/^([\w\[\].]+):/);
  if (!m) return;
  const path = m[1].replace(/\[(\d+)\]/g, ".$1");
  const input = $("editor").querySelector(`[data-path="${path}"]`);
  if (input) input.classList.add("invalid");
}

// ---------------------------------------------------------------- tournament results

async function openTournament(file) {
  $("tournament-status").textContent = `reading ${file.name}...`;
  const out = $("tournament");
  out.replaceChildren();
  try {
    const text = await file.text();
    const s = await api("/api/tournament", { body: { text } });
    $("tournament-status").textContent = `${file.name}: ${s.games} games, ${s.agents.length} agents` + (s.header.variant ? `, ${s.header.variant}` : "");
    const t = el("table", { class: "data", id: "pairings" });
    t.append(el("tr", {}, ...["pairing", "games", "W-D-L", "score [95%]", "Elo [95%]", "LOS", "VP margin [95%]", "start player won"].map((h) => el("th", { text: h }))));
    // infinite Elo values arrive as null: -inf or +inf by the score and the interval's end
    const f = (x, d = 1, low = false) => (x === null ? (low ? "-inf" : "+inf") : signed(x, d));
    for (const p of s.pairings) {
      t.append(el("tr", {},
        el("td", { text: `${p.labels[0]} vs ${p.labels[1]}` }),
        el("td", { class: "n", text: String(p.games) }),
        el("td", { class: "n", text: `${p.wins}-${p.draws}-${p.losses}` }),
        el("td", { class: "n", text: `${pct(p.score)} [${pct(p.score_interval[0])}, ${pct(p.score_interval[1])}]` }),
        el("td", { class: "n", text: `${f(p.elo, 1, p.score < 0.5)} [${f(p.elo_interval[0], 1, p.score < 1)}, ${f(p.elo_interval[1], 1, p.score === 0)}]` }),
        el("td", { class: "n", text: p.los === null ? "-" : pct(p.los) }),
        el("td", { class: "n", text: `${f(p.margin, 2)} [${f(p.margin_interval[0], 2)}, ${f(p.margin_interval[1], 2)}]` }),
        el("td", { class: "n", text: pct(p.start_player_win_rate) })));
    }
    out.append(el("h2", { text: "Pairings (from the first agent's view)" }), t);
    out.append(el("h2", { text: "Ratings (maximum-likelihood Elo, mean 0)" }), ratingsChart(s.chart));
  } catch (e) {
    $("tournament-status").textContent = "";
    showMessage(e.message);
  }
}

function ratingsChart(rows) {
  const ns = "http://www.w3.org/2000/svg";
  const W = 700, rowH = 24, L = 220, H = rows.length * rowH + 24;
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("width", W); svg.setAttribute("height", H); svg.setAttribute("id", "ratings-chart");
  const max = Math.max(50, ...rows.map((r) => Math.abs(r.rating || 0)));
  const mid = L + (W - L - 60) / 2;
  const scale = (W - L - 60) / 2 / max;
  const add = (tag, attrs, text) => {
    const n = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
    if (text !== undefined) n.textContent = text;
    svg.append(n);
  };
  add("line", { x1: mid, x2: mid, y1: 0, y2: H - 18, stroke: "#999" });
  rows.forEach((r, i) => {
    const y = i * rowH + 4;
    const v = r.rating || 0;
    add("text", { x: 4, y: y + 15, "font-size": 12 }, `${r.agent} (${r.games} games, ${pct(r.score)})`);
    add("rect", { x: v >= 0 ? mid : mid + v * scale, y, width: Math.max(1, Math.abs(v) * scale), height: rowH - 8, fill: v >= 0 ? "#4f7a3a" : "#c0392b" });
    add("text", { x: v >= 0 ? mid + v * scale + 4 : mid + v * scale - 48, y: y + 13, "font-size": 11 }, signed(v));
  });
  add("text", { x: mid - 4, y: H - 4, "font-size": 10, fill: "#555" }, "0");
  return svg;
}

// ---------------------------------------------------------------- wiring

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
    await setGame(await api("/api/games", { body: { text, seats: [$("seat0").value, $("seat1").value] } }), { autoAI: false });
    showMessage(`Opened ${file.name}: ${state.game.length} decisions`, true);
  } catch (e) { showMessage(`${file.name}: ${e.message}`); }
}

// Arrow keys may repeat faster than the server answers: step from the last ply asked for.
async function navigate(delta) {
  const g = state.game;
  if (!g) return;
  const from = state.navTarget ?? g.ply;
  const ply = delta === "start" ? 0 : delta === "end" ? g.length : from + delta;
  if (ply < 0 || ply > g.length || ply === from) return;
  state.navTarget = ply;
  await act("goto", { ply }, { autoAI: false });
  if (state.navTarget === ply) state.navTarget = null;
}

async function init() {
  // the catalog and the tab's game are fetched together (the first page load is timed)
  const saved = sessionStorage.getItem("arle-game");
  let lost = null;  // why the tab's game is gone (the server closed it), to say so
  const first = saved ? api(`/api/games/${saved}`).catch((e) => { lost = e; return null; })
    : api("/api/games", { body: { seed: 0, seats: ["human", "ai"] } });
  state.catalog = await api("/api/catalog");
  for (const v of state.catalog.variants) $("new-variant").append(el("option", { value: v, text: v }));
  // the default budgets are the CLI's (arle play's hint, arle analyze): one verdict
  $("hint-seconds").value = String(state.catalog.budgets.hint_seconds);
  $("analysis-seconds").value = String(state.catalog.budgets.analysis_seconds);
  // the legend of `arle suggest`, its continued lines joined
  const legend = [];
  for (const line of state.catalog.legend) {
    if (/^\s/.test(line) && legend.length) legend[legend.length - 1] += " " + line.trim();
    else legend.push(line);
  }
  for (const line of legend) $("legend").append(el("li", { text: line }));
  document.querySelectorAll(".tab").forEach((b) => b.addEventListener("click", () => showPage(b.dataset.page)));
  $("new-game").addEventListener("click", () => newGame({ seed: Number($("new-seed").value), variant: $("new-variant").value, players: Number($("new-players").value) }).catch((e) => showMessage(e.message)));
  for (const i of [0, 1]) $(`seat${i}`).addEventListener("change", () => { state.paused = false; act("seats", { seats: pageSeats(state.game) }); });
  $("undo").addEventListener("click", () => {
    state.paused = true;
    const was = state.game;
    act("undo", {}, { autoAI: false, said: (g) => takenBack(was, g) });
  });
  $("redo").addEventListener("click", () => act("redo", {}, { autoAI: false }));
  $("ai-move").addEventListener("click", () => { state.paused = false; runAI(); });
  $("pause").addEventListener("click", () => { state.paused = true; render(); });
  $("hint-start").addEventListener("click", () => startHint(Number($("hint-seconds").value)));
  $("hint-stop").addEventListener("click", () => { cancelHint(); fetch(`/api/games/${state.id}/stop?kind=hint`, { method: "POST" }); });
  $("analysis-start").addEventListener("click", startAnalysis);
  $("nav-first").addEventListener("click", () => navigate("start"));
  $("nav-prev").addEventListener("click", () => navigate(-1));
  $("nav-next").addEventListener("click", () => navigate(1));
  $("nav-last").addEventListener("click", () => navigate("end"));
  $("load-file").addEventListener("change", (ev) => { if (ev.target.files[0]) loadFile(ev.target.files[0]); ev.target.value = ""; });
  $("tournament-file").addEventListener("change", (ev) => { if (ev.target.files[0]) openTournament(ev.target.files[0]); ev.target.value = ""; });
  $("editor").addEventListener("input", () => {
    clearTimeout(editorTimer);
    editorTimer = setTimeout(() => { drawEditorBoard(editorPosition()); checkEditor(); }, 120);
  });
  $("editor-from-game").addEventListener("click", () => buildEditor(state.game.position));
  $("editor-from-new").addEventListener("click", async () => {
    const r = await api("/api/games", { body: { seed: Number($("new-seed").value), variant: $("new-variant").value, seats: ["human", "human"] } });
    buildEditor(r.game.position);
  });
  $("editor-play").addEventListener("click", async () => {
    if (!state.editor) return;
    try {
      cancelHint();
      await setGame(await api("/api/games", { body: { position: state.editor, seats: [$("seat0").value, $("seat1").value] } }));
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
  const reply = await first;
  if (reply) await setGame(reply, { autoAI: false });
  else await newGame({ seed: 0 });
  if (lost && lost.status === 410) showMessage(`${lost.message} A new game was started.`);
  document.body.dataset.ready = "1";
}

init().catch((e) => showMessage(`cannot start: ${e.message}`));
