// Every search on the board shown, side by side: a chart and a table that grow as each
// search ends. The comparison is for the board asked about: it goes when the board shown
// changes.

import { $, S, ask, info } from "./state.js";
import { fmtInt, fmtTime } from "./board.js";
import { question } from "./answer.js";
import { stop } from "./solve.js";
import { clearCompare } from "./view.js";

const NODES = "#2b6cb0", TIME = "#b45309";

/** Runs every search on the board shown, each stopped after the server's limit. */
export async function compare() {
  if (S.busy) return;
  stop();
  const q = question(S.cells, S.w, S.h);
  clearCompare();
  S.compared = q;
  // Each search's row as it ends; the chart and table grow with them.
  const rows = [];
  const r = await ask(q, "/api/compare/stream", { board: q.board }, "cmpinfo", "Running every search (each stops after 2 s)…", (ev, d) => {
    if (ev !== "run") return;
    rows.push(d);
    info("cmpinfo", `Running every search (each stops after 2 s): ${rows.length} done…`);
    drawChart(rows);
    drawTable(rows);
  });
  if (!r) return;
  if (!r.solvable) { info("cmpinfo", "This board cannot reach the goal: nothing to compare."); return; }
  const known = r.length === null ? "unknown (no search finished)" : fmtInt(r.length);
  info("cmpinfo", `Optimal length ${known}: bars show nodes expanded and time, log scale.`);
  drawChart(r.runs);
  drawTable(r.runs);
}

function name(run) { return run.heuristic ? `${run.algorithm} (${run.heuristic})` : run.algorithm; }

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));

/** The searches that finished, as bars: nodes expanded and time, log scale; each search's
 * name on a line of its own above its bars, so that none is cut on a phone. */
function drawChart(runs) {
  const ok = runs.filter((r) => r.length !== null);
  const svg = $("chart");
  if (!ok.length) { svg.innerHTML = ""; svg.removeAttribute("viewBox"); return; }
  const W = Math.max(300, Math.min(560, svg.clientWidth || 560)), rowH = 50, top = 24, H = top + ok.length * rowH + 4;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const maxN = Math.max(10, ...ok.map((r) => r.expanded)), maxT = Math.max(1e-5, ...ok.map((r) => r.seconds)), minT = 1e-6;
  const span = W - 90;
  const xN = (v) => span * Math.log10(Math.max(1, v)) / Math.log10(maxN);
  const xT = (v) => span * Math.max(0, Math.log10(Math.max(minT, v) / minT)) / Math.log10(maxT / minT);
  let out = `<text x="0" y="14" font-size="12" fill="${NODES}">■ nodes expanded</text><text x="150" y="14" font-size="12" fill="${TIME}">■ time</text>`;
  ok.forEach((r, i) => {
    const y = top + i * rowH;
    out += `<text x="0" y="${y + 12}" font-size="13">${esc(name(r))}</text>`;
    out += `<rect x="0" y="${y + 17}" height="12" width="${Math.max(1, xN(r.expanded))}" fill="${NODES}"><title>${r.expanded} nodes</title></rect>`;
    out += `<text x="${xN(r.expanded) + 4}" y="${y + 27}" font-size="11">${fmtInt(r.expanded)}</text>`;
    out += `<rect x="0" y="${y + 31}" height="12" width="${Math.max(1, xT(r.seconds))}" fill="${TIME}"><title>${r.seconds} s</title></rect>`;
    out += `<text x="${xT(r.seconds) + 4}" y="${y + 41}" font-size="11">${fmtTime(r.seconds)}</text>`;
  });
  svg.innerHTML = out;
}

/** Every search's row; a search that did not finish says why, and a reason several share
 * is said once under the table. */
function drawTable(runs) {
  const reasons = new Map();
  for (const r of runs) if (r.length === null) reasons.set(r.error, (reasons.get(r.error) || 0) + 1);
  const shared = [...reasons].filter(([, n]) => n > 1).map(([e]) => e);
  let h = '<table><thead><tr><th scope="col">search</th><th scope="col">length</th><th scope="col">expanded</th><th scope="col">stored at most</th><th scope="col">time</th></tr></thead><tbody>';
  for (const r of runs) {
    if (r.length === null) {
      const k = shared.indexOf(r.error);
      const why = k >= 0 ? `did not finish (note ${k + 1})` : `did not finish: ${esc(r.error.split(";")[0])}`;
      h += `<tr><td>${esc(name(r))}</td><td colspan="4" title="${esc(r.error)}">${why}</td></tr>`;
    } else {
      h += `<tr><td>${esc(name(r))}</td><td class="num">${fmtInt(r.length)}</td><td class="num">${fmtInt(r.expanded)}</td><td class="num">${fmtInt(r.peak_stored)}</td><td class="num">${fmtTime(r.seconds)}</td></tr>`;
    }
  }
  h += "</tbody></table>";
  if (shared.length) h += `<ol class="notes">${shared.map((e) => `<li>${esc(e)}</li>`).join("")}</ol>`;
  $("cmptable").innerHTML = h;
}
