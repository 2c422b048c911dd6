// A new game on the server, and what the server keeps. The server keeps a bounded number of
// games (its terms: /api/catalog's `server`, a new game's `store`); when every one of them
// is in use it refuses a new game (503) with Retry-After, the seconds until one is out of
// use. The page then says so and when there will be room, asks again by itself then, and
// offers to ask at once (Try now) or, with a game on the board, to give up (Cancel).

import { $, el } from "./dom.js";
import { api } from "./api.js";
import { state, update } from "./state.js";

// `seconds` as a person says it: 45 s, 5 minutes, 6 hours (as the server's messages).
export function duration(seconds) {
  if (seconds < 90) return `${Math.max(0, Math.round(seconds))} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} minutes`;
  return `${Number((seconds / 3600).toFixed(1))} hours`;
}

// A countdown: 4 s, 3 min 05 s.
const countdown = (s) => (s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`);

// What the server keeps, under the header.
export function showTerms(terms) {
  if (!terms) return;
  $("server-terms").textContent = `This server keeps ${terms.games_kept} games. A game unused ` +
    `for ${duration(terms.in_use_seconds)} may be closed to make room for a new one, and one ` +
    `unused for ${duration(terms.idle_seconds)} is closed: Save game keeps yours.`;
  $("server-terms").hidden = false;
}

const SUPERSEDED = "a newer new game was asked for";

// The reply of POST /api/games with `body`, waiting for room while the server is full.
// Rejects with an AbortError when the wait is given up (Cancel; `superseded` when a newer
// new game was asked for meanwhile, which the page shows instead), and with the server's
// error when it refuses the game for another reason.
export async function createGame(body) {
  if (state.roomWait) state.roomWait.stop(SUPERSEDED);
  let stopped = null, wake = () => {};
  const wait = Object.freeze({ stop(why) { stopped = why; wake(); } });  // the state's handle
  update({ roomWait: wait });
  const given = () => {
    if (stopped) throw Object.assign(new Error(`no new game: ${stopped}`), { name: "AbortError", superseded: stopped === SUPERSEDED });
  };
  try {
    for (;;) {
      let reply;
      try {
        reply = await api("/api/games", { body });
      } catch (e) {
        given();
        if (e.status !== 503 || e.retryAfter === null) throw e;
        await untilRoom(e, (go) => { wake = go; }, () => wait.stop("you cancelled the wait for room"));
        given();
        continue;
      }
      given();  // (a game made for a request given up: unused, it makes room again)
      showTerms(reply.store);
      return reply;
    }
  } finally {
    if (state.roomWait === wait) {
      update({ roomWait: null });
      $("room-wait").hidden = true;
      $("room-wait").replaceChildren();
    }
  }
}

// Until the server said there would be room, or Try now, counting down; `onWake(go)` is
// given the function that ends the wait at once, `cancel` gives it up (offered with a game
// on the board: without one there is nothing else to show).
function untilRoom(refused, onWake, cancel) {
  return new Promise((resolve) => {
    const until = Date.now() + 1000 * (refused.retryAfter + 0.5);
    const left = el("b");
    let timer = null;
    const go = () => { clearInterval(timer); left.textContent = "now..."; resolve(); };
    const tick = () => {
      const s = Math.ceil((until - Date.now()) / 1000);
      if (s <= 0) go();
      else left.textContent = countdown(s);
    };
    onWake(go);
    timer = setInterval(tick, 1000);
    $("room-wait").replaceChildren(el("b", { text: "The server is full: " }), `${refused.message}. `,
      "A new game is asked for again in ", left, " ",
      el("button", { id: "room-now", onclick: go }, "Try now"),
      state.game ? el("button", { id: "room-cancel", onclick: cancel }, "Cancel") : null);
    $("room-wait").hidden = false;
    tick();
  });
}
