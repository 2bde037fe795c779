// Answers bound to their board: the sequences that once played an answer on a board it
// was not computed for (run by node --test, from tests/page_logic.rs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Playback, isFor, question } from "../../assets/js/answer.js";
import { INV, isSolved, moveDir, text } from "../../assets/js/board.js";

const cells = (t) => t.split("/").flatMap((r) => r.split(" ").map(Number));
const BOARD = cells("8 1 3/4 0 2/7 6 5");

/** A board some moves from the goal, and a solution of it (any will do for the binding):
 * the walk's moves undone in reverse. */
function solution(goal, w, h) {
  const c = goal.slice(), walk = [];
  for (const d of ["R", "D", "L", "D", "R", "U", "L", "L", "U"]) if (moveDir(c, w, h, d)) walk.push(d);
  return { start: c, moves: walk.reverse().map((d) => INV[d]) };
}

test("an answer belongs only to the board it was asked for", () => {
  const q = question(BOARD, 3, 3);
  assert.ok(isFor(q, BOARD, 3, 3));
  const moved = BOARD.slice();
  moveDir(moved, 3, 3, "R");
  assert.ok(!isFor(q, moved, 3, 3), "a board moved after asking");
  assert.ok(!isFor(q, BOARD, 9, 1), "another size");
  assert.ok(!isFor(null, BOARD, 3, 3));
  // The question keeps the board by value: moving the board shown does not move it.
  const shown = BOARD.slice();
  const q2 = question(shown, 3, 3);
  moveDir(shown, 3, 3, "R");
  assert.equal(q2.board, "8 1 3/4 0 2/7 6 5");
});

test("a playback plays only on the board it stands on, and ends on the goal", () => {
  const goal = cells("1 2 3/4 5 6/7 8 0");
  const { start, moves } = solution(goal, 3, 3);
  const p = new Playback(question(start, 3, 3), moves, {});
  assert.ok(p.shows(start, 3, 3));
  let shown = start.slice();
  while (p.forward()) {
    shown = p.cells.slice();
    assert.ok(p.shows(shown, 3, 3));
  }
  assert.ok(p.atEnd);
  assert.ok(isSolved(shown, 3, 3));
  // Back to the start, step by step, then rewind from the middle.
  while (p.back()) { /* to the start */ }
  assert.equal(text(p.cells, 3), text(start, 3));
  p.forward(); p.forward();
  p.rewind();
  assert.equal(p.pos, 0);
  assert.equal(text(p.cells, 3), text(start, 3));
  // A board moved by hand is not the playback's any more.
  const hand = start.slice();
  moveDir(hand, 3, 3, moves[0] === "L" ? "R" : "L") || moveDir(hand, 3, 3, "U") || moveDir(hand, 3, 3, "D");
  assert.ok(!p.shows(hand, 3, 3));
});

test("a second question mid-playback is for the board shown then, and its answer ends on the goal", () => {
  const goal = cells("1 2 3/4 5 6/7 8 0");
  const { start, moves } = solution(goal, 3, 3);
  const first = new Playback(question(start, 3, 3), moves, {});
  first.forward(); first.forward(); first.forward();
  const shown = first.cells.slice();
  const q = question(shown, 3, 3);
  // The second answer: the rest of the first one's moves, from the board shown.
  const second = new Playback(q, moves.slice(3), {});
  assert.ok(isFor(q, shown, 3, 3));
  assert.ok(second.shows(shown, 3, 3));
  assert.ok(!first.shows(start, 3, 3));
  while (second.forward()) { /* to the end */ }
  assert.ok(isSolved(second.cells, 3, 3));
});
