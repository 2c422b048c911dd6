// Fields of Arle analysis board: the boards drawn in SVG, as they lie on the table.
// The game board (summer spaces, tool tracks, winter spaces; the half-year track, the
// workers still on the months and the building spaces) and each home board (dike rows and
// the land they open, moors with their peat, boardwalk, tiles and buildings with the
// animals, the goods track, the barn with its vehicles and what is loaded on them, the
// supply and the travel track). Where each piece lies comes from the server
// (arle_ai.web.board); names come from the catalog. Every piece carries data-piece (and
// data-kind, data-player...) so tests can count them, and data-on the move targets
// (arle_ai.web.board.move_target) that make it clickable.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

function svgEl(tag, attrs = {}, text) {
  const n = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) n.setAttribute(k, v);
  if (text !== undefined) n.textContent = text;
  return n;
}

function svgTitle(node, text) { node.append(svgEl("title", {}, text)); return node; }

const PLAYER_FILL = ["#c0392b", "#2d6cb5"];
const GOOD_STYLE = {
  food: ["#3b6fb6", "Fo"], grain: ["#e2b93b", "Gr"], flax: ["#5f9e4a", "Fl"],
  wool: ["#b5b5b5", "Wo"], hide: ["#8b5a2b", "Hi"],
};
const TILE_FILL = {
  grain_field: "#f1d77a", flax_field: "#9fc5a8", forest: "#3f7a3a", park: "#9ccf7f",
  stall: "#c9a06b", double_stall: "#b58546", stable: "#9a6a3a", depot: "#b9b2a5",
};
const BUILDING_FILL = { light_green: "#cfe8b5", dark_green: "#8fbf74", yellow: "#f6e58a", orange: "#f5be7c", blue: "#a9c8ec", red: "#eea39a" };
const SPACE_FILL = { green: "#8fbf74", yellow: "#f6e58a", orange: "#f5be7c", blue: "#a9c8ec", red: "#eea39a" };

const CHAR_EM = 0.58; // the mean width of a letter in em (DejaVu Sans, Liberation Sans)

// Text cut to fit `width` pixels at `size`, cut in the middle so that names which differ at
// their ends stay apart.
function fitText(text, width, size) {
  const max = Math.max(3, Math.floor(width / (size * CHAR_EM)));
  if (text.length <= max) return text;
  const head = Math.ceil((max - 1) / 2), tail = Math.floor((max - 1) / 2);
  return text.slice(0, head) + "…" + text.slice(text.length - tail);
}

// The font size, at most `size` and at least `least`, at which `text` fits `width`.
const fitSize = (text, width, size, least = 7) => Math.max(least, Math.min(size, width / (CHAR_EM * Math.max(1, text.length))));

// Up to two lines of text in a box: words wrapped, the font made smaller (down to 7) for a
// long word, which is cut in the middle only if it still does not fit.
function wrapText(parent, text, x, y, width, size, attrs = {}) {
  const longest = Math.max(...text.split(" ").map((w) => w.length));
  size = fitSize("x".repeat(longest), width, size);
  const max = Math.max(3, Math.floor(width / (size * CHAR_EM)));
  const lines = [""];
  for (const w of text.split(" ")) {
    const cur = lines[lines.length - 1];
    if (!cur) lines[lines.length - 1] = w;
    else if ((cur + " " + w).length <= max) lines[lines.length - 1] = cur + " " + w;
    else lines.push(w);
  }
  const shown = lines.length > 2 ? [lines[0], lines.slice(1).join(" ")] : lines;
  shown.forEach((line, i) => parent.append(svgEl("text", { x, y: y + i * (size + 1), "font-size": size.toFixed(1), ...attrs }, fitText(line, width, size))));
}

function animalIcon(x, y, kind, scale = 1) {
  const fills = { sheep: ["#f7f4ea", "#555"], cattle: ["#7a4a25", "#3a220f"], horse: ["#2f241c", "#000"] };
  const [fill, stroke] = fills[kind] || ["#999", "#333"];
  const g = svgEl("g", { transform: `translate(${x},${y}) scale(${scale})`, "data-piece": "animal", "data-kind": kind, class: "animal" });
  g.append(svgEl("ellipse", { cx: 0, cy: 0, rx: 5.2, ry: 3.6, fill, stroke, "stroke-width": 0.8 }));
  g.append(svgEl("circle", { cx: 5.4, cy: -2.4, r: 2.4, fill, stroke, "stroke-width": 0.8 }));
  for (const lx of [-3, 3]) g.append(svgEl("line", { x1: lx, y1: 3, x2: lx, y2: 5.5, stroke, "stroke-width": 1 }));
  if (kind === "cattle") g.append(svgEl("circle", { cx: -1.5, cy: -0.5, r: 1.4, fill: "#fff" }));
  return svgTitle(g, nameOf(kind));
}

