// HTML helpers and the page's number formats: no game knowledge, no state.

export const $ = (id) => document.getElementById(id);

// An element with attributes (class, text, on<event> handlers, the rest as attributes) and
// children (null and undefined are left out).
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

// The message line under the header: an error (red), or `ok` news (green); none hides it.
export function showMessage(text, ok = false) {
  const m = $("message");
  if (!text) { m.hidden = true; return; }
  m.textContent = text; m.className = ok ? "ok" : ""; m.hidden = false;
}

export const title = (key) => { const s = key.replaceAll("_", " "); return s.charAt(0).toUpperCase() + s.slice(1); };
export const num = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(1));
export const signed = (x, d = 1) => (x >= 0 ? "+" : "") + x.toFixed(d);
export const pct = (x) => (100 * x).toFixed(1) + "%";
