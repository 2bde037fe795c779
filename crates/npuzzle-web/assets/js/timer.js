// The hand solve, as speedsolvers time it: the clock from the first move to the goal in
// milliseconds, moves a second, undo and redo, the session's best, ao5 and ao12 kept in the
// browser per size, "you 31, optimal 21" once solved, and a replay of the solve.

import { $, S, status } from "./state.js";
import { INV, fmtInt, isSolved, moveDir, text } from "./board.js";
import { Session, fmtMs, tps } from "./session.js";
import { api } from "./net.js";
import { render } from "./view.js";

let session = null;

/** This size's session (from the browser's storage; in memory where there is none). */
function current() {
  const size = `${S.w}x${S.h}`;
  if (!session || session.size !== size) {
    let store;
    try { store = window.localStorage; store.getItem("npuzzle"); } catch (e) { store = memory; }
    session = new Session(store || memory, size);
    session.size = size;
  }
  return session;
}
const memory = { m: new Map(), getItem(k) { return this.m.get(k) ?? null; }, setItem(k, v) { this.m.set(k, v); }, removeItem(k) { this.m.delete(k); } };

/** The clock and the counts as they stand. */
export function showClock() {
  const a = S.attempt;
  const ms = a ? (a.end ?? performance.now()) - a.t0 : 0;
  $("timer").textContent = fmtMs(ms);
  $("count").textContent = fmtInt(S.count);
  $("tps").textContent = a ? tps(a.moves.length, ms) : "—";
  $("undo").disabled = !a || a.end !== undefined || !a.moves.length;
  $("redo").disabled = !a || a.end !== undefined || !S.redo.length;
  $("replay").disabled = !S.last;
}

/** The session's line: best, ao5, ao12 for the size shown. */
export function showSession() {
  const st = current().stats();
  const f = (ms) => (ms === null ? "—" : fmtMs(ms));
  $("session").textContent = st.count
    ? `${S.w}x${S.h}: best ${f(st.best)} · ao5 ${f(st.ao5)} · ao12 ${f(st.ao12)} · ${fmtInt(st.count)} solve${st.count === 1 ? "" : "s"}`
    : `${S.w}x${S.h}: no solves kept yet`;
}

/** A new board: no attempt under way, the clock at zero. */
export function resetClock() {
  stopReplay();
  clearInterval(S.tick);
  S.attempt = null;
  S.redo = [];
  S.count = 0;
  showClock();
  showSession();
}

/** Notes `k` single moves in direction `d` made by hand (the board already moved): the
 * clock starts with the first; a move after the goal starts a new attempt. */
export function handMoves(before, d, k) {
  stopReplay();
  if (S.attempt && S.attempt.end !== undefined) S.attempt = null;
  if (!S.attempt) {
    S.attempt = { start: before, w: S.w, h: S.h, t0: performance.now(), moves: [], undone: false };
    S.redo = [];
    clearInterval(S.tick);
    S.tick = setInterval(showClock, 47);
  }
  const t = performance.now() - S.attempt.t0;
  for (let i = 0; i < k; i++) S.attempt.moves.push({ d, t });
  S.redo = [];
  S.count = S.attempt.moves.length;
  showClock();
  if (isSolved(S.cells, S.w, S.h)) finish();
}

/** Takes the last move back (the attempt is then not kept in the averages). */
export function undo() {
  const a = S.attempt;
  if (!a || a.end !== undefined || !a.moves.length) return;
  const m = a.moves.pop();
  moveDir(S.cells, S.w, S.h, INV[m.d]);
  S.redo.push(m.d);
  a.undone = true;
  S.count = a.moves.length;
  render();
  showClock();
}

/** Makes the last move taken back again. */
export function redo() {
  const a = S.attempt;
  if (!a || a.end !== undefined || !S.redo.length) return;
  const d = S.redo.pop();
  moveDir(S.cells, S.w, S.h, d);
  a.moves.push({ d, t: performance.now() - a.t0 });
  S.count = a.moves.length;
  render();
  showClock();
  if (isSolved(S.cells, S.w, S.h)) finish();
}

/** The goal reached by hand: the time kept, the length set beside the optimum. */
function finish() {
  const a = S.attempt;
  a.end = performance.now();
  clearInterval(S.tick);
  S.done = true;
  const ms = a.end - a.t0, n = a.moves.length;
  showClock();
  S.last = a;
  if (!a.undone) current().add(ms, n);
  showSession();
  showClock();
  const said = `Solved in ${fmtInt(n)} move${n === 1 ? "" : "s"} and ${fmtMs(ms)} s (${tps(n, ms)} moves/s)!`;
  const line = a.undone ? `${said} (With undo: not kept in the averages.)` : said;
  status(line, "good");
  optimum(a, line);
}

/** Asks the server how short the attempt's board can be solved: "you 31, optimal 21". */
async function optimum(a, said) {
  if (a.moves.length === 0) return;
  try {
    const r = await api("/api/solve", { board: text(a.start, a.w), time_limit: 3 });
    if (S.last !== a) return;
    const best = r.optimal ? `optimal ${fmtInt(r.length)}` : `npuzzle's best ${fmtInt(r.length)} (at least ${fmtInt(r.lower_bound)})`;
    status(`${said} You ${fmtInt(a.moves.length)}, ${best}.`, "good");
    $("status").dataset.optimal = r.optimal ? r.length : "";
  } catch (e) { /* the time stands without the comparison */ }
}

/** Plays the last hand solve back on its board at its own pace. */
export function replay(setBoard) {
  const a = S.last;
  if (!a) return;
  setBoard(a.w, a.h, a.start, "Replaying your solve.");
  S.last = a;
  S.replaying = [];
  // The start board shown for a moment first, then the moves at their own pace.
  const lead = 700, t0 = performance.now() + lead;
  a.moves.forEach((m, i) => {
    S.replaying.push(setTimeout(() => {
      moveDir(S.cells, S.w, S.h, m.d);
      S.count = i + 1;
      $("count").textContent = fmtInt(S.count);
      $("timer").textContent = fmtMs(performance.now() - t0);
      render();
      if (i === a.moves.length - 1) {
        S.replaying = null;
        status(`Replayed: ${fmtInt(a.moves.length)} moves in ${fmtMs(a.end - a.t0)} s.`, "good");
      }
    }, lead + m.t));
  });
  showClock();
}

/** Stops a replay under way. */
export function stopReplay() {
  if (S.replaying) { S.replaying.forEach(clearTimeout); S.replaying = null; }
}
