// The hint: a search of the position shown, streamed from the server and shown in the words
// and units of `arle suggest` (visits, value and margin; the solo game: the score and its
// distance from the best's in VP, no value; "~" for at most three moves as good as the best).
// It runs on the position shown, also while the AI is thinking (the server keeps a game's
// hint and AI move apart). While it runs it follows the board: when the position changes
// (the AI replied, you moved, undid or stepped) it starts again on the new one. It is
// labelled with the decision it answers, and greyed once the board shows another.

import { $, el, showMessage, signed } from "./dom.js";
import { streamLines, withSearchSlot } from "./api.js";
import { state, update, isSolo, positionKey } from "./state.js";
import { TONES, renderBoardMarks } from "./overlay.js";

export function stopHint() {
  if (state.hint) { state.hint.abort(); update({ hint: null }); }
  $("hint-stop").disabled = true;
  $("hint-start").disabled = !state.game || state.game.terminal;
}

export function cancelHint() {
  update({ hintFollow: null });
  if (state.hint) $("hint-status").textContent += " - stopped";
  stopHint();
}

export function clearHint() {
  cancelHint();
  update({ hintFor: null, hintMoves: null });
  renderBoardMarks();
  $("hint-table").replaceChildren();
  $("hint-why").replaceChildren();
  $("hint-status").textContent = "";
  $("hint-for").textContent = "";
  $("hint-body").classList.remove("stale");
}

export function renderHintFreshness() {
  const f = state.hintFor;
  if (!f || !state.game) return;
  const stale = f.key !== positionKey(state.id, state.game);
  $("hint-body").classList.toggle("stale", stale);
  $("hint-for").textContent = `for decision ${f.decision} (${f.prompt})` + (stale ? " - the board shows another position" : "");
}

export async function startHint(seconds) {
  stopHint();
  const controller = new AbortController();
  const g = state.game;
  update({ hint: controller, hintFollow: { seconds } });
  const asked = { key: positionKey(state.id, g), decision: g.ply + 1, player: g.to_move, prompt: g.prompt, labels: Object.fromEntries(g.legal.map((m) => [m.action, m.label])) };
  $("hint-stop").disabled = false;
  $("hint-start").disabled = true;
  $("hint-status").textContent = "starting...";
  $("hint-why").replaceChildren();
  let updates = 0;
  const mine = () => state.hint === controller;
  try {
    // refused for want of a free search slot (429): asked again after a wait, until Stop
    const waiting = (s) => { $("hint-status").textContent = `waiting for a free search slot (asking again in ${Math.max(1, Math.round(s))} s)`; };
    await withSearchSlot(() => streamLines(`/api/games/${state.id}/hint?seconds=${seconds}`, (msg) => {
      if (!mine()) return;
      if (msg.kind === "start") document.body.dataset.hintPly = String(msg.ply);
      else if (msg.kind === "update") {
        updates++;
        update({ hintFor: asked, hintMoves: msg.data.moves });
        renderHint(msg.data, asked);
        renderHintFreshness();
        renderBoardMarks();  // the best moves on the board
      } else if (msg.kind === "done") {
        const why = msg.data.reason;
        $("hint-status").textContent += why === "memory" ? " - stopped at its memory bound"
          : why === "stopped" ? ` - stopped (${msg.data.message})` : " - done";
        // the position changed: the board's next reply starts the hint again
        if (why !== "stopped" || msg.data.message !== "the position changed") update({ hintFollow: null });
        if (why !== "stopped") document.body.dataset.hintUpdates = String(updates);
        $("hint-why").replaceChildren(...(msg.data.why ? [whyLine(msg.data.why)] : []));
      } else if (msg.kind === "error") { update({ hintFollow: null }); showMessage(msg.data); }
    }, controller.signal), { signal: controller.signal, waiting });
  } catch (e) {
    // (an AbortError: cancelled, or started again on a new position)
    if (e.name !== "AbortError") { if (mine()) update({ hintFollow: null }); showMessage(e.message); }
  }
  if (mine()) { update({ hint: null }); $("hint-stop").disabled = true; $("hint-start").disabled = !state.game || state.game.terminal; }
}

