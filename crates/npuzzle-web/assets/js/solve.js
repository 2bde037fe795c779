// Solving the board shown and playing the answer on it: the question is the board when
// Solve is pressed; the answer plays only on that board and on the boards its own steps
// put there.

import { $, S, ask, info, status, stepsEnabled } from "./state.js";
import { expand, fmtInt, fmtTime } from "./board.js";
import { Playback, question } from "./answer.js";
import { render } from "./view.js";

/** Stops playback (the solution stays, where it stands). */
export function stop() {
  clearTimeout(S.timer);
  S.timer = null;
  showMoves();
}

/** Drops the solution: it is not for the board shown any more. */
export function drop() {
  stop();
  S.play = null;
  showMoves();
}

/** The solution's moves, the one played and the next marked; the playback's buttons. */
export function showMoves() {
  const el = $("moves");
  el.innerHTML = "";
  stepsEnabled();
  $("play").textContent = S.timer ? "Pause" : "Play";
  $("play").setAttribute("aria-label", S.timer ? "Pause" : "Play");
  if (!S.play) return;
  S.play.moves.forEach((d, i) => {
    const s = document.createElement("span");
    s.textContent = d;
    s.className = i < S.play.pos ? "done" : (i === S.play.pos ? "next" : "");
    el.appendChild(s);
  });
}

/** The playback's board shown. */
function show() {
  S.cells = S.play.cells.slice();
  render();
  showMoves();
}

/** One step of the solution (`dir` 1 on, -1 back); false where it cannot (the end, the
 * start, no solution for the board shown, a search under way). */
export function step(dir) {
  if (!S.play || S.busy) return false;
  if (!S.play.shows(S.cells, S.w, S.h)) { drop(); return false; }
  if (!(dir > 0 ? S.play.forward() : S.play.back())) return false;
  show();
  if (S.play.atEnd) {
    // A hand solve under way ends with the solution's goal, and is not kept.
    clearInterval(S.tick);
    if (S.attempt && S.attempt.end === undefined) { S.attempt.end = performance.now(); S.attempt.undone = true; }
    S.done = true;
    status(`Solution played: ${fmtInt(S.play.moves.length)} moves to the goal.`, "good");
  }
  return true;
}

/** Back to the board the solution was asked for. */
export function first() {
  stop();
  if (!S.play || S.busy || !S.play.shows(S.cells, S.w, S.h)) return;
  S.play.rewind();
  show();
}

/** To the end of the solution at once. */
export function last() {
  stop();
  while (step(1)) { /* to the end */ }
}

/** The slider's 0..100 as 1 to 500 moves a second, logarithmically (big boards' solutions
 * have thousands of moves). */
export function speed() { return Math.round(Math.pow(500, Number($("speed").value) / 100)); }

/** Plays the solution (from the start if it was at the end), or pauses it. */
export function play() {
  if (!S.play || S.busy) return;
  if (S.timer) { stop(); return; }
  if (!S.play.shows(S.cells, S.w, S.h)) { drop(); return; }
  if (S.play.atEnd) { S.play.rewind(); show(); }
  const run = () => {
    if (!step(1)) { stop(); return; }
    S.timer = setTimeout(run, 1000 / speed());
  };
  S.timer = setTimeout(run, 1000 / speed());
  showMoves();
}

/** Asks the server for the board shown, and binds the answer to that board. */
export async function solve() {
  if (S.busy) return;
  stop();
  const id = "solveinfo";
  if (!S.solvable) {
    info(id, "This board cannot reach the goal (its parity is wrong): no solution exists.", "bad");
    return;
  }
  const q = question(S.cells, S.w, S.h);
  const req = { board: q.board, algorithm: $("algo").value, notation: "tile" };
  // The heuristic only where it is used (astar and idastar): auto chooses its own.
  if ((req.algorithm === "astar" || req.algorithm === "idastar") && $("heur").value) req.heuristic = $("heur").value;
  // Past 25 cells auto is the anytime solver: three seconds of it, its answer shown
  // improving as it goes.
  if (S.w * S.h > 25 && req.algorithm === "auto") req.time_limit = 3;
  // The search as it goes: the bound it has proven, the nodes, the time.
  let proven = 0, name = "", best = null;
  const r = await ask(q, "/api/solve/stream", req, id, "Solving…", (ev, d) => {
    if (ev !== "progress") return;
    if (d.bound !== null) { proven = Math.max(proven, d.bound); name = d.algorithm; }
    if (d.best != null) best = d.best;
    info(id, best !== null
      ? `Searching (${name}): best so far ${fmtInt(best)} moves, at least ${fmtInt(proven)} proven, ${d.seconds.toFixed(1)} s…`
      : `Searching${name ? ` (${name})` : ""}: at least ${fmtInt(proven)} moves proven, ${fmtInt(d.expanded)} nodes, ${d.seconds.toFixed(1)} s…`);
  });
  if (!r) return;
  S.play = new Playback(q, expand(r.moves || ""), r);
  const proof = r.optimal ? "optimal" : `not proven optimal (lower bound ${fmtInt(r.lower_bound)})`;
  const h = r.heuristic ? ` with ${r.heuristic}` : "";
  info(id, `${fmtInt(r.length)} moves, ${proof}; ${r.algorithm}${h}: ${fmtInt(r.expanded)} nodes expanded in ${fmtTime(r.seconds)}.`);
  showMoves();
  if (S.play.moves.length) play();
}
