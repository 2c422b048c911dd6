// A home board in SVG, as it lies on the table: the dike rows and the land they open, the
// moors with their peat, the boardwalk, the tiles and buildings with the animals, the goods
// track, the barn with its vehicles and what is loaded on them, the supply and the travel
// track. Where each piece lies comes from the server (arle_ai.web.board); names from the
// catalog; data-piece and data-on as on the game board.

import { nameOf } from "./state.js";
import { BUILDING_FILL, animalIcon, fitSize, fitText, peatBlock, svgEl, svgTitle, wrapText } from "./svg.js";

const GOOD_STYLE = {  // the indicator's colour, its letters and theirs
  food: ["#3b6fb6", "Fo", "#fff"], grain: ["#e2b93b", "Gr", "#222"], flax: ["#5f9e4a", "Fl", "#fff"],
  wool: ["#b5b5b5", "Wo", "#222"], hide: ["#8b5a2b", "Hi", "#fff"],
};
const TILE_FILL = {
  grain_field: "#f1d77a", flax_field: "#9fc5a8", forest: "#3f7a3a", park: "#9ccf7f",
  stall: "#c9a06b", double_stall: "#b58546", stable: "#9a6a3a", depot: "#b9b2a5",
};
const HB = { x0: 6, y0: 6, colW: 50, rowH: 38, gapH: 10 };

// Wide (420 units): the farm, the goods track, the barn over the supply, the travel track
// below. Narrow (below 500 px): the barn, the supply and the travel track under the farm.
export function drawHomeBoard(box, g, i, cat) {
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
    const [fill, short, ink] = GOOD_STYLE[m.good];
    const mk = svgEl("g", { "data-piece": "goods-marker", "data-good": m.good, "data-space": String(m.space) });
    mk.append(svgEl("circle", { cx: x, cy: y, r: 5.6, fill, stroke: "#0008", "stroke-width": 0.7 }));
    mk.append(svgEl("text", { x, y: y + 2.5, "font-size": 6.5, "text-anchor": "middle", fill: ink }, short));
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
  const keys = [...cat.goods.materials, ...cat.goods.other, ...cat.goods.textiles];
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
