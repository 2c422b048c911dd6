// The server's JSON API (docs/web.md, "The API"): requests and streamed JSON lines. An
// answer that is not a success throws an Error with the server's message, its `status`,
// its `reason` when the server names one for the page to act on ("record_full") and its
// `retryAfter` (seconds, from Retry-After: when a full server will have room; else null).

async function refusal(res) {
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  const err = new Error((data && data.error) || `${res.status} ${res.statusText}`);
  err.status = res.status;
  err.reason = (data && data.reason) || null;
  const after = res.headers.get("Retry-After");
  err.retryAfter = after !== null && /^\d+$/.test(after.trim()) ? Number(after) : null;
  return err;
}

export async function api(path, options = {}) {
  const init = { method: options.method || (options.body ? "POST" : "GET"), headers: {} };
  if (options.body !== undefined) {
    init.body = JSON.stringify(options.body);
    init.headers["Content-Type"] = "application/json";
  }
  if (options.signal) init.signal = options.signal;
  const res = await fetch(path, init);
  if (!res.ok) throw await refusal(res);
  try { return await res.json(); } catch (e) { return null; }
}

// Read a JSON-lines stream, calling onMessage for each line; resolves when it ends.
export async function streamLines(path, onMessage, signal) {
  const res = await fetch(path, { signal });
  if (!res.ok) throw await refusal(res);
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

// The server runs a few searches at once for all its tabs (docs/web.md, "Safety and
// limits"); a search refused for want of a free slot (429) is asked for again. The waits
// double from FIRST to MOST seconds (each drawn within +-25%, so that tabs refused together
// do not ask again together; a Retry-After is followed), and after GIVE_UP seconds of
// waiting the refusal is thrown with how long was waited.
export const SLOT_WAIT = { first: 0.5, most: 8, giveUp: 120 };

// The answer of `ask()`, asked again while it is refused with a 429: `waiting(seconds,
// waited, error)` is told before each wait, and `signal` ends the wait (an AbortError).
export async function withSearchSlot(ask, { signal, waiting = () => {} } = {}) {
  let next = SLOT_WAIT.first, waited = 0;
  for (;;) {
    try {
      return await ask();
    } catch (e) {
      if (e.status !== 429) throw e;
      if (waited >= SLOT_WAIT.giveUp) {
        e.message = `no search slot came free in ${Math.round(waited)} s: ${e.message}`;
        throw e;
      }
      const seconds = e.retryAfter ?? next * (0.75 + Math.random() / 2);
      waiting(seconds, waited, e);
      await sleep(seconds, signal);
      waited += seconds;
      next = Math.min(2 * next, SLOT_WAIT.most);
    }
  }
}

// A pause of `seconds`, ended early by `signal` (an AbortError).
export function sleep(seconds, signal) {
  return new Promise((resolve, reject) => {
    const stopped = () => { clearTimeout(timer); reject(new DOMException("the wait was stopped", "AbortError")); };
    const timer = setTimeout(() => { if (signal) signal.removeEventListener("abort", stopped); resolve(); }, 1000 * seconds);
    if (signal) {
      if (signal.aborted) stopped();
      else signal.addEventListener("abort", stopped, { once: true });
    }
  });
}

// Stop the game's search of `kind` (hint, move, analysis), or all of them; never waits.
export const stopSearch = (gid, kind) => fetch(`/api/games/${gid}/stop` + (kind ? `?kind=${kind}` : ""), { method: "POST" });
