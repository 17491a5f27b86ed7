// Canvas board: what it shows, its geometry and pointer -> cell mapping; the drawing itself
// is board-layers.js's, one function per layer. No game logic here.
//
// Cells are engine coordinates (x, y): x = column from the left, y = row from the TOP.
// Labels follow the usual notation: columns a.. left to right, rows 1.. from the bottom.
// Any board size 15..20 (setSize).

import { LAYERS, woodImage } from "./board-layers.js";

const STONE = 0.46; // stone radius / line spacing
const labelFont = (step) => Math.max(9, Math.min(15, step * 0.38));

export class BoardView {
  constructor(canvas, size) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.size = size;
    this.stones = new Map(); // "x,y" -> 1 | 2
    this.moveNumbers = new Map();
    this.lastMove = null;
    this.winningLine = [];
    this.cursor = null; // [x, y] or null
    this.showCursor = false;
    this.hover = null;
    this.hoverColor = 1;
    this.grain = null;
    this.cssSize = 0;
    this.showNumbers = false; // move numbers on the stones
    this.showCoords = true; // the a.. / 1.. labels (the margin stays either way)
    this.overlay = []; // [{x, y, color, label}]: a line of future moves, drawn faintly
    this.hint = null; // [x, y]: a suggested point, drawn as a ring
    this.hintColor = 1;
    this.forbidden = []; // [[x, y], ...]: black's forbidden points (renju), small crosses
    this.marks = []; // [{x, y, label, best, active}]: analysis, the engine's best moves and scores
    this.coach = []; // [{x, y, color, kind, label}]: the coach's threats (coach.js coachMarks)
    this.offers = []; // [[x, y], ...]: black's offered 5th moves in an opening (numbered 1..)
  }

  // A board of another size (stones and marks are set again by the caller).
  setSize(size) {
    this.size = size;
    this.setPosition([]);
    this.winningLine = [];
    this.overlay = [];
    this.hint = null;
    this.hover = null;
    this.forbidden = [];
    this.marks = [];
    this.coach = [];
    this.offers = [];
    this.draw();
  }

  // Geometry in CSS pixels: the margin holds the outer stones' halves and, between them
  // and the board's edge, the coordinate labels (up to two digits wide). On small boards
  // with many lines (a phone, 20x20) the margin grows so that the labels keep clear.
  layout() {
    const s = this.cssSize;
    const stepFor = (m) => (s - 2 * m) / (this.size - 1);
    let margin = Math.max(18, Math.round(s * 0.06));
    for (let i = 0; i < 2; i++) {
      const step = stepFor(margin);
      margin = Math.max(margin, Math.ceil(step * STONE + labelFont(step) * 1.3 + 4));
    }
    const step = stepFor(margin);
    return { s, margin, step, r: step * STONE, font: labelFont(step) };
  }

  resize() {
    const rect = this.canvas.getBoundingClientRect();
    const css = Math.max(160, Math.floor(Math.min(rect.width, rect.height || rect.width)));
    const dpr = Math.min(window.devicePixelRatio || 1, 3);
    if (css !== this.cssSize || this.canvas.width !== Math.round(css * dpr)) {
      this.cssSize = css;
      this.canvas.width = Math.round(css * dpr);
      this.canvas.height = Math.round(css * dpr);
      this.dpr = dpr;
      this.grain = null;
    }
    this.draw();
  }

  // first: the colour of the first move (1 black, 2 white; white first is a setup option)
  setPosition(moves, first = 1) {
    this.stones.clear();
    this.moveNumbers.clear();
    moves.forEach(([x, y], i) => {
      this.stones.set(x + "," + y, i % 2 === 0 ? first : 3 - first);
      this.moveNumbers.set(x + "," + y, i + 1);
    });
    this.lastMove = moves.length ? moves[moves.length - 1] : null;
  }

  // Pointer position (client coordinates) -> [x, y] or null when not near an intersection.
  cellAt(clientX, clientY) {
    const rect = this.canvas.getBoundingClientRect();
    const { margin, step } = this.layout();
    const scale = this.cssSize / rect.width;
    const px = (clientX - rect.left) * scale;
    const py = (clientY - rect.top) * scale;
    const x = Math.round((px - margin) / step);
    const y = Math.round((py - margin) / step);
    if (x < 0 || y < 0 || x >= this.size || y >= this.size) return null;
    const dx = px - (margin + x * step), dy = py - (margin + y * step);
    if (dx * dx + dy * dy > (step * 0.62) ** 2) return null;
    return [x, y];
  }

  // The wood, drawn once per canvas size (board-layers.js wood).
  wood() {
    if (!this.grain) this.grain = woodImage(this.canvas.width, this.canvas.height, this.dpr, this.cssSize);
    return this.grain;
  }

  draw() {
    const ctx = this.ctx;
    if (!this.cssSize) return;
    const g = { ...this.layout(), n: this.size };
    // for tools and tests: where the intersections are (the board drawn s CSS pixels wide)
    this.canvas.dataset.grid = [g.margin, g.step, g.s].map((v) => v.toFixed(2)).join(" ");
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.clearRect(0, 0, g.s, g.s);
    for (const layer of LAYERS) {
      ctx.save();
      layer(ctx, g, this);
      ctx.restore();
    }
  }
}