function meeple(x, y, player, extra = {}) {
  const g = svgEl("g", { transform: `translate(${x},${y})`, "data-piece": "worker", "data-player": String(player), class: `meeple p${player}`, ...extra });
  g.append(svgEl("path", { d: "M0,-9 a3.2,3.2 0 1 1 0.01,0 M-3,-3.5 L3,-3.5 L6.5,0 L4,1.5 L4,7 L-4,7 L-4,1.5 L-6.5,0 Z", fill: PLAYER_FILL[player], stroke: "#0008", "stroke-width": 0.8 }));
  return g;
}

function peatBlock(x, y, extra = {}) {
  return svgEl("rect", { x, y, width: 6, height: 6, rx: 1, fill: "#2b2118", stroke: "#000", "stroke-width": 0.5, "data-piece": "peat", ...extra });
}

// ---------------------------------------------------------------- the game board

// Which rows of the board each tool track stands on: the rows of the spaces that read it.
function toolRows(cat) {
  const rows = {};
  for (const s of cat.spaces) if (s.tool) (rows[s.tool] = rows[s.tool] || []).push(s.order);
  return Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, [Math.min(...v), Math.max(...v)]]));
}

// The game board, wide: summer spaces | tool tracks | winter spaces, then the spaces of
// rows 12-15 around the half-year track, then the building spaces.
// Narrow (below 560 px): the season's spaces over the tool tracks.
function drawGameBoard(box, g, cat, opts = {}) {
  const narrow = box.clientWidth > 0 && box.clientWidth < 560;
  const pos = g.position;
  const W = narrow ? 420 : 840;
  const rowH = narrow ? 30 : 27;
  const svg = svgEl("svg", { class: "board-svg", id: opts.id || "gameboard-svg", role: "img", "aria-label": "game board" });
  const spaceW = narrow ? 136 : 196;
  const rows = toolRows(cat);
  const bySeason = { summer: cat.spaces.filter((s) => s.season === "summer"), winter: cat.spaces.filter((s) => s.season === "winter") };
  const drawSpace = (s, x, y, w, h) => {
    const who = pos.occupied[s.key];
    const active = s.season === g.season;
    const gEl = svgEl("g", { class: `space-card ${s.season}${active ? "" : " off-season"}`, "data-space": s.key, "data-on": `space:${s.key}` });
    gEl.append(svgEl("rect", { x: x + 1, y: y + 1, width: w - 2, height: h - 2, rx: 4, class: "space-rect" }));
    wrapText(gEl, s.name, x + 6, y + (h > 30 ? 13 : 17), w - 30, 11, { "font-weight": "bold" });
    if (who !== undefined) {
      const m = meeple(0, 0, who, { "data-space": s.key });
      m.setAttribute("transform", `translate(${x + w - 14},${y + h / 2 + 1}) scale(1.3)`);
      gEl.append(m);
    }
    svgTitle(gEl, `${s.name} (${s.season}): ${s.text}`);
    svg.append(gEl);
  };
  let H;
  if (!narrow) {
    const top = 20;
    svg.append(svgEl("text", { x: 4, y: 14, class: "board-head" }, "Summer"));
    svg.append(svgEl("text", { x: W / 2, y: 14, class: "board-head", "text-anchor": "middle" }, "Tool tracks"));
    svg.append(svgEl("text", { x: W - 4, y: 14, class: "board-head", "text-anchor": "end" }, "Winter"));
    for (const season of ["summer", "winter"]) {
      for (const s of bySeason[season]) {
        let x = season === "summer" ? 0 : W - spaceW;
        let y = top + (s.order - 1) * rowH;
        if (s.order > 11) { // rows 12-15: two columns of two on each side
          const k = s.order - 12;
          x = (season === "summer" ? 0 : W - spaceW) + (k % 2) * (spaceW / 2);
          y = top + 11 * rowH + 4 + Math.floor(k / 2) * (rowH + 8);
          drawSpace(s, x, y, spaceW / 2, rowH + 8);
          continue;
        }
        drawSpace(s, x, y, spaceW, rowH);
      }
    }
    drawTools(svg, pos, cat, rows, spaceW + 4, top, W - 2 * spaceW - 8, rowH);
    const midY = top + 11 * rowH + 4;
    if (opts.spacesOnly) H = midY + 2 * (rowH + 8) + 2;
    else {
      drawCalendar(svg, g, cat, spaceW + 4, midY, W - 2 * spaceW - 8, 2 * (rowH + 8));
      H = drawBuildingSpaces(svg, g, cat, 0, midY + 2 * (rowH + 8) + 6, W, 6);
    }
  } else {
    const season = g.season;
    svg.append(svgEl("text", { x: 4, y: 14, class: "board-head" }, `Action spaces (${season})`));
    bySeason[season].forEach((s, i) => drawSpace(s, (i % 3) * (W / 3), 20 + Math.floor(i / 3) * (rowH + 6), W / 3, rowH + 6));
    let y = 20 + 5 * (rowH + 6) + 6;
    const other = bySeason[season === "summer" ? "winter" : "summer"].filter((s) => pos.occupied[s.key] !== undefined);
    svg.append(svgEl("text", { x: 4, y: y + 10, class: "board-sub" }, other.length ? "Special action:" : "Special action: free"));
    other.forEach((s, i) => drawSpace(s, 110 + i * 140, y - 4, 140, rowH));
    y += rowH + 4;
    svg.append(svgEl("text", { x: 4, y: y + 12, class: "board-head" }, "Tool tracks"));
    const listRows = {};
    let r = 1;
    for (const t of cat.tools) { const span = rows[t.key][1] - rows[t.key][0]; listRows[t.key] = [r, r + span]; r += span + 1; }
    drawTools(svg, pos, cat, listRows, 0, y + 18, W, 24);
    y += 18 + (r - 1) * 24 + 6;
    if (opts.spacesOnly) H = y;
    else {
      drawCalendar(svg, g, cat, 0, y, W, 56);
      H = drawBuildingSpaces(svg, g, cat, 0, y + 62, W, 3);
    }
  }
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  box.replaceChildren(svg);
  return svg;
}

