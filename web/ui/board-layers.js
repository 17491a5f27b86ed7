// The board's drawing, one function per layer, bottom to top (LAYERS). board.js calls
// each in turn on a 2D context scaled to CSS pixels, inside save() / restore(), so a layer
// sets every style it uses and leaves nothing behind.
//
// A layer is layer(ctx, g, b): g the geometry {s (board width), n (lines), margin, step,
// r (stone radius), font (label size)}, intersection (x, y) at margin + x * step,
// margin + y * step; b the board's content (board.js BoardView: stones, moveNumbers,
// lastMove, winningLine, forbidden, coach, marks, overlay, hint, hover, cursor and the display
// switches). No game logic here.

import { COLUMNS } from "../model/coords.js";

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

function starPoints(size) {
  if (size < 13) return [];
  const a = 3, b = size - 4, c = (size - 1) / 2;
  const pts = [[a, a], [a, b], [b, a], [b, b]];
  if (Number.isInteger(c)) pts.push([c, c]);
  return pts;
}

const cellOf = (key) => key.split(",").map(Number);

// The wood (gradient, grain, vignette) on an offscreen canvas of width x height device
// pixels, the board s CSS pixels wide at dpr device pixels each; drawn once per size.
// Sets a disc label's bold font: `size` px, made smaller (not under 6 px) when the label
// would be wider than maxWidth (the analysis' scores and the coach's marks).
function labelFont(ctx, label, size, maxWidth) {
  ctx.font = `700 ${size}px system-ui, sans-serif`;
  const width = ctx.measureText(label).width;
  if (width > maxWidth) ctx.font = `700 ${Math.max(6, size * maxWidth / width)}px system-ui, sans-serif`;
}

export function woodImage(width, height, dpr, s) {
  const off = document.createElement("canvas");
  off.width = width;
  off.height = height;
  const g = off.getContext("2d");
  g.scale(dpr, dpr);
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
  return off;
}

