// What a watched search looks like at step i of its events (pure: tested without a
// browser, tests/page/watching.test.js). The events come from the library's searches
// through the server (POST /api/watch/stream): `layer` (breadth-first), `expand` (A*),
// `pass` (IDA*, IDDFS).

/** The picture at step `i` (0-based, the i-th event included): for the breadth-first
 * searches the layers so far by side; for A* the board being expanded, with g, h, f and the
 * open list by f; for IDA* and IDDFS the passes so far. */
export function at(events, i) {
  const seen = events.slice(0, i + 1);
  const last = seen[seen.length - 1] || null;
  const layers = [[], []];
  const passes = [];
  for (const e of seen) {
    if (e.type === "layer") layers[e.side].push(e);
    else if (e.type === "pass") passes.push(e);
  }
  return { step: i, steps: events.length, last, layers, passes, expand: last && last.type === "expand" ? last : null };
}

/** The line that says what step `i` shows. */
export function caption(view, algorithm) {
  const e = view.last;
  if (!e) return "";
  const n = (x) => Number(x).toLocaleString("en-US");
  if (e.type === "layer") {
    const from = e.side === 0 ? "the start" : "the goal";
    const what = algorithm === "bibfs" ? `From ${from}: ` : "";
    return `${what}${n(e.states)} board${e.states === 1 ? "" : "s"} at ${n(e.depth)} move${e.depth === 1 ? "" : "s"} from ${from}; ${n(e.seen)} stored, ${n(e.expanded)} expanded.`;
  }
  if (e.type === "expand") {
    const waiting = e.open.reduce((s, [, c]) => s + c, 0);
    return `Expanding a board with g = ${e.g} moves so far and h = ${e.h} estimated: f = g + h = ${e.f}; ${n(waiting)} waiting in the open list; ${n(e.expanded)} expanded.`;
  }
  if (e.type === "pass") {
    const next = e.next === null ? "the goal found within it" : `next threshold ${e.next}`;
    return `Pass with threshold ${e.threshold}: ${n(e.expanded)} nodes expanded; ${next}.`;
  }
  return "";
}
