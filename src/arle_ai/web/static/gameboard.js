// The game board in SVG, as it lies on the table: the summer action spaces, the tool tracks
// that the spaces read, the winter spaces; the half-year track, the workers still on the
// months and the building spaces with the buildings in play. Names come from the catalog;
// every piece carries data-piece (and data-space, data-player...) so tests can count them,
// and data-on the move targets (arle_ai.web.board.move_target) that make it clickable.

import { BUILDING_FILL, PLAYER_FILL, SPACE_FILL, fitText, meeple, svgEl, svgTitle, wrapText } from "./svg.js";

// Which rows of the board each tool track stands on: the rows of the spaces that read it.
function toolRows(cat) {
  const rows = {};
  for (const s of cat.spaces) if (s.tool) (rows[s.tool] = rows[s.tool] || []).push(s.order);
  return Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, [Math.min(...v), Math.max(...v)]]));
}

// The game board, wide: summer spaces | tool tracks | winter spaces, then the spaces of the
// rows below the tool tracks (12-15) around the half-year track, then the building spaces.
// Narrow (below 560 px): the season's spaces over the tool tracks.
export function drawGameBoard(box, g, cat, opts = {}) {
  const narrow = box.clientWidth > 0 && box.clientWidth < 560;
  const pos = g.position;
  const W = narrow ? 420 : 840;
  const rowH = narrow ? 30 : 27;
  const svg = svgEl("svg", { class: "board-svg", id: opts.id || "gameboard-svg", role: "img", "aria-label": "game board" });
  const spaceW = narrow ? 136 : 196;
  const rows = toolRows(cat);
  const last = Math.max(...Object.values(rows).map(([, r1]) => r1));  // the tracks' last row
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
        if (s.order > last) { // rows 12-15: two columns of two on each side
          const k = s.order - last - 1;
          x = (season === "summer" ? 0 : W - spaceW) + (k % 2) * (spaceW / 2);
          y = top + last * rowH + 4 + Math.floor(k / 2) * (rowH + 8);
          drawSpace(s, x, y, spaceW / 2, rowH + 8);
          continue;
        }
        drawSpace(s, x, y, spaceW, rowH);
      }
    }
    drawTools(svg, pos, cat, rows, spaceW + 4, top, W - 2 * spaceW - 8, rowH);
    const midY = top + last * rowH + 4;
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
    // the other season's spaces: those with a worker (the special action) and those a mark
    // on the board is about (opts.show), two a row
    const shown = opts.show || [];
    const other = bySeason[season === "summer" ? "winter" : "summer"].filter((s) => pos.occupied[s.key] !== undefined || shown.includes(s.key));
    svg.append(svgEl("text", { x: 4, y: y + 10, class: "board-sub" }, other.length ? "Special action:" : "Special action: free"));
    other.forEach((s, i) => drawSpace(s, 110 + (i % 2) * 152, y - 4 + Math.floor(i / 2) * (rowH + 2), 148, rowH));
    y += Math.max(1, Math.ceil(other.length / 2)) * (rowH + 2) + 2;
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
      if (t.dikes) { // two printed rows: the dikes (Dike Builder) over the clay (Clay Worker)
        cell.append(svgEl("text", { x: cx + 5, y: y + 13, "font-size": 10, class: "tool-dikes" }, `${t.dikes[i]} dike${t.dikes[i] > 1 ? "s" : ""}`));
        const clay = svgEl("text", { x: cx + 5, y: y + h - 7, "font-size": 12, "font-weight": "bold" }, String(v));
        clay.append(svgEl("tspan", { "font-size": 9, "font-weight": "normal", dx: 2 }, t.values_of));
        cell.append(clay);
      } else {
        cell.append(svgEl("text", { x: cx + 6, y: y + h / 2 + 5, "font-size": 13, "font-weight": "bold" }, String(v)));
      }
      if (t.vp[i]) cell.append(svgEl("text", { x: cx + (t.dikes ? cellW - 24 : 20), y: y + h / 2 + 4, "font-size": 9, class: "vp-star" }, `★${t.vp[i]}`));
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
