// The page's wiring: the board shown and how it changes (a size, a scramble, a link, a
// paste, a move by hand), and the controls.

import { $, S, busy, info, status } from "./state.js";
import { goal, isSolved, slideFrom, tileFor, text } from "./board.js";
import { api } from "./net.js";
import { announce, build, clearCompare, fit, render } from "./view.js";
import { drop, first, last, play, showMoves, solve, speed, step, stop } from "./solve.js";
import { compare } from "./compare.js";
import { handMoves, redo, replay, resetClock, showClock, undo } from "./timer.js";
import { clearWatch } from "./watch.js";

const YOUR_MOVE = "Your move: click a tile, use the arrow keys or swipe.";

/** Cancels a search under way (its answer would be for another board). */
function cancelRequest() {
  if (S.ctrl) { S.ctrl.abort(); S.ctrl = null; }
  if (S.busy) busy(false);
}

/** Shows a new board: whatever was asked about the old one goes. */
function setBoard(w, h, cells, note, { solvable = true, seed = null } = {}) {
  cancelRequest();
  drop();
  clearCompare();
  clearWatch();
  const rebuild = w !== S.w || h !== S.h || !$("board").children.length;
  Object.assign(S, { w, h, cells: cells.slice(), done: false, solvable, seed });
  resetClock();
  $("w").value = w;
  $("h").value = h;
  const board = $("board");
  board.classList.add("still");
  if (rebuild) build();
  render();
  heurUsed();
  requestAnimationFrame(() => requestAnimationFrame(() => board.classList.remove("still")));
  if (!solvable) status(note ? `${note} It cannot reach the goal (its parity is wrong).` : "This board cannot reach the goal (its parity is wrong).", "bad");
  else status(note || (isSolved(S.cells, S.w, S.h) ? "Solved board: scramble or move a tile." : YOUR_MOVE));
  info("solveinfo", "");
}

/** A move by hand: the tile at cell `i` (and those between it and the gap) slid into the
 * gap. The board is another now, so a search under way is cancelled and answers for the
 * old board go; the hand solve's clock counts it. */
function userSlide(i) {
  const tile = S.cells[i], before = S.cells.slice();
  const b = S.cells.indexOf(0), r = Math.floor(i / S.w), c = i % S.w, br = Math.floor(b / S.w), bc = b % S.w;
  const d = r === br ? (c > bc ? "L" : "R") : (r > br ? "U" : "D");
  const k = slideFrom(S.cells, S.w, i);
  if (!k) return;
  const said = [];
  if (S.busy) { cancelRequest(); said.push("the search was cancelled"); }
  if (S.play) { drop(); said.push("solve again for a new solution"); }
  if (said.length) info("solveinfo", `The board changed: ${said.join("; ")}.`);
  clearCompare();
  S.seed = null;
  // A move after the goal was reached starts a new attempt: count, clock and status anew.
  if (S.done) { S.done = false; status(YOUR_MOVE); }
  render();
  handMoves(before, d, k);
  announce(tile);
}

/** Asks the server for a scramble of the size chosen: the seed field's seed, or a fresh
 * one (shown, and in the link, so the same board can be drawn again). */
async function scramble(seedText, push = true) {
  const w = Number($("w").value), h = Number($("h").value);
  const seed = (seedText ?? $("seed").value).trim();
  if (seed && !/^\d{1,20}$/.test(seed)) { status(`Seed: expected a whole number, found "${seed.slice(0, 40)}"`, "bad"); return; }
  try {
    const d = await api(`/api/scramble?size=${w}x${h}${seed ? `&seed=${seed}` : ""}`);
    const cells = d.board.split("/").flatMap((r) => r.split(" ").map(Number));
    if (push) history.pushState(null, "");
    // (d.seed is a string: the exact 64-bit seed, which draws this board again.)
    setBoard(w, h, cells, `Scrambled (uniform, seed ${d.seed}). Your move.`, { seed: d.seed });
  } catch (e) { status(e.message, "bad"); }
}

/** Opens a board given as text (pasted or linked), read by the library's rules on the
 * server: every form the CLI reads, every size from 2x2 to 16x16. */
async function loadText(t, fromUrl) {
  try {
    const d = await api("/api/board", { board: t });
    setBoard(d.width, d.height, d.cells, fromUrl ? "Board opened from the link." : "Board loaded.", { solvable: d.solvable });
  } catch (e) {
    // A bad link or paste keeps the board shown (the solved 3x3 if there is none yet),
    // and the address bar goes back to it.
    if (!S.cells.length) setBoard(3, 3, goal(3, 3));
    else render();
    status(`Cannot ${fromUrl ? "open the link's" : "load the"} board: ${e.message}`, "bad");
  }
}

/** The heuristic menu only where it is used: astar and idastar (auto picks its own). */
function heurUsed() {
  const a = $("algo").value;
  const used = a === "idastar" || a === "astar";
  $("heur").disabled = !used;
  $("heur").title = used ? "" : (a === "auto" ? "auto picks the estimate for the size" : `${a} uses no heuristic`);
}

