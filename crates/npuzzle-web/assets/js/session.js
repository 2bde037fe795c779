// A speedsolver's session: solve times kept per size in the browser, and the averages
// people quote (best, ao5, ao12). Pure but for the storage it is given: tested without a
// browser (tests/page/session.test.js).

/** The average of the last `n` times (ms), without the best and the worst (as
 * speedsolvers count ao5 and ao12); null with fewer than `n`. */
export function average(times, n) {
  if (times.length < n) return null;
  const last = times.slice(-n).sort((a, b) => a - b);
  const kept = last.slice(1, -1);
  return kept.reduce((s, t) => s + t, 0) / kept.length;
}

/** Milliseconds as seconds with three decimals (12.345). */
export function fmtMs(ms) { return (ms / 1000).toFixed(3); }

/** Moves a second, two decimals ("—" before a move has taken time). */
export function tps(moves, ms) { return ms > 0 ? (moves * 1000 / ms).toFixed(2) : "—"; }

/** The solves of one size in `store` (localStorage, or any object with getItem and
 * setItem): each {ms, moves}. */
export class Session {
  constructor(store, size) {
    this.store = store;
    this.key = `npuzzle.solves.${size}`;
    let kept = [];
    try { kept = JSON.parse(store.getItem(this.key) || "[]"); } catch (e) { kept = []; }
    this.solves = Array.isArray(kept) ? kept.filter((s) => s && Number.isFinite(s.ms) && Number.isFinite(s.moves)) : [];
  }

  /** Keeps one solve (the last thousand are kept). */
  add(ms, moves) {
    this.solves.push({ ms, moves });
    if (this.solves.length > 1000) this.solves.splice(0, this.solves.length - 1000);
    try { this.store.setItem(this.key, JSON.stringify(this.solves)); } catch (e) { /* storage full or off: the session still counts */ }
  }

  /** Forgets this size's solves. */
  clear() {
    this.solves = [];
    try { this.store.removeItem(this.key); } catch (e) { /* nothing kept */ }
  }

  /** The best time, ao5 and ao12 (null where there are too few solves). */
  stats() {
    const times = this.solves.map((s) => s.ms);
    return { count: times.length, best: times.length ? Math.min(...times) : null, ao5: average(times, 5), ao12: average(times, 12) };
  }
}