// A stone at (cx, cy) of radius r, colour 1 black or 2 white; alpha < 1: a faint one
// (preview, hint, line), drawn without a shadow.
export function drawStone(ctx, cx, cy, r, color, alpha = 1) {
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

export function wood(ctx, g, b) {
  ctx.drawImage(b.wood(), 0, 0, g.s, g.s);
}

// the lines, the border and the star points
export function grid(ctx, { n, margin, step }) {
  const end = margin + (n - 1) * step;
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
}

// the coordinate labels, midway between the edge and the outer stones, on all four sides
export function labels(ctx, { s, n, margin, step, r, font }, b) {
  if (!b.showCoords) return;
  ctx.font = `600 ${font}px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;
  ctx.fillStyle = "rgba(60, 36, 10, 0.85)";
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  const lab = (margin - r) / 2;
  for (let i = 0; i < n; i++) {
    const p = margin + i * step;
    ctx.fillText(COLUMNS[i], p, lab);
    ctx.fillText(COLUMNS[i], p, s - lab);
    ctx.fillText(String(n - i), lab, p);
    ctx.fillText(String(n - i), s - lab, p);
  }
}

// the winning line's glow, under the stones
export function winGlow(ctx, { margin, step }, b) {
  if (b.winningLine.length < 2) return;
  const [a, z] = [b.winningLine[0], b.winningLine[b.winningLine.length - 1]];
  ctx.strokeStyle = "rgba(220, 40, 40, 0.55)";
  ctx.lineWidth = step * 0.95;
  ctx.lineCap = "round";
  ctx.beginPath();
  ctx.moveTo(margin + a[0] * step, margin + a[1] * step);
  ctx.lineTo(margin + z[0] * step, margin + z[1] * step);
  ctx.stroke();
}

export function stones(ctx, { margin, step, r }, b) {
  for (const [key, color] of b.stones) {
    const [x, y] = cellOf(key);
    drawStone(ctx, margin + x * step, margin + y * step, r, color);
  }
}

// move numbers on the stones (the last move's in red)
export function numbers(ctx, { margin, step, r }, b) {
  if (!b.showNumbers) return;
  ctx.font = `700 ${Math.max(8, r * 0.85)}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  for (const [key, num] of b.moveNumbers) {
    const [x, y] = cellOf(key);
    const last = b.lastMove && key === b.lastMove[0] + "," + b.lastMove[1];
    ctx.fillStyle = last ? (b.stones.get(key) === 1 ? "#ff7b70" : "#c62828")
      : (b.stones.get(key) === 1 ? "#f4f4f4" : "#111");
    ctx.fillText(String(num), margin + x * step, margin + y * step + 0.5);
  }
}

// black's forbidden points (renju): a small red cross on a pale disc, under any overlay
export function forbidden(ctx, { margin, step }, b) {
  const h = step * 0.2;
  ctx.lineCap = "round";
  for (const [x, y] of b.forbidden) {
    if (b.stones.has(x + "," + y)) continue;
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
}

// the coach's colours: a point's ring says how urgent its threat is (five red, open four
// orange, a double threat purple); the disc and its label are the threatening colour's
const COACH_RING = { four: "#d62828", three: "#e07b00", "double-four": "#7b2cbf", "four-three": "#7b2cbf", "double-three": "#7b2cbf" };
const COACH_FILL = { 1: "#161616", 2: "#f7f5ef" };
const COACH_INK = { 1: "#ffffff", 2: "#161616" };

// the coach's marks: a point where a colour makes its threat is a small disc of that
// colour with a label ("5", "4", "43" ...), a cell that blocks one a dashed ring;
// when both colours mark one intersection, black's sits up-left and white's down-right
export function coach(ctx, { margin, step, r }, b) {
  const both = new Set();
  const seen = new Map();
  for (const m of b.coach) {
    const k = m.x + "," + m.y;
    if (seen.has(k) && seen.get(k) !== m.color) both.add(k);
    seen.set(k, m.color);
  }
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  for (const { x, y, color, kind, label, threat } of b.coach) {
    const k = x + "," + y;
    if (b.stones.has(k)) continue;
    const shift = both.has(k) ? (color === 1 ? -1 : 1) * step * 0.2 : 0;
    const cx = margin + x * step + shift, cy = margin + y * step + shift;
    const scale = both.has(k) ? 0.75 : 1;
    if (kind === "block") {
      // a dashed ring in the threat's colour round a small dot of the threatening colour
      const rr = r * 0.5 * scale;
      ctx.setLineDash([step * 0.1, step * 0.07]);
      ctx.lineWidth = Math.max(2, step * 0.07);
      ctx.strokeStyle = COACH_RING[threat] || "#d62828";
      ctx.beginPath();
      ctx.arc(cx, cy, rr, 0, Math.PI * 2);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.beginPath();
      ctx.arc(cx, cy, rr * 0.32, 0, Math.PI * 2);
      ctx.fillStyle = COACH_FILL[color];
      ctx.fill();
      ctx.lineWidth = 1;
      ctx.strokeStyle = color === 1 ? "rgba(255, 255, 255, 0.8)" : "rgba(22, 22, 22, 0.8)";
      ctx.stroke();
      continue;
    }
    const rr = r * 0.62 * scale;
    ctx.beginPath();
    ctx.arc(cx, cy, rr, 0, Math.PI * 2);
    ctx.fillStyle = COACH_FILL[color];
    ctx.fill();
    ctx.lineWidth = Math.max(2, step * 0.08);
    ctx.strokeStyle = COACH_RING[kind] || "#d62828";
    ctx.stroke();
    labelFont(ctx, label, Math.max(7, rr * 1.1), rr * 1.6);
    ctx.fillStyle = COACH_INK[color];
    ctx.fillText(label, cx, cy + 0.5);
  }
}

// analysis: the engine's best moves, each a disc with its score (the best one filled
// green); the one whose line is shown has a blue ring. A disc stays within its own
// intersection's square, so it never covers a neighbouring cross.
export function marks(ctx, { margin, step, r }, b) {
  for (const { x, y, label, best, active } of b.marks) {
    if (b.stones.has(x + "," + y)) continue;
    const cx = margin + x * step, cy = margin + y * step, rr = r * 0.94;
    ctx.save();
    ctx.beginPath();
    ctx.arc(cx, cy, rr, 0, Math.PI * 2);
    ctx.fillStyle = best ? "rgba(12, 110, 78, 0.95)" : "rgba(234, 243, 252, 0.93)";
    ctx.fill();
    ctx.lineWidth = Math.max(active ? 2.5 : 1.2, step * (active ? 0.1 : 0.04));
    ctx.strokeStyle = active ? "#1f6feb" : best ? "#06402c" : "rgba(30, 60, 95, 0.8)";
    ctx.stroke();
    labelFont(ctx, label, Math.max(7, r * 0.72), rr * 1.75);
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillStyle = best ? "#fff" : "#13263b";
    ctx.fillText(label, cx, cy + 0.5);
    ctx.restore();
  }
}

// a line of future moves: faint numbered stones
export function overlay(ctx, { margin, step, r }, b) {
  for (const { x, y, color, label } of b.overlay) {
    if (b.stones.has(x + "," + y)) continue;
    const cx = margin + x * step, cy = margin + y * step;
    drawStone(ctx, cx, cy, r * 0.82, color, 0.55);
    ctx.save();
    ctx.font = `700 ${Math.max(8, r * 0.8)}px system-ui, sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillStyle = color === 1 ? "#fff" : "#000";
    ctx.fillText(String(label), cx, cy + 0.5);
    ctx.restore();
  }
}

// black's offered 5th moves in an opening: faint black stones numbered 1.., ringed
export function offers(ctx, { margin, step, r }, b) {
  b.offers.forEach(([x, y], i) => {
    if (b.stones.has(x + "," + y)) return;
    const cx = margin + x * step, cy = margin + y * step;
    drawStone(ctx, cx, cy, r * 0.9, 1, 0.5);
    ctx.strokeStyle = "#7b2cbf";
    ctx.lineWidth = Math.max(2, step * 0.08);
    ctx.beginPath();
    ctx.arc(cx, cy, r * 0.98, 0, Math.PI * 2);
    ctx.stroke();
    ctx.font = `700 ${Math.max(8, r * 0.85)}px system-ui, sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillStyle = "#fff";
    ctx.fillText(String(i + 1), cx, cy + 0.5);
  });
}

// the hinted point: a faint stone in a dashed ring
export function hint(ctx, { margin, step, r }, b) {
  if (!b.hint || b.stones.has(b.hint[0] + "," + b.hint[1])) return;
  const cx = margin + b.hint[0] * step, cy = margin + b.hint[1] * step;
  drawStone(ctx, cx, cy, r, b.hintColor, 0.4);
  ctx.strokeStyle = "#0b6e4f";
  ctx.lineWidth = Math.max(2, step * 0.1);
  ctx.setLineDash([step * 0.18, step * 0.12]);
  ctx.beginPath();
  ctx.arc(cx, cy, r * 1.02, 0, Math.PI * 2);
  ctx.stroke();
}

// the mouse's preview of the next stone
export function hover(ctx, { margin, step, r }, b) {
  if (!b.hover || b.stones.has(b.hover[0] + "," + b.hover[1])) return;
  const [x, y] = b.hover;
  drawStone(ctx, margin + x * step, margin + y * step, r, b.hoverColor, 0.45);
}

// rings round the five (or more) stones of the win
export function winRings(ctx, { margin, step, r }, b) {
  if (!b.winningLine.length) return;
  ctx.strokeStyle = "#d62828";
  ctx.lineWidth = Math.max(2, step * 0.09);
  for (const [x, y] of b.winningLine) {
    ctx.beginPath();
    ctx.arc(margin + x * step, margin + y * step, r * 0.98, 0, Math.PI * 2);
    ctx.stroke();
  }
}

// a red dot on the last stone (when the stones carry no numbers)
export function lastMove(ctx, { margin, step, r }, b) {
  if (!b.lastMove || b.showNumbers) return;
  const [x, y] = b.lastMove;
  const color = b.stones.get(x + "," + y);
  ctx.fillStyle = color === 1 ? "#ff5a4e" : "#d62828";
  ctx.beginPath();
  ctx.arc(margin + x * step, margin + y * step, Math.max(2.5, r * 0.24), 0, Math.PI * 2);
  ctx.fill();
}

// the keyboard cursor: a blue square
export function cursor(ctx, { margin, step }, b) {
  if (!b.showCursor || !b.cursor) return;
  const [x, y] = b.cursor;
  const cx = margin + x * step, cy = margin + y * step, h = step * 0.5;
  ctx.strokeStyle = "#1f6feb";
  ctx.lineWidth = Math.max(2, step * 0.08);
  ctx.strokeRect(cx - h, cy - h, 2 * h, 2 * h);
}

export const LAYERS = [
  wood, grid, labels, winGlow, stones, numbers, forbidden, coach, marks, offers, overlay, hint, hover, winRings, lastMove, cursor,
];