function drawTools(svg, pos, cat, rows, x0, top, width, rowH) {
  const labelW = Math.min(122, width * 0.3);
  const cellW = (width - labelW - 44) / 5;
  for (const t of cat.tools) {
    const [r0, r1] = rows[t.key];
    const y = top + (r0 - 1) * rowH;
    const h = (r1 - r0 + 1) * rowH;
    const row = svgEl("g", { class: "tool-track", "data-tool": t.key, "data-on": `tool:${t.key}` });
    row.append(svgEl("rect", { x: x0, y: y + 1, width, height: h - 2, rx: 3, class: "tool-bg" }));
    row.append(svgEl("text", { x: x0 + 5, y: y + h / 2 + 4, "font-size": 10.5 }, fitText(t.name, labelW - 4, 10)));
    const seats = pos.players.map((_, p) => p);  // one in the solo game
    const at = pos.players.map((pl) => pl.tools[t.key]);
    t.values.forEach((v, i) => {
      const cx = x0 + labelW + i * cellW;
      const cell = svgEl("g", { class: "tool-cell" });
      cell.append(svgEl("rect", { x: cx + 1, y: y + 2, width: cellW - 2, height: h - 4, rx: 3, class: "tool-cell-bg" }));
      if (t.key === "shovels") { // two printed rows: the dikes (Dike Builder) over the clay (Clay Worker)
        cell.append(svgEl("text", { x: cx + 5, y: y + 13, "font-size": 10, class: "tool-dikes" }, `${cat.shovel_dikes[i]} dike${cat.shovel_dikes[i] > 1 ? "s" : ""}`));
        const clay = svgEl("text", { x: cx + 5, y: y + h - 7, "font-size": 12, "font-weight": "bold" }, String(v));
        clay.append(svgEl("tspan", { "font-size": 9, "font-weight": "normal", dx: 2 }, "clay"));
        cell.append(clay);
      } else {
        cell.append(svgEl("text", { x: cx + 6, y: y + h / 2 + 5, "font-size": 13, "font-weight": "bold" }, String(v)));
      }
      if (t.vp[i]) cell.append(svgEl("text", { x: cx + (t.key === "shovels" ? cellW - 24 : 20), y: y + h / 2 + 4, "font-size": 9, class: "vp-star" }, `★${t.vp[i]}`));
      seats.forEach((p) => {
        if (at[p] !== v) return;
        const r = Math.min(6.5, h / 4 - 0.5);
        const mx = cx + cellW - r - 3, my = y + h / 2 + (p === 0 ? r + 0.5 : -r - 0.5);
        cell.append(svgTitle(svgEl("circle", { cx: mx, cy: my, r, fill: PLAYER_FILL[p], stroke: "#fff", "stroke-width": 1.5, "data-piece": "tool-marker", "data-player": String(p), "data-tool": t.key, "data-value": String(v) }), `P${p}: ${t.name} ${v}`));
      });
      row.append(cell);
    });
    const vpOf = (p) => t.vp[t.values.indexOf(at[p])];
    row.append(svgEl("text", { x: x0 + width - 4, y: y + h / 2 + 4, "font-size": 9, "text-anchor": "end", class: "tool-vp" }, `${seats.map(vpOf).join("/")} VP`));
    svgTitle(row, `${t.name}: ${seats.map((p) => `P${p} ${at[p]}`).join(", ")}; VP by position ${t.vp.join(" ")}`);
    svg.append(row);
  }
}

