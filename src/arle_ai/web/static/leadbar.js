// The expected lead beside the game board while the AI plays: what the AI's own search
// expected when it last moved (its chosen move's mean final VP margin, which the AI's move
// carries: the page runs no search for it), as player 0's lead, P0's red from below and
// P1's blue from above as their markers stand on the board. Hidden in the solo game and
// until the AI has moved by a search on the line up to the position shown.

import { $, el, signed } from "./dom.js";
import { isSolo } from "./state.js";

const SCALE = 20;  // VP: a lead of 20 VP fills 88% of the bar (tanh), a lead of 5 VP 62%

// The last move of the line up to the position shown that the AI chose by a search.
export function lastEstimate(g) {
  for (let i = g.ply - 1; i >= 0; i--) {
    const m = g.moves[i];
    if (m.ai && typeof m.ai.margin === "number") return m;
  }
  return null;
}

export function renderLeadBar(g) {
  const bar = $("lead-bar");
  const m = isSolo(g) ? null : lastEstimate(g);
  bar.hidden = !m;
  if (!m) { bar.replaceChildren(); return; }
  const lead = m.player === 0 ? m.ai.margin : -m.ai.margin;  // P0's view
  const p0 = 0.5 + 0.5 * Math.tanh(lead / SCALE);
  const leader = lead >= 0 ? 0 : 1;
  const said = `${signed(Math.abs(lead))}`;
  const text = `Expected lead at the end: P${leader} ${said} VP, from the AI's search at decision ${m.ply} (${m.ai.agent}: the mean final VP margin of the move it chose)`;
  bar.replaceChildren(
    el("div", { class: "lead-part p1-part", style: `flex-grow: ${(1 - p0).toFixed(4)}` }),
    el("div", { class: "lead-part p0-part", style: `flex-grow: ${p0.toFixed(4)}` }),
    el("span", { class: `lead-text at-p${leader}` }, Math.abs(lead) < 10 ? said : `+${Math.round(Math.abs(lead))}`, el("small", { text: `P${leader}` })));
  bar.title = text;
  bar.setAttribute("aria-label", text);
  bar.dataset.lead = lead.toFixed(2);
  bar.dataset.ply = String(m.ply);
}