/** What the address asks for: `board=`, or `size=` and `seed=` (in the hash or the query). */
function fromAddress() {
  const p = new URLSearchParams(location.hash.slice(1));
  const q = new URLSearchParams(location.search);
  const get = (k) => p.get(k) ?? q.get(k);
  return { board: get("board"), size: get("size"), seed: get("seed") };
}
async function openAddress() {
  const a = fromAddress();
  if (a.size && a.seed !== null && /^\d+x\d+$/.test(a.size)) {
    const [w, h] = a.size.split("x").map(Number);
    if (w >= 2 && w <= 16 && h >= 2 && h <= 16) {
      $("w").value = w;
      $("h").value = h;
      // The seed's board, unless the link's board is another (a scramble played on).
      await scramble(a.seed, false);
      if (a.board && a.board !== text(S.cells, S.w)) await loadText(a.board, true);
      return;
    }
  }
  if (a.board) await loadText(a.board, true);
  else if (!S.cells.length) setBoard(3, 3, goal(3, 3));
}

// The sizes the library solves: 2 to 16 a side.
for (let n = 2; n <= 16; n++) {
  for (const id of ["w", "h"]) {
    const o = document.createElement("option");
    o.value = n;
    o.textContent = n;
    $(id).appendChild(o);
  }
}
const newSize = () => { const w = Number($("w").value), h = Number($("h").value); setBoard(w, h, goal(w, h)); };
$("w").addEventListener("change", newSize);
$("h").addEventListener("change", newSize);
$("scramble").addEventListener("click", () => scramble());
$("seed").addEventListener("keydown", (e) => { if (e.key === "Enter") scramble(); });
$("reset").addEventListener("click", () => setBoard(S.w, S.h, goal(S.w, S.h)));
$("load").addEventListener("click", () => loadText($("paste").value, false));
$("paste").addEventListener("keydown", (e) => { if (e.key === "Enter") loadText($("paste").value, false); });
// A board copied as several lines: a one-line field would run the lines together, so the
// rows are kept apart with "/".
$("paste").addEventListener("paste", (e) => {
  const t = (e.clipboardData || window.clipboardData).getData("text");
  if (!/[\r\n]/.test(t.trim())) return;
  e.preventDefault();
  $("paste").value = t.trim().split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length).join(" / ");
});
$("share").addEventListener("click", async () => {
  const url = location.href;
  try { await navigator.clipboard.writeText(url); status("Link copied: it opens this board."); } catch (e) { status(`Link to this board: ${url}`); }
});
$("solve").addEventListener("click", solve);
// Cancel stops the search on the server at once (the stream is closed).
$("cancel").addEventListener("click", () => {
  if (!S.busy) return;
  cancelRequest();
  info("solveinfo", "Cancelled.");
  if ($("cmpinfo").textContent) info("cmpinfo", "Cancelled.");
  if ($("winfo").textContent) info("winfo", "Cancelled.");
});
$("compare").addEventListener("click", compare);
$("play").addEventListener("click", play);
$("fwd").addEventListener("click", () => { stop(); step(1); });
$("back").addEventListener("click", () => { stop(); step(-1); });
$("first").addEventListener("click", first);
$("last").addEventListener("click", last);
$("speed").addEventListener("input", () => {
  $("speedval").textContent = `${speed()}/s`;
  $("speed").setAttribute("aria-valuetext", `${speed()} moves a second`);
});
$("algo").addEventListener("change", heurUsed);
$("board").addEventListener("click", (e) => {
  const t = e.target.closest(".tile");
  if (t) userSlide(S.cells.indexOf(Number(t.dataset.tile)));
});
const handChange = (f) => () => {
  if (S.busy) { cancelRequest(); info("solveinfo", "The board changed: the search was cancelled."); }
  if (S.play) drop();
  clearCompare();
  f();
};
$("undo").addEventListener("click", handChange(undo));
$("redo").addEventListener("click", handChange(redo));
$("replay").addEventListener("click", () => replay(setBoard));
const KEYS = { ArrowUp: "U", ArrowDown: "D", ArrowLeft: "L", ArrowRight: "R", w: "U", s: "D", a: "L", d: "R" };
document.addEventListener("keydown", (e) => {
  const tag = (e.target.tagName || "").toLowerCase();
  if (tag === "input" || tag === "select" || tag === "textarea" || e.metaKey || e.altKey) return;
  if (e.ctrlKey) {
    const k = e.key.toLowerCase();
    if (k === "z" && !e.shiftKey) { e.preventDefault(); handChange(undo)(); }
    else if (k === "y" || (k === "z" && e.shiftKey)) { e.preventDefault(); handChange(redo)(); }
    return;
  }
  const d = KEYS[e.key];
  if (!d) return;
  e.preventDefault();
  const i = tileFor(S.cells, S.w, S.h, d);
  if (i >= 0) userSlide(i);
});
let touch = null;
$("board").addEventListener("touchstart", (e) => { const t = e.touches[0]; touch = [t.clientX, t.clientY]; }, { passive: true });
$("board").addEventListener("touchend", (e) => {
  if (!touch) return;
  const t = e.changedTouches[0], dx = t.clientX - touch[0], dy = t.clientY - touch[1];
  touch = null;
  if (Math.max(Math.abs(dx), Math.abs(dy)) < 24) return;
  e.preventDefault();
  const d = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "R" : "L") : (dy > 0 ? "D" : "U");
  const i = tileFor(S.cells, S.w, S.h, d);
  if (i >= 0) userSlide(i);
});
window.addEventListener("resize", fit);
// A link followed (or the address edited, or Back after a scramble) opens its board
// (once: a change of the hash is told as both events).
let following = null;
const follow = async () => {
  const a = fromAddress();
  if (a.board === null || a.board === text(S.cells, S.w) || a.board === following) return;
  following = a.board;
  try { await openAddress(); } finally { following = null; }
};
window.addEventListener("popstate", follow);
window.addEventListener("hashchange", follow);
showMoves();
showClock();
openAddress();
