// The position editor: a form over the position entry `arle edit` asks with
// (arle_ai.formats.entry). Each input answers one of the entry's questions (the catalog's
// `entry`, by key): its part of the answer is its value, its name and number ("grain 3"),
// or its name when it is checked. A change sends the answers that differ from the ones the
// form started with to /api/position/entry, which gives them on the position the editor
// started from and says, in arle edit's words, which it refused and why; the field a
// refusal names is outlined. Two-player and solo positions, vehicles and what is loaded on
// them, the buildings in play and where each is.

import { $, el, num, title } from "./dom.js";
import { api } from "./api.js";
import { state, update } from "./state.js";
import { drawGameBoard } from "./gameboard.js";

// The questions the buildings' selects answer together: a building moved from one place to
// another changes two of them, and the board's answer says where every building is.
const BUILDING_QUESTIONS = ["p0.buildings", "p1.buildings", "board"];

const asked = (players) => state.catalog.entry[String(players)];

// An input that answers `question`: `path` is the position's field it sets (a refusal that
// names it outlines it), `name` its word in the answer (none: the input's value is the answer).
function answering(node, question, path, name) {
  node.dataset.question = question;
  node.dataset.path = path;
  node.dataset.part = name === null ? "value" : node.type === "checkbox" ? "check" : "pair";
  if (name !== null) node.dataset.name = name;
  return node;
}

function numberInput(question, path, name, value, min, max) {
  const input = el("input", { type: "number", min: String(min), max: String(max), value: String(value) });
  return answering(input, question, path, name);
}

function select(question, path, name, options, value) {
  const s = el("select", {}, ...options.map(([v, text]) => el("option", { value: String(v), text })));
  s.value = String(value);
  return answering(s, question, path, name);
}

function checks(question, path, items, chosen, valued = false) {
  const box = el("div", { class: "checks" });
  for (const d of items) {
    const cb = answering(el("input", { type: "checkbox" }), question, path, d.key);
    if (valued) cb.value = d.key;
    cb.checked = chosen.includes(d.key);
    box.append(el("label", {}, cb, ` ${d.name}`));
  }
  return box;
}

// A question's label: its words, with the entry's question as the tooltip.
const label = (text, question) => el("label", { text, title: question || "" });

export function buildEditor(position) {
  const cat = state.catalog;
  const players = position.players.length;
  const questions = Object.fromEntries(asked(players).map((q) => [q.key, q.text]));
  const solo = players === 1;
  update({ editorBase: JSON.parse(JSON.stringify(position)), editorOccupied: { ...(position.occupied || {}) }, editorPosition: null });
  const form = $("editor");
  form.replaceChildren();
  const gg = el("div", { class: "grid two" });
  gg.append(label("Half-year", questions.half_year), numberInput("half_year", "half_year", null, position.half_year, 1, cat.half_years));
  if (questions.start_player) {
    gg.append(label("Start player", questions.start_player),
      select("start_player", "start_player", null, position.players.map((_, i) => [i, `P${i}`]), position.start_player));
  }
  const workers = solo ? cat.solo_workers : 2 * cat.workers;
  gg.append(label("Workers placed", questions.workers_placed), numberInput("workers_placed", "workers_placed", null, position.workers_placed || 0, 0, workers));
  gg.append(label("Special action used by"), el("span", { id: "editor-special", text: "nobody" }));
  form.append(el("fieldset", {}, el("legend", { text: solo ? "Solo game" : "Game" }), gg));
  position.players.forEach((p, i) => form.append(playerFields(p, i, solo)));
  const click = solo ? "Click a space: your worker, again: none." :
    "Click a space: a worker of P0, click again: of P1, again: none. A space of the other season is the special action.";
  form.append(el("fieldset", { id: "editor-workers", title: questions.occupied }, el("legend", { text: "Workers on the action spaces" }),
    el("div", { class: "hint-text", text: click }), el("div", { id: "editor-board", class: "panel" })));
  form.append(buildingFields(position, solo, questions.board));
  form.dataset.built = String(Number(form.dataset.built || 0) + 1);
  update({ editorInitial: answers() });
  drawEditorBoard();
  checkEditor();
}