// The half-year track, the start player and the workers still on the months.
function drawCalendar(svg, g, cat, x0, y0, width, height) {
  const n = cat.half_years;
  const cw = Math.min(30, (width - 8) / n);
  const grp = svgEl("g", { class: "calendar" });
  for (let h = 1; h <= n; h++) {
    const x = x0 + 4 + (h - 1) * cw;
    const summer = h % 2 === 1;
    grp.append(svgEl("rect", { x, y: y0 + 2, width: cw - 2, height: 20, rx: 3, fill: summer ? "#fff1c2" : "#dde8f5", stroke: h === g.half_year ? "#222" : "#bbb", "stroke-width": h === g.half_year ? 2 : 1, "data-piece": h === g.half_year ? "half-year" : null }));
    grp.append(svgEl("text", { x: x + cw / 2 - 1, y: y0 + 16, "font-size": 11, "text-anchor": "middle", "font-weight": h === g.half_year ? "bold" : "normal" }, String(h)));
  }
  grp.append(svgEl("text", { x: x0 + 4 + n * cw + 4, y: y0 + 16, "font-size": 11 }, g.season === "summer" ? "summer" : "winter"));
  const y = y0 + 28;
  g.workers_left.forEach((_, p) => {  // one player in the solo game, who always starts
    const x = x0 + 4 + p * (width / 2);
    const label = svgEl("text", { x, y: y + 14, "font-size": 11 }, `P${p}${g.start_player === p ? " ⚑" : ""}`);
    if (g.start_player === p) svgTitle(label, "start player");
    grp.append(label);
    for (let k = 0; k < g.workers_left[p]; k++) grp.append(meeple(x + 36 + k * 15, y + 9, p, { "data-piece": "worker-left" }));
  });
  svg.append(grp);
}

// The building spaces: each building in play in its colour's spaces, built ones shown as
// taken by their builder.
function drawBuildingSpaces(svg, g, cat, x0, y0, width, perRow) {
  const byKey = Object.fromEntries(cat.buildings.map((b) => [b.key, b]));
  const spaces = g.building_spaces;
  const w = width / perRow, h = 30;
  svg.append(svgEl("text", { x: x0 + 4, y: y0 + 10, class: "board-head" }, "Buildings"));
  spaces.forEach((s, i) => {
    const x = x0 + (i % perRow) * w, y = y0 + 14 + Math.floor(i / perRow) * h;
    const b = s.building ? byKey[s.building] : null;
    const grp = svgEl("g", { class: "building-space" + (s.built_by !== null ? " built" : ""), "data-building": s.building || "", "data-on": b ? `building:${b.key}` : null, "data-piece": b && s.built_by === null ? "building" : null });
    grp.append(svgEl("rect", { x: x + 1, y: y + 1, width: w - 2, height: h - 2, rx: 3, fill: b ? BUILDING_FILL[b.colour] : SPACE_FILL[s.space], stroke: "#0003", opacity: s.built_by !== null ? 0.35 : 1 }));
    if (b) {
      wrapText(grp, b.name, x + 5, y + 12, w - 34, 10, { "font-weight": "bold" });
      grp.append(svgEl("text", { x: x + w - 5, y: y + 12, "font-size": 9, "text-anchor": "end" }, `★${b.vp}`));
      if (s.built_by !== null) grp.append(svgEl("text", { x: x + w - 5, y: y + 25, "font-size": 9, "text-anchor": "end", fill: PLAYER_FILL[s.built_by], "font-weight": "bold" }, `built by P${s.built_by}`));
      svgTitle(grp, `${b.name} (${b.vp} VP): ${b.cost}. ${b.ability}` + (s.built_by !== null ? ` Built by P${s.built_by}.` : ""));
    }
    svg.append(grp);
  });
  return y0 + 14 + Math.ceil(spaces.length / perRow) * h + 2;
}

// ---------------------------------------------------------------- a home board

const HB = { x0: 6, y0: 6, colW: 50, rowH: 38, gapH: 10 };

