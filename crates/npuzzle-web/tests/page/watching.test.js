// What a watched search shows at each step (run by node --test, from tests/page_logic.rs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { at, caption } from "../../assets/js/watching.js";

const layers = [
  { type: "layer", side: 0, depth: 0, states: 1, seen: 2, expanded: 0 },
  { type: "layer", side: 1, depth: 0, states: 1, seen: 2, expanded: 0 },
  { type: "layer", side: 0, depth: 1, states: 4, seen: 6, expanded: 1 },
  { type: "layer", side: 1, depth: 1, states: 2, seen: 8, expanded: 2 },
];

test("the layers so far, by side", () => {
  const v = at(layers, 2);
  assert.equal(v.layers[0].length, 2);
  assert.equal(v.layers[1].length, 1);
  assert.equal(v.last.states, 4);
  assert.equal(caption(v, "bibfs"), "From the start: 4 boards at 1 move from the start; 6 stored, 1 expanded.");
  assert.equal(caption(at(layers, 0), "bfs"), "1 board at 0 moves from the start; 2 stored, 0 expanded.");
  assert.equal(at([], -1).last, null);
});

test("A*'s step: the board, g, h, f and the open list", () => {
  const ev = [{ type: "expand", board: "8 1 3/4 2 0/7 6 5", g: 1, h: 9, f: 10, open: [[10, 1], [12, 2]], expanded: 2 }];
  const v = at(ev, 0);
  assert.deepEqual(v.expand, ev[0]);
  assert.equal(caption(v, "astar"), "Expanding a board with g = 1 moves so far and h = 9 estimated: f = g + h = 10; 3 waiting in the open list; 2 expanded.");
});

test("IDA*'s passes so far", () => {
  const ev = [
    { type: "pass", threshold: 10, expanded: 6, next: 12 },
    { type: "pass", threshold: 12, expanded: 21, next: 14 },
    { type: "pass", threshold: 14, expanded: 58, next: null },
  ];
  const v = at(ev, 1);
  assert.equal(v.passes.length, 2);
  assert.equal(caption(v, "idastar"), "Pass with threshold 12: 21 nodes expanded; next threshold 14.");
  assert.equal(caption(at(ev, 2), "idastar"), "Pass with threshold 14: 58 nodes expanded; the goal found within it.");
});