// `arle suggest`'s legend (the catalog's lines), each entry's continued lines joined.
function legendEntries(lines) {
  const joined = [];
  for (const line of lines) {
    if (/^\s/.test(line) && joined.length) joined[joined.length - 1] += " " + line.trim();
    else joined.push(line);
  }
  return joined;
}

// The legend's entry for a column: legendLine(lines, "value") is "value: the mover's ...".
const legendLine = (lines, column) => legendEntries(lines).find((line) => line.startsWith(`${column}:`)) || "";

// The legend under the hint's table: the solo game's when the game shown is one.
export function renderLegend(g) {
  const solo = String(isSolo(g));
  const shown = $("legend");
  if (shown.dataset.solo === solo) return;
  shown.dataset.solo = solo;
  const lines = isSolo(g) ? state.catalog.solo_legend : state.catalog.legend;
  shown.replaceChildren(...legendEntries(lines).map((line) => el("li", { text: line })));
}

// The hint in the words and units of `arle suggest`: visits, value (0..1, a ranking score,
// not a chance to win) and margin in VP; in the solo game the score (the expected final
// score) and how far it lies from the best's, in VP, and no value (the squashed score is flat
// at the scores searches expect); "~" for at most three moves as good as the best. Each row
// names its move as the answer it gives (the server's label: at a how-many question the
// count its line converts in all), its line the steps after it.
function renderHint(d, asked) {
  $("hint-status").textContent = `${d.iterations} simulations in ${d.seconds.toFixed(1)} s (${Math.round(d.iterations_per_second)}/s)`;
  const t = $("hint-table");
  const solo = isSolo(state.game);  // the solo game: the expected final score, not a lead
  const legend = solo ? state.catalog.solo_legend : state.catalog.legend;
  const [first, second] = solo ? ["score", "vs best"] : ["value", "margin"];
  const head = (text, column) => el("th", { class: "n", text, title: legendLine(legend, column) });
  t.replaceChildren(el("tr", {}, el("th", { text: "move" }), head("visits", "visits"), head(first, first), head(second, second), el("th", { text: "" })));
  const best = d.moves[0];
  d.moves.slice(0, 6).forEach((m, i) => {
    // the rank drawn on the board, in its colour
    const rank = TONES[i + 1] && m.visits ? el("span", { class: "rank", style: `background:${TONES[i + 1]}`, text: String(i + 1) }) : null;
    const numbers = solo ? [m.margin.toFixed(1), i ? signed(m.margin - best.margin) : ""] : [m.value.toFixed(3), signed(m.margin)];
    const row = el("tr", { class: "hint-row", "data-action": String(m.action) },
      el("td", {}, rank, el("b", { text: m.label || asked.labels[m.action] || m.move })),
      el("td", { class: "n", text: String(m.visits) }),
      el("td", { class: "n", text: numbers[0], title: legendLine(legend, first) }),
      el("td", { class: "n", text: numbers[1], title: legendLine(legend, second) }),
      el("td", { class: "near", text: m.near_best ? "~" : "", title: m.near_best ? "as good as the best (measured)" : "" }));
    t.append(row);
    if (m.pv.length > 1) {
      const pv = el("td", { class: "pv", colspan: "5" });
      for (const step of m.pv.slice(1)) pv.append(el("span", { class: `tag p${step.player}`, text: `P${step.player}` }), ` ${step.label}  `);
      t.append(el("tr", {}, pv));
    }
  });
}

// Why the better move is better, in the library's words (arle_ai.play.why): the mover's lead
// in VP by scoring category, better move against the other.
export function whyLine(why) {
  const better = why.better_label || why.better, other = why.other_label || why.other;
  return el("div", { class: "why" }, el("b", { text: "Why " }), `${better} rather than ${other}: ${why.text}`);
}
