// The tournament results page: a selfplay results file read by the server
// (arle_ai.web.tournaments), shown as its pairings table and a ratings chart (a solo
// benchmark's, `arle selfplay --players 1`: each agent's scores), and every game, each opened
// on the board by `openGame(text, game, name)` (app.js's).

import { $, el, num, pct, showMessage, signed } from "./dom.js";
import { api } from "./api.js";

export async function openTournament(file, openGame) {
  $("tournament-status").textContent = `reading ${file.name}...`;
  const out = $("tournament");
  out.replaceChildren();
  try {
    const text = await file.text();
    const s = await api("/api/tournament", { body: { text } });
    const solo = s.players === 1;
    $("tournament-status").textContent = `${file.name}: ${s.games} ${solo ? "solo games (a solo benchmark)" : "games"}, ${s.agents.length} agent${s.agents.length === 1 ? "" : "s"}` + (s.header.variant ? `, ${s.header.variant}` : "");
    const games = () => [el("h2", { text: `Games (${s.game_list.length}): open one on the board to step through it or review it` }),
      el("div", { class: "game-list" }, gameList(s.game_list, (game) => openGame(text, game, file.name)))];
    if (solo) {
      out.append(el("h2", { text: "Scores (the same setups for every agent)" }), soloTable(s.solo), ...games());
      return;
    }
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
    out.append(...games());
  } catch (e) {
    $("tournament-status").textContent = "";
    showMessage(e.message);
  }
}

// A solo benchmark's scores: per agent, as `arle selfplay --players 1` prints them.
function soloTable(entries) {
  const t = el("table", { class: "data", id: "solo-scores" });
  t.append(el("tr", {}, ...["agent", "games", "mean score [95%]", "sd", "median", "min", "max"].map((h) => el("th", { text: h }))));
  const vp = (x, d = 1) => (x === null ? "-" : x.toFixed(d));
  for (const e of entries) {
    const [low, high] = e.mean_interval;
    t.append(el("tr", {},
      el("td", { text: e.label }),
      el("td", { class: "n", text: String(e.games) }),
      el("td", { class: "n", text: `${vp(e.mean, 2)} [${vp(low, 2)}, ${vp(high, 2)}]` }),
      ...[e.sd, e.median, e.min, e.max].map((x) => el("td", { class: "n", text: vp(x) }))));
  }
  return t;
}

// Every game of the file: the agents on its seats (one in a solo game) with their scores, the
// winner (a tournament's), and Open.
function gameList(games, open) {
  const t = el("table", { class: "data", id: "games" });
  const seats = games.length ? games[0].agents.length : 2;
  const solo = seats === 1;
  t.append(el("tr", {}, ...["game", ...(solo ? ["agent"] : ["P0", "P1", "winner"]), "decisions", ""].map((h) => el("th", { text: h }))));
  for (const g of games) {
    const seat = (p) => el("td", { text: `${g.agents[p]} (${num(g.scores[p])} VP)` });
    t.append(el("tr", { "data-game": String(g.game) },
      el("td", { class: "n", text: String(g.game) }),
      ...(solo ? [seat(0)] : [seat(0), seat(1), el("td", { text: g.winner === null ? "draw" : `P${g.winner} ${g.agents[g.winner]}` })]),
      el("td", { class: "n", text: String(g.decisions) }),
      el("td", {}, el("button", { class: "open-game", onclick: () => open(g.game) }, "Open"))));
  }
  return t;
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
