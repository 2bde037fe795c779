// What every part of the page shares: the board shown, the answer bound to it, the
// search under way, and the few helpers that touch them all.

import { isFor } from "./answer.js";
import { stream } from "./net.js";

/** The element of id `id`. */
export const $ = (id) => document.getElementById(id);

/** The page's state. */
export const S = {
  w: 3, h: 3, cells: [],
  // Whether the board shown can reach the goal (the library's word, from the server).
  solvable: true,
  // The hand solve (timer.js): its moves and clock (attempt), the moves taken back (redo),
  // the last one finished (last, for the replay), a replay under way.
  count: 0, tick: null, done: false, attempt: null, redo: [], last: null, replaying: null,
  // The solution bound to its board (answer.js's Playback), and its timer.
  play: null, timer: null,
  // A search under way: whether, and its request (aborted when the board changes, which
  // makes the server cancel the search).
  busy: false, ctrl: null,
  // The seed that drew the board shown, while it is shown unmoved (for the link).
  seed: null,
  // The board the comparison shown was asked for (answer.js's question).
  compared: null,
  // Told after the board shown is drawn anew (what is kept only for one board checks).
  onBoard: [],
};

/** Says `msg` under the board (`cls`: "bad", "good" or none). */
export function status(msg, cls) {
  const s = $("status");
  s.textContent = msg;
  s.className = cls || "";
}

/** Sets one of the info lines (solve's, compare's). */
export function info(id, msg, cls) {
  const s = $(id);
  s.textContent = msg;
  s.className = cls || "";
}

/** Marks a search under way (or over): Solve and Compare wait, Cancel is live, the
 * playback's steps wait too (an answer is on its way for the board shown). Focus goes
 * where the person's next action is: Cancel while searching, then back. */
export function busy(b) {
  const had = document.activeElement;
  S.busy = b;
  ["solve", "compare", "watch"].forEach((id) => { $(id).disabled = b; });
  $("cancel").disabled = !b;
  stepsEnabled();
  if (b && (had === $("solve") || had === $("compare") || had === $("watch"))) { S.focusBack = had.id; $("cancel").focus(); }
  if (!b && (had === $("cancel") || had === document.body || had === null)) {
    $(S.focusBack || "solve").focus();
    S.focusBack = null;
  }
}

/** Asks the server a streamed question about the board `q` (answer.js's question): a
 * search under way (Cancel live, the steps waiting), saying `saying` in the line `id`,
 * whose events other than `result` and `error` go to `on(name, data)` while it is the
 * page's. Gives the `result` event's data once it ends for the board still shown, else
 * null: an error said in the line `id`, or an answer for another board dropped (its
 * request was aborted, so the server cancelled its search). */
export async function ask(q, path, body, id, saying, on = () => {}) {
  const ctrl = new AbortController();
  S.ctrl = ctrl;
  busy(true);
  info(id, saying);
  let result = null, failed = null;
  try {
    await stream(path, body, ctrl.signal, (ev, d) => {
      if (S.ctrl !== ctrl) return;
      if (ev === "result") result = d;
      else if (ev === "error") failed = d.error;
      else on(ev, d);
    });
  } catch (e) {
    if (S.ctrl !== ctrl || e.name === "AbortError") return null;
    failed = e.message;
  }
  if (S.ctrl !== ctrl || !isFor(q, S.cells, S.w, S.h)) return null;
  S.ctrl = null;
  busy(false);
  if (failed || !result) {
    info(id, failed || "the server ended the answer early", "bad");
    return null;
  }
  return result;
}

/** The playback's buttons: live only with a solution for the board shown and no search
 * under way. */
export function stepsEnabled() {
  const live = !!S.play && S.play.moves.length > 0 && !S.busy;
  ["first", "back", "play", "fwd", "last"].forEach((id) => { $(id).disabled = !live; });
}