// Wide (420 units): the farm, the goods track, the barn over the supply, the travel track
// below. Narrow (below 500 px): the barn, the supply and the travel track under the farm.
function drawHomeBoard(box, g, i, cat) {
  const board = g.boards[i];
  const p = g.position.players[i];
  const hc = cat.home;
  const narrow = box.clientWidth > 0 && box.clientWidth < 370;
  const W = narrow ? 262 : 420;
  const svg = svgEl("svg", { class: "board-svg home-svg", id: `home-svg-${i}`, "data-player": String(i), role: "img", "aria-label": `home board of P${i}` });
  // the grid: gap rows and space rows, top (the sea) first
  const rowY = [], gapY = [];
  let y = HB.y0;
  for (let r = 0; r <= hc.tidal_rows; r++) {
    gapY.push(y); y += HB.gapH;
    if (r < hc.tidal_rows) { rowY.push(y); y += HB.rowH; }
  }
  for (let r = 0; r < hc.land_rows + hc.moor_rows; r++) { rowY.push(y); y += HB.rowH; }
  const gridBottom = y;
  const cx = (c) => HB.x0 + c * HB.colW;
  svg.append(svgEl("rect", { x: HB.x0 - 2, y: HB.y0 - 2, width: hc.columns * HB.colW + 4, height: gridBottom - HB.y0 + 4, rx: 4, fill: "#cfe1ea" }));
  for (const c of board.cells) drawCell(svg, c, cx(c.col), rowY[c.row], c.rows ? c.rows * HB.rowH : HB.rowH, i, cat);
  // dikes, each gap row left to right; the animals on them (one each)
  let dike = 0;
  for (let r = board.dikes.length - 1; r >= 0; r--) {
    for (let k = 0; k < board.dikes[r]; k++) {
      const x = cx(k) + 2, yy = gapY[r] + 1;
      svg.append(svgTitle(svgEl("rect", { x, y: yy, width: HB.colW - 4, height: HB.gapH - 2, rx: 2, fill: "#8d6e4a", stroke: "#5b4329", "data-piece": "dike" }), "dike"));
      const a = board.dike_animals[dike];
      if (a) svg.append(animalIcon(x + HB.colW / 2 - 2, yy + 3, a, 0.8));
      dike++;
    }
  }
  drawGoodsTrack(svg, board.goods_track, cat, 166, HB.y0, W === 420 ? 80 : 90, gridBottom - HB.y0);
  let bottom;
  if (!narrow) {
    drawBarn(svg, board.barn, p, cat, i, 254, HB.y0, 160);
    drawSupply(svg, p, cat, 254, 176, 160, gridBottom - 176);
    bottom = gridBottom + 8;
  } else {
    const barnBottom = drawBarn(svg, board.barn, p, cat, i, HB.x0, gridBottom + 8, W - 2 * HB.x0);
    bottom = drawSupply(svg, p, cat, HB.x0, barnBottom + 6, W - 2 * HB.x0) + 8;
  }
  if (board.unhoused.length) { // while the owner decides which animals to return
    const grp = svgEl("g", { class: "unhoused" });
    grp.append(svgEl("text", { x: HB.x0, y: bottom + 10, "font-size": 9, fill: "#a33" }, "no place, to return:"));
    board.unhoused.forEach((a, k) => grp.append(animalIcon(HB.x0 + 100 + k * 15, bottom + 6, a)));
    svg.append(grp);
    bottom += 18;
  }
  bottom = drawTravel(svg, board.travel, p, cat, HB.x0, bottom, W - 2 * HB.x0);
  svg.setAttribute("viewBox", `0 0 ${W} ${bottom + 2}`);
  box.replaceChildren(svg);
  return svg;
}

