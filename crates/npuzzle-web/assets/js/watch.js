// Watching a search on the board shown (3x3 and small oblong boards): the library's steps
// streamed by the server, played back at the speed chosen; the page only draws them.

import { $, S, ask, info } from "./state.js";
import { fmtInt, fmtTime } from "./board.js";
import { isFor, question } from "./answer.js";
import { stop } from "./solve.js";
import { at, caption } from "./watching.js";

const BLUE = "#2b6cb0", ORANGE = "#b45309";
const W = { q: null, events: [], i: -1, timer: null, algorithm: "", result: null };

/** Forgets what was watched (its board is not shown any more). */
export function clearWatch() {
  pause();
  Object.assign(W, { q: null, events: [], i: -1, algorithm: "", result: null });
  $("wview").innerHTML = "";
  $("wview").removeAttribute("viewBox");
  $("wcaption").textContent = "";
  $("wresult").textContent = "";
  info("winfo", "");
  controls();
}

/** Keeps the watch only while its board is shown. */
export function keepWatch() {
  if (W.q && !isFor(W.q, S.cells, S.w, S.h)) clearWatch();
}

function controls() {
  const live = W.events.length > 0 && !S.busy;
  ["wfirst", "wback", "wplay", "wfwd", "wlast"].forEach((id) => { $(id).disabled = !live; });
  $("wplay").textContent = W.timer ? "Pause" : "Play";
  $("wheur").disabled = !($("walgo").value === "astar" || $("walgo").value === "idastar");
}

function pause() { clearTimeout(W.timer); W.timer = null; }

/** The slider's 0..100 as 1 to 200 steps a second. */
function pace() { return Math.round(Math.pow(200, Number($("wspeed").value) / 100)); }

/** Asks the server to run the search chosen on the board shown, step by step. */
export async function watch() {
  if (S.busy) return;
  stop();
  clearWatch();
  if (S.w * S.h > 12) {
    info("winfo", `Watching shows every step, on boards of at most 12 cells (3x3, 3x4, 2x6): this one has ${S.w * S.h}.`, "bad");
    return;
  }
  const q = question(S.cells, S.w, S.h);
  const req = { board: q.board, algorithm: $("walgo").value };
  if (!$("wheur").disabled) req.heuristic = $("wheur").value;
  const events = [];
  const result = await ask(q, "/api/watch/stream", req, "winfo", "Running the search…", (ev, d) => {
    events.push({ type: ev, ...d });
  });
  if (!result) return;
  Object.assign(W, { q, events, i: -1, algorithm: req.algorithm, result });
  const h = result.heuristic ? ` (${result.heuristic})` : "";
  const sampled = req.algorithm === "astar" && result.expanded > events.length
    ? " (every expansion to 1,500, then one in 64)" : "";
  info("winfo", `${req.algorithm}${h}: ${fmtInt(events.length)} steps to watch${sampled}.`);
  $("wresult").textContent = `${fmtInt(result.length)} moves; ${fmtInt(result.expanded)} nodes expanded, ${fmtInt(result.generated)} generated, ${fmtInt(result.peak_stored)} stored at most, ${fmtTime(result.seconds)}: the counts Compare gives this search.`;
  controls();
  go(0);
  play();
}

/** Shows step `i`. */
function go(i) {
  if (!W.events.length) return;
  W.i = Math.max(0, Math.min(W.events.length - 1, i));
  const v = at(W.events, W.i);
  $("wcaption").textContent = `Step ${fmtInt(W.i + 1)} of ${fmtInt(W.events.length)}. ${caption(v, W.algorithm)}`;
  draw(v);
  controls();
}

export function play() {
  if (!W.events.length || S.busy) return;
  if (W.timer) { pause(); controls(); return; }
  if (W.i >= W.events.length - 1) go(0);
  const run = () => {
    if (W.i >= W.events.length - 1) { pause(); controls(); return; }
    go(W.i + 1);
    W.timer = setTimeout(run, 1000 / pace());
  };
  W.timer = setTimeout(run, 1000 / pace());
  controls();
}

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));

