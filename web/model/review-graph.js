// The review's evaluation graph as geometry: black's winning chance after each move, from
// 0% (bottom) to 100% (top), one point per position reviewed (index 0..total), the 50%
// midline, the flagged moves as dots of their class, the shown position marked. Pure
// functions, no DOM: review-view.js draws the result as SVG.

import { COUNTED } from "./review.js";

// The graph's own units (the SVG's viewBox); CSS scales it to the width of its box.
export const GRAPH = { width: 300, height: 96, padX: 5, padY: 5 };

const round2 = (v) => Math.round(v * 100) / 100;

// review: review.js's; cursor: the shown position (the game's cursor, 0..total); dots:
// the classes drawn as dots (the flagged ones and the only moves). Returns {width,
// height, midY, top, bottom, points: [{index, x, y}], line: SVG path of the curve, area:
// SVG path of black's share (under the curve), dots: [{index, x, y, cls}], cursor: {index,
// x} or null}; x and y in the graph's units, rounded to 0.01.
export function graphModel(review, cursor = null, { width, height, padX, padY } = GRAPH, dots = COUNTED) {
  const total = Math.max(1, review.total);
  const top = padY, bottom = height - padY;
  const xOf = (i) => round2(padX + (i * (width - 2 * padX)) / total);
  const yOf = (black) => round2(top + (1 - black) * (bottom - top));
  const points = review.black.map((b, index) => ({ index, x: xOf(index), y: yOf(b) }));
  const line = points.map((p, i) => `${i ? "L" : "M"}${p.x} ${p.y}`).join(" ");
  const area = points.length
    ? `M${points[0].x} ${bottom} ` + points.map((p) => `L${p.x} ${p.y}`).join(" ") + ` L${points[points.length - 1].x} ${bottom} Z`
    : "";
  const marked = points
    .filter((p) => p.index > 0 && review.moves[p.index] && dots.includes(review.moves[p.index].cls))
    .map((p) => ({ ...p, cls: review.moves[p.index].cls }));
  const shown = Number.isInteger(cursor) && cursor >= 0 && cursor <= review.total ? { index: cursor, x: xOf(cursor) } : null;
  return { width, height, top, bottom, midY: yOf(0.5), points, line, area, dots: marked, cursor: shown };
}

// The position nearest to x (graph units) among those reviewed, or null when none is.
export function indexAt(model, x) {
  let best = null;
  for (const p of model.points) if (best === null || Math.abs(p.x - x) < Math.abs(best.x - x)) best = p;
  return best ? best.index : null;
}

// Keyboard on the graph: the position the key moves the graph's focus to from index
// (Left / Right: one position; Up / PageUp, Down / PageDown: the previous / next dot;
// Home / End: the first / last position reviewed), or null for any other key.
export function keyTarget(model, index, key) {
  const last = model.points.length - 1;
  if (last < 0) return null;
  const i = Math.max(0, Math.min(last, index));
  const dots = model.dots.map((d) => d.index);
  switch (key) {
    case "ArrowLeft": return Math.max(0, i - 1);
    case "ArrowRight": return Math.min(last, i + 1);
    case "Home": return 0;
    case "End": return last;
    case "ArrowUp": case "PageUp": { const d = dots.filter((j) => j < i); return d.length ? d[d.length - 1] : i; }
    case "ArrowDown": case "PageDown": { const d = dots.find((j) => j > i); return d === undefined ? i : d; }
    default: return null;
  }
}
