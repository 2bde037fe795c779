// Drawing the board: its tiles, where they stand, what assistive tools are told, and the
// link in the address bar.

import { $, S } from "./state.js";
import { isSolved, text } from "./board.js";
import { isFor } from "./answer.js";

/** Builds the tiles for the board's size. */
export function build() {
  const board = $("board");
  board.innerHTML = "";
  board.style.setProperty("--aspect", `${S.w / S.h}`);
  board.style.aspectRatio = `${S.w} / ${S.h}`;
  for (let v = 1; v < S.w * S.h; v++) {
    const b = document.createElement("button");
    b.className = "tile";
    b.dataset.tile = v;
    b.tabIndex = -1;
    b.id = `tile-${v}`;
    b.style.width = `${100 / S.w}%`;
    b.style.height = `${100 / S.h}%`;
    const row = Math.floor((v - 1) / S.w), hue = (200 + row * 300 / S.h) % 360;
    const span = document.createElement("span");
    span.textContent = v;
    span.style.background = `hsl(${hue} 70% 78%)`;
    b.appendChild(span);
    board.appendChild(b);
  }
  fit();
}

/** Sizes the numbers to the tiles (small boards' big, 16x16's small). */
export function fit() {
  const px = $("board").clientWidth / S.w;
  const size = Math.max(7, px * (S.w * S.h > 99 ? 0.36 : 0.42));
  document.querySelectorAll(".tile span").forEach((s) => { s.style.fontSize = `${size}px`; });
  $("board").classList.toggle("tiny", px < 22);
}

/** The link to what is shown: the board, and the seed and size while the board is the
 * seed's scramble unmoved. */
export function link() {
  const p = new URLSearchParams();
  if (S.seed !== null) { p.set("size", `${S.w}x${S.h}`); p.set("seed", S.seed); }
  p.set("board", text(S.cells, S.w));
  return "#" + p.toString();
}

/** Puts the tiles where the cells say, and tells assistive tools and the address bar. */
export function render() {
  const board = $("board");
  S.cells.forEach((v, i) => {
    if (!v) return;
    const t = board.querySelector(`[data-tile="${v}"]`), r = Math.floor(i / S.w), c = i % S.w;
    t.style.transform = `translate(${c * 100}%, ${r * 100}%)`;
    t.classList.toggle("home", v === i + 1);
    t.setAttribute("aria-label", `tile ${v}, row ${r + 1}, column ${c + 1}`);
  });
  // For assistive tools: the tiles in board order (row by row), and the tiles that can
  // move (in the gap's row or column) reachable by Tab.
  board.setAttribute("aria-owns", S.cells.filter((v) => v).map((v) => `tile-${v}`).join(" "));
  const g = S.cells.indexOf(0), gr = Math.floor(g / S.w), gc = g % S.w;
  S.cells.forEach((v, i) => {
    if (!v) return;
    const inLine = Math.floor(i / S.w) === gr || i % S.w === gc;
    board.querySelector(`[data-tile="${v}"]`).tabIndex = inLine ? 0 : -1;
  });
  board.dataset.size = `${S.w}x${S.h}`;
  board.dataset.board = text(S.cells, S.w);
  board.dataset.solved = isSolved(S.cells, S.w, S.h);
  $("count").textContent = S.count.toLocaleString("en-US");
  keepCompare();
  S.onBoard.forEach((f) => f());
  history.replaceState(null, "", link());
}

/** Clears the comparison (its board is not shown any more). */
export function clearCompare() {
  S.compared = null;
  $("chart").innerHTML = "";
  $("chart").removeAttribute("viewBox");
  $("cmptable").innerHTML = "";
  $("cmpinfo").textContent = "";
  $("cmpinfo").className = "";
}

/** Keeps the comparison only while the board it was asked for is shown. */
export function keepCompare() {
  if (S.compared && !isFor(S.compared, S.cells, S.w, S.h)) clearCompare();
}

/** Says a move for screen readers: the tile moved and where the gap is now. */
export function announce(tile) {
  const g = S.cells.indexOf(0);
  const solved = isSolved(S.cells, S.w, S.h) ? " Solved!" : "";
  $("announce").textContent = `Tile ${tile} moved; the gap is at row ${Math.floor(g / S.w) + 1}, column ${g % S.w + 1}.${solved}`;
}