// One player's goods, animals, tools, home board, barn, loads, travel and bottlenecks.
function playerFields(p, i, solo) {
  const cat = state.catalog;
  const q = (key) => `p${i}.${key}`;
  const at = (part) => `players.${i}.${part}`;
  const text = Object.fromEntries(asked(solo ? 1 : 2).map((x) => [x.key, x.text]));
  const fs = el("fieldset", { id: `editor-p${i}` }, el("legend", { class: `p${i}`, text: solo ? "Your board" : `Player ${i}` }));
  const grid = el("div", { class: "grid" });
  const allGoods = [...cat.goods.track, ...cat.goods.materials, ...cat.goods.other, ...cat.goods.textiles];
  for (const k of allGoods) grid.append(label(title(k), text[q("goods")]), numberInput(q("goods"), at(`goods.${k}`), k, p.goods[k] || 0, 0, 999));
  for (const k of cat.animals) grid.append(label(title(k), text[q("animals")]), numberInput(q("animals"), at(`animals.${k}`), k, p.animals[k] || 0, 0, 999));
  for (const t of cat.tools) {
    grid.append(label(t.name, text[q("tools")]), select(q("tools"), at(`tools.${t.key}`), t.key, t.values.map((v) => [v, String(v)]), p.tools[t.key]));
  }
  for (const f of cat.home_fields) grid.append(label(title(f.field), text[q("tiles")]), numberInput(q("tiles"), at(`home.${f.field}`), f.field, p.home[f.field], 0, 999));
  const moors = answering(el("input", { type: "text", size: "6", value: p.home.dehydrated_moors.join(",") }), q("moors"), at("home.dehydrated_moors"), null);
  grid.append(label("Dehydrated moors (peat on each)", text[q("moors")]), moors);
  grid.append(label("Bottlenecks", text[q("bottlenecks")]), numberInput(q("bottlenecks"), at("bottlenecks"), null, p.bottlenecks, 0, 999));
  fs.append(grid);
  const counts = {};
  for (const v of p.barn.vehicles) counts[v.kind] = (counts[v.kind] || 0) + 1;
  const vg = el("div", { class: "grid" });
  const pieces = [...cat.vehicles.filter((v) => v.spaces.length), ...cat.vehicles.filter((v) => !v.spaces.length)];
  for (const v of pieces) {  // the vehicles, then the pieces without compartments
    const [path, n] = v.spaces.length ? ["barn.vehicles", counts[v.key] || 0] : [`barn.${v.key}s`, p.barn[`${v.key}s`]];
    vg.append(label(v.name, text[q("barn")]), numberInput(q("barn"), at(path), v.key, n, 0, v.spaces.length ? cat.max_vehicles : 99));
  }
  fs.append(el("div", { class: "hint-text", text: "In the barn:" }), vg);
  // what lies on the vehicles until the inventorying: the compartments are worked out
  const lg = el("div", { class: "grid", id: `editor-loaded-${i}` });
  for (const k of cat.load_goods) lg.append(label(title(k), text[q("loaded")]), numberInput(q("loaded"), at(`loaded.${k}`), k, p.loaded[k] || 0, 0, 99));
  fs.append(el("div", { class: "hint-text", text: "Loaded on the vehicles:" }), lg,
    checks(q("loaded"), at("loaded.destinations"), cat.destinations, p.loaded.destinations));
  fs.append(el("div", { class: "hint-text", text: "Travel track:" }),
    checks(q("travel"), at("travel"), cat.destinations, p.travel, true));
  return fs;
}

// Every building of the game: not in play, on the game board, or built by a player.
function buildingFields(position, solo, question) {
  const cat = state.catalog;
  const inPlay = new Set([...(position.setup && position.setup.buildings || []), ...position.buildings_on_board,
    ...position.players.flatMap((p) => p.home.buildings)]);
  const where = (key) => {
    const owner = position.players.findIndex((p) => p.home.buildings.includes(key));
    if (owner >= 0) return `built${owner}`;
    return inPlay.has(key) ? "board" : "out";
  };
  const places = [["out", "not in play"], ["board", "on the board"],
    ...position.players.map((_, i) => [`built${i}`, solo ? "built" : `built by P${i}`])];
  const bt = el("div", { class: "building-grid" });
  for (const b of cat.buildings) {
    const sel = el("select", { "data-building": b.key, "aria-label": b.name }, ...places.map(([v, text]) => el("option", { value: v, text })));
    sel.value = where(b.key);
    bt.append(el("label", { class: `chip b-${b.colour}`, title: `${b.name}: ${b.cost}. ${b.ability}`, text: b.name }), sel);
  }
  return el("fieldset", { id: "editor-buildings", title: question }, el("legend", { text: "Buildings in play" }),
    el("div", { id: "editor-colours", class: "hint-text" }), bt);
}

// The form's answer to each question, by key ("-" answers none).
function answers() {
  const parts = {};
  const form = $("editor");
  for (const node of form.querySelectorAll("[data-question]")) {
    const list = parts[node.dataset.question] = parts[node.dataset.question] || [];
    const raw = node.value.trim();
    if (node.dataset.part === "value") list.push(raw);
    else if (node.dataset.part === "pair") list.push(`${node.dataset.name} ${raw === "" ? 0 : raw}`);
    else if (node.checked) list.push(node.dataset.name);
  }
  const out = Object.fromEntries(Object.entries(parts).map(([k, list]) => [k, list.join(", ") || "-"]));
  const keys = new Set(asked(state.editorBase.players.length).map((q) => q.key));
  const byPlayer = {};
  for (const [space, who] of Object.entries(state.editorOccupied)) (byPlayer[who] = byPlayer[who] || []).push(space);
  out.occupied = Object.entries(byPlayer).map(([who, spaces]) => `P${who} ${spaces.join(", ")}`).join("; ") || "-";
  const placed = {};
  for (const sel of form.querySelectorAll("[data-building]")) (placed[sel.value] = placed[sel.value] || []).push(sel.dataset.building);
  for (const [i, key] of BUILDING_QUESTIONS.entries()) {
    if (keys.has(key)) out[key] = (placed[key === "board" ? "board" : `built${i}`] || []).join(", ") || "-";
  }
  return out;
}

