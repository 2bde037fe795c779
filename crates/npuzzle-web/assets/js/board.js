// The board between the server's answers: its text, its goal, sliding tiles. Pure
// functions of the cells (row by row, 0 the blank), tested without a browser
// (tests/page/board.test.js). What a board may be (sizes, tiles, solvability) is the
// library's to say: the page asks the server (POST /api/board).

/** The usual goal: tiles in order, the blank last. */
export function goal(w, h) {
  const g = [];
  for (let i = 1; i < w * h; i++) g.push(i);
  g.push(0);
  return g;
}

/** The board in one line, as the library writes it: rows of tiles joined by "/". */
export function text(cells, w) {
  const rows = [];
  for (let r = 0; r < cells.length / w; r++) rows.push(cells.slice(r * w, r * w + w).join(" "));
  return rows.join("/");
}

/** Whether the cells are the usual goal. */
export function isSolved(cells, w, h) {
  const g = goal(w, h);
  return cells.length === g.length && cells.every((v, i) => v === g[i]);
}

/** Slides the tile at cell `i`, and those between it and the gap, into the gap if it is in
 * the gap's row or column: the tiles moved (0 if none). Changes `cells`. */
export function slideFrom(cells, w, i) {
  const b = cells.indexOf(0), br = Math.floor(b / w), bc = b % w, r = Math.floor(i / w), c = i % w;
  if (i === b || (r !== br && c !== bc)) return 0;
  const step = r === br ? (c > bc ? 1 : -1) : (r > br ? w : -w);
  let k = 0;
  for (let p = b; p !== i; p += step) { cells[p] = cells[p + step]; cells[p + step] = 0; k++; }
  return k;
}

/** The cell of the tile that moves in direction `d` (the tile's way: "U", "D", "L", "R"):
 * the one beside the gap on the far side; -1 if there is none. */
export function tileFor(cells, w, h, d) {
  const b = cells.indexOf(0), r = Math.floor(b / w), c = b % w;
  const [dr, dc] = { U: [1, 0], D: [-1, 0], L: [0, 1], R: [0, -1] }[d];
  const nr = r + dr, nc = c + dc;
  return nr >= 0 && nr < h && nc >= 0 && nc < w ? nr * w + nc : -1;
}

/** Moves one tile in direction `d`; false (nothing changed) where no tile can. */
export function moveDir(cells, w, h, d) {
  const i = tileFor(cells, w, h, d);
  if (i < 0) return false;
  const b = cells.indexOf(0);
  cells[b] = cells[i];
  cells[i] = 0;
  return true;
}

/** Tile notation ("U2LDR3") as single moves. */
export function expand(m) {
  const out = [];
  for (const [, d, n] of m.matchAll(/([UDLR])(\d*)/g)) for (let i = 0; i < (n ? Number(n) : 1); i++) out.push(d);
  return out;
}

/** Each direction's opposite. */
export const INV = { U: "D", D: "U", L: "R", R: "L" };

/** A whole number with thousands separators (1,417,471). */
export function fmtInt(n) { return Number(n).toLocaleString("en-US"); }

/** Seconds as people read them: 1.25 s, 3.10 ms, 85 µs. */
export function fmtTime(s) {
  return s >= 1 ? `${s.toFixed(2)} s` : s >= 1e-3 ? `${(s * 1e3).toFixed(2)} ms` : `${Math.round(s * 1e6)} µs`;
}