/** Bars, one a row: [label, value, colour]; log scale where values span far. */
function bars(rows, width, top = 0) {
  const max = Math.max(1, ...rows.map((r) => r[1]));
  const span = width - 150;
  let out = "";
  rows.forEach(([label, value, colour], k) => {
    const y = top + k * 21;
    const len = Math.max(1, span * Math.log10(1 + value) / Math.log10(1 + max));
    out += `<text x="0" y="${y + 14}" font-size="13">${esc(label)}</text>`;
    out += `<rect x="80" y="${y + 3}" height="14" width="${len}" fill="${colour}"></rect>`;
    out += `<text x="${84 + len}" y="${y + 14}" font-size="13">${fmtInt(value)}</text>`;
  });
  return { svg: out, height: top + rows.length * 21 };
}

function draw(v) {
  const svg = $("wview"), width = Math.max(280, Math.min(520, svg.clientWidth || 520));
  let out = "", height = 20;
  if (W.algorithm === "bfs" || W.algorithm === "bibfs") {
    // The start's layers down from the top; the goal's (bidirectional) up from the bottom:
    // the two frontiers meet in the middle.
    const rows = v.layers[0].map((e) => [`start +${e.depth}`, e.states, BLUE]);
    const back = v.layers[1].map((e) => [`goal +${e.depth}`, e.states, ORANGE]).reverse();
    const b = bars(rows.concat(back), width, 20);
    out = (W.algorithm === "bibfs"
      ? `<text x="0" y="14" font-size="13" fill="${BLUE}">■ layers from the start</text><text x="180" y="14" font-size="13" fill="${ORANGE}">■ from the goal</text>`
      : `<text x="0" y="14" font-size="13" fill="${BLUE}">■ boards in each layer from the start</text>`) + b.svg;
    height = b.height;
  } else if (W.algorithm === "astar" && v.expand) {
    const e = v.expand, cells = e.board.split("/").map((r) => r.split(" "));
    const cw = 30;
    cells.forEach((row, r) => row.forEach((t, c) => {
      out += `<rect x="${c * cw}" y="${r * cw}" width="${cw - 2}" height="${cw - 2}" rx="4" fill="${t === "0" ? "#2d3748" : "#bee3f8"}"></rect>`;
      if (t !== "0") out += `<text x="${c * cw + cw / 2 - 1}" y="${r * cw + cw / 2 + 4}" font-size="13" text-anchor="middle">${t}</text>`;
    }));
    const x0 = cells[0].length * cw + 12;
    out += `<text x="${x0}" y="14" font-size="13">g = ${e.g}</text><text x="${x0}" y="32" font-size="13">h = ${e.h}</text><text x="${x0}" y="50" font-size="13" font-weight="700">f = ${e.f}</text>`;
    const top = Math.max(cells.length * cw, 56) + 10;
    out += `<text x="0" y="${top + 14}" font-size="13" fill="${BLUE}">■ waiting in the open list, by f = g + h</text>`;
    const b = bars(e.open.map(([f, c]) => [`f = ${f}`, c, BLUE]), width, top + 20);
    out += b.svg;
    height = b.height;
  } else if (W.algorithm === "idastar" || W.algorithm === "iddfs") {
    out = `<text x="0" y="14" font-size="13" fill="${BLUE}">■ nodes expanded in each pass, by its threshold</text>`;
    const b = bars(v.passes.map((p) => [`≤ ${p.threshold}`, p.expanded, p === v.last ? ORANGE : BLUE]), width, 20);
    out += b.svg;
    height = b.height;
  }
  svg.setAttribute("viewBox", `0 0 ${width} ${Math.max(20, height + 4)}`);
  svg.innerHTML = out;
}

S.onBoard.push(keepWatch);
$("watch").addEventListener("click", watch);
$("wplay").addEventListener("click", play);
$("wfwd").addEventListener("click", () => { pause(); go(W.i + 1); });
$("wback").addEventListener("click", () => { pause(); go(W.i - 1); });
$("wfirst").addEventListener("click", () => { pause(); go(0); });
$("wlast").addEventListener("click", () => { pause(); go(W.events.length - 1); });
$("walgo").addEventListener("change", controls);
$("wspeed").addEventListener("input", () => {
  $("wspeedval").textContent = `${pace()}/s`;
  $("wspeed").setAttribute("aria-valuetext", `${pace()} steps a second`);
});
controls();
