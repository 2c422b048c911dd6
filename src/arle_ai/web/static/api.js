// The server's JSON API (docs/web.md, "The API"): requests and streamed JSON lines. An
// answer that is not a success throws an Error with the server's message and `status`.

export async function api(path, options = {}) {
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
export async function streamLines(path, onMessage, signal) {
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

// Stop the game's search of `kind` (hint, move, analysis), or all of them; never waits.
export const stopSearch = (gid, kind) => fetch(`/api/games/${gid}/stop` + (kind ? `?kind=${kind}` : ""), { method: "POST" });