function drawCell(svg, c, x, y, h, player, cat) {
  const w = HB.colW;
  const grp = svgEl("g", { class: `home-cell ${c.kind}`, "data-row": String(c.row), "data-col": String(c.col) });
  const rect = (fill, extra = {}) => grp.append(svgEl("rect", { x: x + 1, y: y + 1, width: w - 2, height: h - 2, rx: 3, fill, stroke: "#0003", ...extra }));
  let label = null;
  if (c.kind === "tidal") { rect("#bcd8e6"); grp.append(svgEl("path", { d: `M${x + 8},${y + h / 2} q5,-4 10,0 t10,0 t10,0`, stroke: "#7fa8bd", fill: "none" })); }
  else if (c.kind === "land") {
    if (c.tile && c.building) {
      const b = cat.buildings.find((q) => q.key === c.tile);
      rect(BUILDING_FILL[b.colour], { "data-piece": "home-building", "data-kind": c.tile });
      grp.setAttribute("data-on", `building:${c.tile}`);
      wrapText(grp, b.name, x + 3, y + 11, w - 4, 8.5, { "font-weight": "bold" });
      svgTitle(grp, `${b.name}: ${b.ability}`);
    } else if (c.tile) {
      rect(TILE_FILL[c.tile] || "#ddd", { "data-piece": "tile", "data-kind": c.tile });
      grp.setAttribute("data-on", `flip:${player}:${c.tile}`);
      if (c.tile === "forest") for (const k of [0, 1, 2]) grp.append(svgEl("path", { d: `M${x + 10 + k * 14},${y + h - 6} l5,-12 l5,12 z`, fill: "#2a5727" }));
      if (c.tile.endsWith("field")) for (let k = 0; k < 4; k++) grp.append(svgEl("line", { x1: x + 6 + k * 11, y1: y + 14, x2: x + 6 + k * 11, y2: y + h - 4, stroke: "#0002", "stroke-width": 3 }));
      label = nameOf(c.tile);
    } else {
      rect("#d9e8b8", { "data-piece": "empty-land" });
      grp.setAttribute("data-on", `land:${player}`);
    }
  } else if (c.kind === "boardwalk") {
    rect("#a78356", { "data-piece": "boardwalk" });
    for (let k = 0; k < 4; k++) grp.append(svgEl("line", { x1: x + 4, y1: y + 6 + k * 8, x2: x + w - 4, y2: y + 6 + k * 8, stroke: "#7a5a35" }));
    grp.setAttribute("data-on", `cut:${player}:boardwalk`);
    label = `${nameOf("boardwalk")}`;
  } else if (c.kind === "hydrated_moor") {
    rect("#5d7a4a", { "data-piece": "moor", "data-kind": c.kind });
    for (let k = 0; k < 3; k++) grp.append(svgEl("path", { d: `M${x + 8},${y + 30 + k * 14} q5,-4 10,0 t10,0 t10,0`, stroke: "#86a9c4", fill: "none" }));
    grp.setAttribute("data-on", `flip:${player}:moor`);
    label = nameOf("hydrated_moor");
  } else if (c.kind === "dehydrated_moor") {
    rect("#8a6a44", { "data-piece": "moor", "data-kind": c.kind });
    grp.setAttribute("data-on", `cut:${player}:moor:${c.peat}`);
    label = nameOf("dehydrated_moor");
  }
  if (label) wrapText(grp, label, x + 3, y + 10, w - 4, 9, { fill: c.kind === "hydrated_moor" || c.tile === "forest" || c.kind === "dehydrated_moor" ? "#fff" : "#222" });
  if (c.kind === "boardwalk" || c.kind === "dehydrated_moor") {
    const max = cat.home.moor_peat;
    for (let k = 0; k < max; k++) {
      const px = x + 8 + (k % 2) * 18, py = y + (c.kind === "boardwalk" ? 16 : 26) + Math.floor(k / 2) * (c.kind === "boardwalk" ? 10 : 16);
      if (k < c.peat) grp.append(peatBlock(px, py));
      else grp.append(svgEl("rect", { x: px, y: py, width: 6, height: 6, fill: "none", stroke: "#0004", "stroke-dasharray": "1.5 1" }));
    }
    svgTitle(grp, `${label}: ${c.peat} peat`);
  }
  // animals: up to 6 in rows of 3 at the bottom of the space (a moor or the boardwalk holds none)
  (c.animals || []).forEach((a, k) => grp.append(animalIcon(x + 10 + (k % 3) * 14, y + h - 8 - Math.floor(k / 3) * 10, a, 0.95)));
  if (c.tile && !c.building) svgTitle(grp, `${label}${c.animals && c.animals.length ? ": " + c.animals.map(nameOf).join(", ") : ""}`);
  svg.append(grp);
}

function drawGoodsTrack(svg, markers, cat, x0, y0, width, height) {
  const n = cat.goods_cap + 1;
  const h = height / n;
  const grp = svgEl("g", { class: "goods-track" });
  grp.append(svgEl("rect", { x: x0, y: y0 - 2, width, height: height + 4, rx: 4, fill: "#f3ead3", stroke: "#c9b98f" }));
  for (let v = 0; v < n; v++) {
    const y = y0 + (n - 1 - v) * h;
    grp.append(svgEl("rect", { x: x0 + 2, y: y + 0.5, width: width - 4, height: h - 1, fill: v % 5 === 0 ? "#eadcb5" : "#fbf6e8" }));
    grp.append(svgEl("text", { x: x0 + 5, y: y + h / 2 + 3.5, "font-size": 9, fill: "#6b5a35" }, String(v)));
    if (cat.goods_track_vp[v]) grp.append(svgEl("text", { x: x0 + width - 3, y: y + h / 2 + 3, "font-size": 7, "text-anchor": "end", fill: "#9a7a30" }, `★${cat.goods_track_vp[v]}`));
  }
  const perSpace = {};
  for (const m of markers) {
    const k = perSpace[m.space] = (perSpace[m.space] || 0) + 1;
    const y = y0 + (n - 1 - m.space) * h + h / 2;
    const x = x0 + 21 + (k - 1) * 11;
    const [fill, short] = GOOD_STYLE[m.good];
    const mk = svgEl("g", { "data-piece": "goods-marker", "data-good": m.good, "data-space": String(m.space) });
    mk.append(svgEl("circle", { cx: x, cy: y, r: 5.6, fill, stroke: "#0008", "stroke-width": 0.7 }));
    mk.append(svgEl("text", { x, y: y + 2.5, "font-size": 6.5, "text-anchor": "middle", fill: m.good === "wool" || m.good === "grain" ? "#222" : "#fff" }, short));
    grp.append(svgTitle(mk, `${nameOf(m.good)} ${m.space}`));
  }
  svg.append(grp);
}

