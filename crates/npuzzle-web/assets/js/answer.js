// Answers bound to the board they were asked for. A question is taken when Solve or
// Compare is pressed (the board by value); its answer is kept only while the board shown
// is that board, or a board on the solution's way that its playback put there. Pure:
// tested without a browser (tests/page/answer.test.js).

import { moveDir, INV, text } from "./board.js";

/** The board a search is asked for, by value. */
export function question(cells, w, h) {
  return { w, h, cells: cells.slice(), board: text(cells, w) };
}

/** Whether the board shown (`cells`, `w` x `h`) is the one `q` asked about. */
export function isFor(q, cells, w, h) {
  return !!q && q.w === w && q.h === h && text(cells, w) === q.board;
}

/** A solution bound to its board: where its playback stands, and the board there. */
export class Playback {
  constructor(q, moves, report) {
    this.q = q;
    this.moves = moves;
    this.report = report;
    this.pos = 0;
    this.cells = q.cells.slice();
  }

  /** Whether the board shown is the one this playback stands on (else the solution is
   * not for it: the board was moved by hand, or another board opened). */
  shows(cells, w, h) {
    return w === this.q.w && h === this.q.h && text(cells, w) === text(this.cells, w);
  }

  /** One move on; false at the end. */
  forward() {
    if (this.pos >= this.moves.length) return false;
    moveDir(this.cells, this.q.w, this.q.h, this.moves[this.pos]);
    this.pos++;
    return true;
  }

  /** One move back; false at the start. */
  back() {
    if (this.pos <= 0) return false;
    this.pos--;
    moveDir(this.cells, this.q.w, this.q.h, INV[this.moves[this.pos]]);
    return true;
  }

  /** Back to the board it was asked for. */
  rewind() {
    this.cells = this.q.cells.slice();
    this.pos = 0;
  }

  /** Whether every move has been played. */
  get atEnd() { return this.pos >= this.moves.length; }
}
