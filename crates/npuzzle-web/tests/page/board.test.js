// The board's rules the page keeps between the server's answers (run by node --test,
// from tests/page_logic.rs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { expand, fmtInt, goal, isSolved, moveDir, slideFrom, text, tileFor } from "../../assets/js/board.js";

test("the goal and its text, every size from 2x2 to 16x16", () => {
  for (let w = 2; w <= 16; w++) {
    for (let h = 2; h <= 16; h++) {
      const g = goal(w, h);
      assert.equal(g.length, w * h);
      assert.ok(isSolved(g, w, h));
      const rows = text(g, w).split("/");
      assert.equal(rows.length, h);
      assert.ok(rows.every((r) => r.split(" ").length === w));
    }
  }
  assert.equal(text(goal(3, 2), 3), "1 2 3/4 5 0");
});

test("a tile in the gap's line slides, with those between", () => {
  const c = goal(4, 4);
  assert.equal(slideFrom(c, 4, 12), 3); // the row's first tile: three slide right
  assert.equal(text(c, 4), "1 2 3 4/5 6 7 8/9 10 11 12/0 13 14 15");
  assert.equal(slideFrom(c, 4, 5), 0); // not in the gap's row or column
  assert.equal(slideFrom(c, 4, 0), 3); // the column: three slide down
  assert.equal(text(c, 4), "0 2 3 4/1 6 7 8/5 10 11 12/9 13 14 15");
});

test("moves by direction are the tile's way, and stop at the edge", () => {
  const c = goal(3, 3);
  assert.equal(tileFor(c, 3, 3, "U"), -1);
  assert.equal(tileFor(c, 3, 3, "L"), -1);
  assert.ok(moveDir(c, 3, 3, "R"));
  assert.equal(text(c, 3), "1 2 3/4 5 6/7 0 8");
  assert.ok(moveDir(c, 3, 3, "D"));
  assert.equal(text(c, 3), "1 2 3/4 0 6/7 5 8");
  assert.deepEqual(expand("U2LDR3"), ["U", "U", "L", "D", "R", "R", "R"]);
  assert.equal(fmtInt(1417471), "1,417,471");
});