function drawBarn(svg, barn, p, cat, player, x0, y0, width) {
  const grp = svgEl("g", { class: "barn", "data-on": `barn:${player}` });
  const smallW = Math.max(54, width * 0.3), largeW = width - smallW - 4, slotS = 36, slotL = 48;
  const height = 3 * slotL + 12 + (barn.loads_unplaced ? 12 : 0);
  grp.append(svgEl("rect", { x: x0, y: y0 - 2, width, height, rx: 4, fill: "#e8dcc6", stroke: "#b9a47c" }));
  grp.append(svgEl("text", { x: x0 + 3, y: y0 + 8, "font-size": 8.5, fill: "#6b5a35" }, "barn"));
  const drawSlot = (piece, x, y, w, h, kind, k) => {
    grp.append(svgEl("rect", { x: x + 2, y: y + 2, width: w - 4, height: h - 4, rx: 3, fill: "#f7f0e1", stroke: "#b9a47c", "stroke-dasharray": kind === "flex" ? "3 2" : null }));
    if (kind === "large" && k === 0 && !piece) grp.append(svgEl("text", { x: x + w / 2, y: y + h / 2 + 4, "font-size": 10, "text-anchor": "middle", fill: "#a33" }, `★${cat.home.barn_penalty_vp}`));
    if (piece) drawPiece(grp, piece, x + 4, y + 4, w - 8, h - 8, player, cat);
  };
  barn.small.forEach((piece, k) => drawSlot(piece, x0, y0 + 10 + k * slotS, smallW, slotS, "small", k));
  barn.large.forEach((piece, k) => drawSlot(piece, x0 + smallW + 2, y0 + 10 + k * slotL, largeW, slotL, "large", k));
  barn.flex.forEach((piece, k) => drawSlot(piece, x0 + smallW + 2, y0 + 10 + (barn.large.length + k) * slotL, largeW, slotL, "flex", k));
  if (barn.loads_unplaced) {
    const l = barn.loaded;
    const items = Object.entries(l).filter(([k, v]) => k !== "destinations" && v).map(([k, v]) => `${v} ${nameOf(k)}`).concat(l.destinations.map(nameOf));
    grp.append(svgEl("text", { x: x0 + 2, y: y0 + 3 * slotL + 18, "font-size": 8.5 }, fitText(`loaded: ${items.join(", ")}`, width, 8.5)));
  }
  svg.append(grp);
  return y0 - 2 + height;
}

function drawPiece(grp, piece, x, y, w, h, player, cat) {
  const name = nameOf(piece.kind);
  const targets = [];
  if (piece.index !== null) targets.push(`vehicle:${player}:${piece.index}`);
  targets.push(`flip:${player}:${piece.kind}`);
  const pg = svgEl("g", { "data-piece": "vehicle", "data-kind": piece.kind, "data-on": targets.join(" "), class: "barn-piece" });
  pg.append(svgEl("rect", { x, y, width: w, height: h, rx: 3, fill: piece.compartments.length ? "#d7b98a" : "#c7c0b0", stroke: "#6b5a35" }));
  const nameSize = fitSize(name, w - 5, 9);
  pg.append(svgEl("text", { x: x + 3, y: y + 9, "font-size": nameSize.toFixed(1), "font-weight": "bold" }, fitText(name, w - 5, nameSize)));
  const units = piece.compartments.reduce((s, c) => s + c.width, 0);
  if (units) {
    const u = Math.min(20, (w - 4) / units);
    let cx = x + 2;
    const cy = y + 12, ch = h - 15;
    piece.compartments.forEach((c) => {
      const cw = c.width * u;
      pg.append(svgEl("rect", { x: cx, y: cy, width: cw - 1, height: ch, rx: 2, fill: c.used ? "#f3e2b8" : "#fff8ea", stroke: "#8a7650", "stroke-width": 0.6, "data-piece": "compartment" }));
      cx += cw;
    });
    cx = x + 2;
    piece.compartments.forEach((c) => {
      const cw = c.width * u;
      if (c.item && c.span) {
        const span = piece.compartments.slice(piece.compartments.indexOf(c), piece.compartments.indexOf(c) + c.span).reduce((s, q) => s + q.width, 0) * u;
        const load = svgEl("g", { "data-piece": "load", "data-kind": c.item });
        load.append(svgEl("rect", { x: cx + 1, y: cy + 1, width: span - 3, height: ch - 2, rx: 2, fill: "#7d9bc1", stroke: "#3c5678" }));
        load.append(svgEl("text", { x: cx + 3, y: cy + ch / 2 + 3, "font-size": 7, fill: "#fff" }, fitText(nameOf(c.item), span - 6, 7)));
        pg.append(svgTitle(load, `loaded: ${nameOf(c.item)}`));
      }
      cx += cw;
    });
  }
  svgTitle(pg, name + (piece.compartments.length ? `: ${piece.compartments.filter((c) => c.item).map((c) => nameOf(c.item)).join(", ") || "empty"}` : ""));
  grp.append(pg);
}