// The editor's game board: the spaces with the workers on them, clickable.
function drawEditorBoard() {
  const base = state.editorBase;
  const box = $("editor-board");
  if (!box) return;
  const typed = Number($("editor").querySelector("[data-path='half_year']").value);
  const halfYear = Number.isInteger(typed) && typed >= 1 && typed <= state.catalog.half_years ? typed : base.half_year;
  const season = halfYear % 2 === 1 ? "summer" : "winter";
  const g = { position: { ...base, occupied: state.editorOccupied }, season, half_year: halfYear, start_player: base.start_player };
  drawGameBoard(box, g, state.catalog, { id: "editor-board-svg", spacesOnly: true });
  const last = base.players.length - 1;
  for (const card of box.querySelectorAll(".space-card")) {
    card.classList.add("clickable");
    card.addEventListener("click", () => {
      const key = card.dataset.space;
      const who = state.editorOccupied[key];
      const next = { ...state.editorOccupied };
      if (who === undefined) next[key] = 0;
      else if (who < last) next[key] = who + 1;
      else delete next[key];
      update({ editorOccupied: next });
      const placed = $("editor").querySelector("[data-path='workers_placed']");
      const n = Object.keys(next).length;
      if (Number(placed.value) < n) placed.value = String(n);  // each worker on a space was placed
      drawEditorBoard();
      checkEditor();
    });
  }
}

let editorTimer = null;
// Typing: the answers go when the typing pauses.
export function editorTyped() {
  clearTimeout(editorTimer);
  editorTimer = setTimeout(() => { drawEditorBoard(); checkEditor(); }, 120);
}

let editorSeq = 0;
async function checkEditor() {
  const now = answers();
  const seq = ++editorSeq;
  const sent = {};
  for (const [key, text] of Object.entries(now)) if (text !== state.editorInitial[key]) sent[key] = text;
  if (BUILDING_QUESTIONS.some((k) => k in sent)) for (const k of BUILDING_QUESTIONS) if (k in now) sent[k] = now[k];
  showColours();
  const box = $("editor-check");
  try {
    const r = await api("/api/position/entry", { body: { position: state.editorBase, answers: sent } });
    if (seq !== editorSeq) return;
    const form = $("editor");
    for (const node of form.querySelectorAll(".invalid")) node.classList.remove("invalid");
    const sab = r.position.special_action_by;
    $("editor-special").textContent = sab === null || sab === undefined ? "nobody" : `P${sab}`;
    if (!r.refused.length) {
      const v = r.view;
      box.className = "check good";
      const score = v.players_count === 1 ? `score ${num(v.scores[0])} VP` : `score P0 ${num(v.scores[0])} - P1 ${num(v.scores[1])}`;
      box.textContent = `Valid position: half-year ${v.half_year} (${v.season}), P${v.to_move} to move; ${score}`;
      update({ editorPosition: r.position });
      const blob = new Blob([JSON.stringify(r.position, null, 1) + "\n"], { type: "application/json" });
      $("editor-export").href = URL.createObjectURL(blob);
      $("editor-play").disabled = false;
    } else {
      box.className = "check bad";
      box.replaceChildren(...r.refused.map((x) => el("div", { text: x.message })));
      update({ editorPosition: null });
      $("editor-play").disabled = true;
      $("editor-export").removeAttribute("href");
      for (const x of r.refused) markRefused(x);
    }
  } catch (e) { box.className = "check bad"; box.textContent = e.message; }
}

// Outline what a refusal is about: the input of the field it names, else its question's.
function markRefused(refusal) {
  const form = $("editor");
  const named = refusal.field && form.querySelector(`[data-path="${refusal.field}"]`);
  const inputs = named ? [named] : [...form.querySelectorAll(`[data-question="${refusal.question}"]`)];
  if (!inputs.length) {  // the workers and the buildings: their panel
    inputs.push($(refusal.question === "occupied" ? "editor-workers" : "editor-buildings"));
  }
  for (const node of inputs) node.classList.add("invalid");
}

// The buildings in play of each colour against the game board's spaces of that colour.
function showColours() {
  const colours = {};
  const byKey = Object.fromEntries(state.catalog.buildings.map((b) => [b.key, b]));
  for (const sel of $("editor").querySelectorAll("[data-building]")) {
    if (sel.value !== "out") { const c = byKey[sel.dataset.building].space; colours[c] = (colours[c] || 0) + 1; }
  }
  $("editor-colours").textContent = "In play: " + Object.entries(state.catalog.building_spaces).map(([c, n]) => `${colours[c] || 0} of ${n} ${c}`).join(", ");
}
