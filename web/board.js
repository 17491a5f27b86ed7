// Canvas board: drawing and pointer -> cell mapping. No game logic here.
//
// Cells are engine coordinates (x, y): x = column from the left, y = row from the TOP.
// Labels follow the usual notation: columns a.. left to right, rows 1.. from the bottom.
// Any board size 15..20 (setSize).

import { COLUMNS } from "./coords.js";

// A small deterministic PRNG so the wood grain looks the same on every redraw.
function mulberry32(seed) {
  return function () {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STONE = 0.46; // stone radius / line spacing
const labelFont = (step) => Math.max(9, Math.min(15, step * 0.38));

function starPoints(size) {
  if (size < 13) return [];
  const a = 3, b = size - 4, c = (size - 1) / 2;
  const pts = [[a, a], [a, b], [b, a], [b, b]];
  if (Number.isInteger(c)) pts.push([c, c]);
  return pts;
}

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

  drawWood(ctx, s) {
    if (!this.grain) {
      const off = document.createElement("canvas");
      off.width = this.canvas.width;
      off.height = this.canvas.height;
      const g = off.getContext("2d");
      g.scale(this.dpr, this.dpr);
      const base = g.createLinearGradient(0, 0, s, s);
      base.addColorStop(0, "#e9c27d");
      base.addColorStop(0.5, "#deb26a");
      base.addColorStop(1, "#d3a45c");
      g.fillStyle = base;
      g.fillRect(0, 0, s, s);
      const rnd = mulberry32(20240611);
      g.lineCap = "round";
      for (let i = 0; i < 70; i++) {
        const y0 = rnd() * s;
        const amp = 2 + rnd() * 7;
        const freq = 0.004 + rnd() * 0.01;
        const phase = rnd() * Math.PI * 2;
        g.strokeStyle = `rgba(${120 + rnd() * 40 | 0}, ${70 + rnd() * 30 | 0}, 25, ${0.05 + rnd() * 0.09})`;
        g.lineWidth = 0.6 + rnd() * 2.2;
        g.beginPath();
        for (let x = -10; x <= s + 10; x += 8) {
          const y = y0 + Math.sin(x * freq + phase) * amp + Math.sin(x * freq * 3.1 + phase) * amp * 0.25;
          if (x === -10) g.moveTo(x, y); else g.lineTo(x, y);
        }
        g.stroke();
      }
      const vignette = g.createRadialGradient(s / 2, s / 2, s * 0.3, s / 2, s / 2, s * 0.75);
      vignette.addColorStop(0, "rgba(255,240,200,0.10)");
      vignette.addColorStop(1, "rgba(90,50,10,0.18)");
      g.fillStyle = vignette;
      g.fillRect(0, 0, s, s);
      this.grain = off;
    }
    ctx.drawImage(this.grain, 0, 0, s, s);
  }

  drawStone(ctx, cx, cy, r, color, alpha = 1) {
    ctx.save();
    ctx.globalAlpha = alpha;
    if (alpha === 1) {
      ctx.shadowColor = "rgba(40, 20, 0, 0.45)";
      ctx.shadowBlur = r * 0.35;
      ctx.shadowOffsetX = r * 0.12;
      ctx.shadowOffsetY = r * 0.16;
    }
    const grad = ctx.createRadialGradient(cx - r * 0.35, cy - r * 0.4, r * 0.1, cx, cy, r);
    if (color === 1) {
      grad.addColorStop(0, "#6b6b6b");
      grad.addColorStop(0.35, "#2a2a2a");
      grad.addColorStop(1, "#050505");
    } else {
      grad.addColorStop(0, "#ffffff");
      grad.addColorStop(0.6, "#f1efe9");
      grad.addColorStop(1, "#c9c5bb");
    }
    ctx.fillStyle = grad;
    ctx.beginPath();
    ctx.arc(cx, cy, r, 0, Math.PI * 2);
    ctx.fill();
    ctx.restore();
  }

  draw() {
    const ctx = this.ctx;
    if (!this.cssSize) return;
    const { s, margin, step, r, font } = this.layout();
    const n = this.size;
    // for tools and tests: where the intersections are (the board drawn s CSS pixels wide)
    this.canvas.dataset.grid = [margin, step, s].map((v) => v.toFixed(2)).join(" ");
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.clearRect(0, 0, s, s);
    this.drawWood(ctx, s);

    const end = margin + (n - 1) * step;
    // grid
    ctx.strokeStyle = "rgba(45, 28, 8, 0.85)";
    ctx.lineWidth = Math.max(1, step * 0.035);
    ctx.beginPath();
    for (let i = 0; i < n; i++) {
      const p = Math.round(margin + i * step) + 0.5;
      ctx.moveTo(margin, p); ctx.lineTo(end, p);
      ctx.moveTo(p, margin); ctx.lineTo(p, end);
    }
    ctx.stroke();
    ctx.lineWidth = Math.max(1.5, step * 0.07);
    ctx.strokeRect(margin, margin, end - margin, end - margin);
    ctx.fillStyle = "rgba(45, 28, 8, 0.9)";
    for (const [x, y] of starPoints(n)) {
      ctx.beginPath();
      ctx.arc(margin + x * step, margin + y * step, Math.max(2, step * 0.1), 0, Math.PI * 2);
      ctx.fill();
    }

    // coordinate labels
    ctx.font = `600 ${font}px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;
    ctx.fillStyle = "rgba(60, 36, 10, 0.85)";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    const lab = (margin - r) / 2; // midway between the edge and the outer stones
    for (let i = 0; i < n && this.showCoords; i++) {
      const p = margin + i * step;
      ctx.fillText(COLUMNS[i], p, lab);
      ctx.fillText(COLUMNS[i], p, s - lab);
      ctx.fillText(String(n - i), lab, p);
      ctx.fillText(String(n - i), s - lab, p);
    }

    // winning line glow under the stones
    if (this.winningLine.length >= 2) {
      const [a, b] = [this.winningLine[0], this.winningLine[this.winningLine.length - 1]];
      ctx.save();
      ctx.strokeStyle = "rgba(220, 40, 40, 0.55)";
      ctx.lineWidth = step * 0.95;
      ctx.lineCap = "round";
      ctx.beginPath();
      ctx.moveTo(margin + a[0] * step, margin + a[1] * step);
      ctx.lineTo(margin + b[0] * step, margin + b[1] * step);
      ctx.stroke();
      ctx.restore();
    }

    for (const [key, color] of this.stones) {
      const [x, y] = key.split(",").map(Number);
      this.drawStone(ctx, margin + x * step, margin + y * step, r, color);
    }

    if (this.showNumbers) {
      ctx.save();
      ctx.font = `700 ${Math.max(8, r * 0.85)}px system-ui, sans-serif`;
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      for (const [key, num] of this.moveNumbers) {
        const [x, y] = key.split(",").map(Number);
        const last = this.lastMove && key === this.lastMove[0] + "," + this.lastMove[1];
        ctx.fillStyle = last ? (this.stones.get(key) === 1 ? "#ff7b70" : "#c62828")
          : (this.stones.get(key) === 1 ? "#f4f4f4" : "#111");
        ctx.fillText(String(num), margin + x * step, margin + y * step + 0.5);
      }
      ctx.restore();
    }

    // black's forbidden points: a small red cross on a pale disc, under any overlay
    if (this.forbidden.length) {
      const h = step * 0.2;
      ctx.save();
      ctx.lineCap = "round";
      for (const [x, y] of this.forbidden) {
        if (this.stones.has(x + "," + y)) continue;
        const cx = margin + x * step, cy = margin + y * step;
        ctx.fillStyle = "rgba(255, 244, 228, 0.75)";
        ctx.beginPath();
        ctx.arc(cx, cy, h * 1.45, 0, Math.PI * 2);
        ctx.fill();
        ctx.strokeStyle = "#c0162c";
        ctx.lineWidth = Math.max(2, step * 0.075);
        ctx.beginPath();
        ctx.moveTo(cx - h, cy - h); ctx.lineTo(cx + h, cy + h);
        ctx.moveTo(cx + h, cy - h); ctx.lineTo(cx - h, cy + h);
        ctx.stroke();
      }
      ctx.restore();
    }

    // analysis: the engine's best moves, each a disc with its score (the best one filled
    // green); the one whose line is shown has a blue ring. A disc stays within its own
    // intersection's square, so it never covers a neighbouring cross.
    for (const { x, y, label, best, active } of this.marks) {
      if (this.stones.has(x + "," + y)) continue;
      const cx = margin + x * step, cy = margin + y * step, rr = r * 0.94;
      ctx.save();
      ctx.beginPath();
      ctx.arc(cx, cy, rr, 0, Math.PI * 2);
      ctx.fillStyle = best ? "rgba(12, 110, 78, 0.95)" : "rgba(234, 243, 252, 0.93)";
      ctx.fill();
      ctx.lineWidth = Math.max(active ? 2.5 : 1.2, step * (active ? 0.1 : 0.04));
      ctx.strokeStyle = active ? "#1f6feb" : best ? "#06402c" : "rgba(30, 60, 95, 0.8)";
      ctx.stroke();
      let size = Math.max(7, r * 0.72);
      ctx.font = `700 ${size}px system-ui, sans-serif`;
      const width = ctx.measureText(label).width;
      if (width > rr * 1.75) {
        size = Math.max(6, size * (rr * 1.75) / width);
        ctx.font = `700 ${size}px system-ui, sans-serif`;
      }
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillStyle = best ? "#fff" : "#13263b";
      ctx.fillText(label, cx, cy + 0.5);
      ctx.restore();
    }

    for (const { x, y, color, label } of this.overlay) {
      if (this.stones.has(x + "," + y)) continue;
      const cx = margin + x * step, cy = margin + y * step;
      this.drawStone(ctx, cx, cy, r * 0.82, color, 0.55);
      ctx.save();
      ctx.font = `700 ${Math.max(8, r * 0.8)}px system-ui, sans-serif`;
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillStyle = color === 1 ? "#fff" : "#000";
      ctx.fillText(String(label), cx, cy + 0.5);
      ctx.restore();
    }

    if (this.hint && !this.stones.has(this.hint[0] + "," + this.hint[1])) {
      const cx = margin + this.hint[0] * step, cy = margin + this.hint[1] * step;
      this.drawStone(ctx, cx, cy, r, this.hintColor, 0.4);
      ctx.save();
      ctx.strokeStyle = "#0b6e4f";
      ctx.lineWidth = Math.max(2, step * 0.1);
      ctx.setLineDash([step * 0.18, step * 0.12]);
      ctx.beginPath();
      ctx.arc(cx, cy, r * 1.02, 0, Math.PI * 2);
      ctx.stroke();
      ctx.restore();
    }

    if (this.hover && !this.stones.has(this.hover[0] + "," + this.hover[1])) {
      const [x, y] = this.hover;
      this.drawStone(ctx, margin + x * step, margin + y * step, r, this.hoverColor, 0.45);
    }

    if (this.winningLine.length) {
      ctx.save();
      ctx.strokeStyle = "#d62828";
      ctx.lineWidth = Math.max(2, step * 0.09);
      for (const [x, y] of this.winningLine) {
        ctx.beginPath();
        ctx.arc(margin + x * step, margin + y * step, r * 0.98, 0, Math.PI * 2);
        ctx.stroke();
      }
      ctx.restore();
    }

    if (this.lastMove && !this.showNumbers) {
      const [x, y] = this.lastMove;
      const color = this.stones.get(x + "," + y);
      ctx.save();
      ctx.fillStyle = color === 1 ? "#ff5a4e" : "#d62828";
      ctx.beginPath();
      ctx.arc(margin + x * step, margin + y * step, Math.max(2.5, r * 0.24), 0, Math.PI * 2);
      ctx.fill();
      ctx.restore();
    }

    if (this.showCursor && this.cursor) {
      const [x, y] = this.cursor;
      const cx = margin + x * step, cy = margin + y * step, h = step * 0.5;
      ctx.save();
      ctx.strokeStyle = "#1f6feb";
      ctx.lineWidth = Math.max(2, step * 0.08);
      ctx.strokeRect(cx - h, cy - h, 2 * h, 2 * h);
      ctx.restore();
    }
  }
}