function drawSupply(svg, p, cat, x0, y0, width, height) {
  const keys = [...cat.goods.materials, "peat", ...cat.goods.textiles];
  const cols = width > 230 ? 3 : 2;
  const rows = Math.ceil(keys.length / cols);
  const rowH = height ? Math.min(22, (height - 14) / rows) : 19;
  const h = height || 16 + rows * rowH;
  const grp = svgEl("g", { class: "supply" });
  grp.append(svgEl("rect", { x: x0, y: y0, width, height: h, rx: 4, fill: "#f6f1e6", stroke: "#d6cbb2" }));
  grp.append(svgEl("text", { x: x0 + 3, y: y0 + 10, "font-size": 8.5, fill: "#6b5a35" }, "supply"));
  keys.forEach((k, n) => {
    const x = x0 + 4 + (n % cols) * (width / cols), y = y0 + 14 + Math.floor(n / cols) * rowH;
    const v = p.goods[k] || 0;
    const item = svgEl("g", { "data-piece": "supply", "data-good": k, "data-count": String(v), opacity: v ? 1 : 0.45 });
    item.append(svgEl("rect", { x, y, width: 12, height: 12, rx: 2, fill: SUPPLY_FILL[k] || "#ccc", stroke: "#0005" }));
    const label = `${v} ${nameOf(k)}`;
    const size = fitSize(label, width / cols - 20, 10);
    item.append(svgEl("text", { x: x + 15, y: y + 10, "font-size": size.toFixed(1) }, fitText(label, width / cols - 20, size)));
    grp.append(svgTitle(item, `${nameOf(k)}: ${v}`));
  });
  svg.append(grp);
  return y0 + h;
}

const SUPPLY_FILL = { wood: "#a0703c", timber: "#d08a3a", clay: "#b5654a", brick: "#9c3b2a", peat: "#2b2118", linen: "#e8e2c8", woolen: "#8a9a6a", leather: "#7a4a25", summer_wear: "#f3e9b0", winter_wear: "#6a7fa0", leather_wear: "#5a3418" };

function drawTravel(svg, t, p, cat, x0, y0, width) {
  const grp = svgEl("g", { class: "travel" });
  const n = t.length + 1;
  const labelW = 44;
  const cw = (width - labelW) / n;
  grp.append(svgEl("text", { x: x0, y: y0 + 12, "font-size": 9, fill: "#6b5a35" }, "travel"));
  grp.append(svgEl("text", { x: x0, y: y0 + 24, "font-size": 9, "font-weight": "bold" }, `${t.vp} VP`));
  for (let k = 0; k < n; k++) {
    const x = x0 + labelW + k * cw;
    grp.append(svgEl("rect", { x, y: y0, width: cw - 1, height: 20, fill: k < t.spaces ? "#e9d9b5" : "#fbf6e8", stroke: "#d6cbb2" }));
    grp.append(svgEl("text", { x: x + cw / 2, y: y0 + 30, "font-size": 7, "text-anchor": "middle", fill: k === t.spaces ? "#222" : "#9a8a6a", "font-weight": k === t.spaces ? "bold" : "normal" }, String(t.track_vp[k])));
  }
  let at = 0;
  for (const d of t.destinations) {
    const size = cat.destinations.find((q) => q.key === d).size;
    const x = x0 + labelW + at * cw;
    const tile = svgEl("g", { "data-piece": "destination", "data-kind": d });
    tile.append(svgEl("rect", { x: x + 1, y: y0 + 2, width: size * cw - 3, height: 16, rx: 2, fill: "#6f8f5a", stroke: "#3d5530" }));
    const dSize = fitSize(nameOf(d), size * cw - 5, 8, 6);
    tile.append(svgEl("text", { x: x + 2.5, y: y0 + 13, "font-size": dSize.toFixed(1), fill: "#fff" }, fitText(nameOf(d), size * cw - 5, dSize)));
    grp.append(svgTitle(tile, nameOf(d)));
    at += size;
  }
  grp.append(svgEl("text", { x: x0 + width, y: y0 + 42, "font-size": 9, "text-anchor": "end", fill: p.bottlenecks ? "#a33" : "#6b5a35" }, `bottlenecks ${p.bottlenecks}`));
  svg.append(grp);
  return y0 + 46;
}
