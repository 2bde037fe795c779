// A speedsolver's averages and the session kept per size (run by node --test, from
// tests/page_logic.rs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Session, average, fmtMs, tps } from "../../assets/js/session.js";

class Store {
  constructor() { this.m = new Map(); }
  getItem(k) { return this.m.has(k) ? this.m.get(k) : null; }
  setItem(k, v) { this.m.set(k, String(v)); }
  removeItem(k) { this.m.delete(k); }
}

test("ao5 and ao12 drop the best and the worst of the last n", () => {
  assert.equal(average([1000, 2000, 3000, 4000], 5), null);
  // Last five: 2, 3, 4, 5, 60 s: without 2 and 60, the mean of 3, 4, 5.
  assert.equal(average([9000, 2000, 3000, 4000, 5000, 60000], 5), 4000);
  const twelve = [5, 1, 9, 2, 8, 3, 7, 4, 6, 10, 11, 12].map((s) => s * 1000);
  assert.equal(average(twelve, 12), (2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 11) * 1000 / 10);
  assert.equal(fmtMs(12345), "12.345");
  assert.equal(tps(31, 12400), "2.50");
  assert.equal(tps(3, 0), "—");
});

test("a session is kept per size, survives a reload, and forgets bad entries", () => {
  const store = new Store();
  const s = new Session(store, "3x3");
  for (const ms of [8000, 7000, 9000, 6000, 10000]) s.add(ms, 30);
  const again = new Session(store, "3x3");
  assert.deepEqual(again.stats(), { count: 5, best: 6000, ao5: 8000, ao12: null });
  assert.equal(new Session(store, "4x4").stats().count, 0);
  store.setItem("npuzzle.solves.5x5", "not json");
  assert.equal(new Session(store, "5x5").stats().count, 0);
  store.setItem("npuzzle.solves.5x5", JSON.stringify([{ ms: 1 }, null, { ms: 5, moves: 3 }]));
  assert.equal(new Session(store, "5x5").stats().count, 1);
  again.clear();
  assert.equal(new Session(store, "3x3").stats().count, 0);
});
