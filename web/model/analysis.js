// Analysis with several moves: what the page makes of the engine's `top` (its best root
// moves, best first, scores from the side to move's view). Pure functions, no DOM.
//
// A top move as the page keeps it: {x, y, score, pv: [[x, y], ...], best}, with score as
// the engine sent it ({cp: 80}, {win: 5}, {loss: 4}: score.js), pv starting with the move
// itself, and best true for the first (the engine's choice).

import { cellText, onBoard } from "./coords.js";
import { isScore, scoreCode, scoreLabel } from "./score.js";

export const TOP_MIN = 3;
export const TOP_MAX = 5;
export const TOP_DEFAULT = 3;

// The setting "best moves shown in analysis": an integer 3..5.
export function isTopCount(n) {
  return Number.isInteger(n) && n >= TOP_MIN && n <= TOP_MAX;
}

const isPoint = (p, size) => Array.isArray(p) && p.length === 2 && onBoard(p[0], p[1], size);

// The engine's top moves of one info / result reply, checked: a list of {move: [x, y],
// score, pv: [[x, y], ...]}. An empty or missing top falls back to the reply's own move
// line (pv) and score. Throws an Error naming the first thing that is wrong.
export function readTop(reply, size) {
  if (reply === null || typeof reply !== "object") throw new Error("the reply is not an object");
  let top = reply.top;
  if (top === undefined || (Array.isArray(top) && top.length === 0)) {
    const pv = Array.isArray(reply.pv) ? reply.pv : [];
    if (!pv.length) return [];
    top = [{ move: pv[0], score: reply.score, pv }];
  }
  if (!Array.isArray(top)) throw new Error(`top must be a list, got ${JSON.stringify(top)}`);
  return top.map((t, i) => {
    if (t === null || typeof t !== "object") throw new Error(`top[${i}] is not an object`);
    if (!isPoint(t.move, size)) {
      throw new Error(`top[${i}].move must be a point [x, y] of the ${size}x${size} board, got ${JSON.stringify(t.move)}`);
    }
    if (!isScore(t.score)) {
      throw new Error(`top[${i}].score must be like {cp: 80} or {win: 5}, got ${JSON.stringify(t.score)}`);
    }
    const pv = t.pv === undefined ? [t.move] : t.pv;
    if (!Array.isArray(pv) || !pv.every((p) => isPoint(p, size))) {
      throw new Error(`top[${i}].pv must be a list of points of the board, got ${JSON.stringify(t.pv)}`);
    }
    const line = pv.length && pv[0][0] === t.move[0] && pv[0][1] === t.move[1] ? pv : [t.move, ...pv];
    return { x: t.move[0], y: t.move[1], score: { ...t.score }, pv: line.map(([x, y]) => [x, y]) };
  });
}

// What to show of a checked top list: the first `count` moves on points where the side to
// move may play. blocked(x, y) gives the reason a point cannot be played ("taken",
// "forbidden", ...) or null; such moves (an engine bug) and repeats are left out and
// listed in `dropped` ({cell, why}). The first move shown is marked best only when it is
// the engine's own first: a dropped first leaves no move marked best.
export function chooseTop(top, { size, count, blocked = () => null }) {
  if (!isTopCount(count)) throw new Error(`count must be an integer in ${TOP_MIN}..${TOP_MAX}, got ${JSON.stringify(count)}`);
  const moves = [];
  const dropped = [];
  const seen = new Set();
  top.forEach((t, i) => {
    const key = t.x + "," + t.y;
    const why = seen.has(key) ? "repeated" : blocked(t.x, t.y);
    if (why) {
      dropped.push({ cell: cellText(t.x, t.y, size), why });
      return;
    }
    seen.add(key);
    if (moves.length < count) moves.push({ ...t, best: i === 0 });
  });
  return { moves, dropped };
}

// The canvas's data-top-moves: "i9:+0.8 h9:+0.5 g7:win-in-5" (text coordinates of the
// board's size, score.js's scoreCode), best first; "" for none.
export function topMovesText(moves, size) {
  return moves.map((m) => `${cellText(m.x, m.y, size)}:${scoreCode(m.score)}`).join(" ");
}

// The line of top move `index` as board overlay entries ({x, y, color, label}: the first
// stone is the side to move's, label 1), at most `max` stones; [] when there is no such
// move.
export function lineOverlay(moves, index, sideToMove, max = 12) {
  const m = moves[index];
  if (!m) return [];
  return m.pv.slice(0, max).map(([x, y], i) => ({ x, y, color: i % 2 === 0 ? sideToMove : 3 - sideToMove, label: i + 1 }));
}

// What the board draws: the top marks ({x, y, label, best, active}) and the overlay (a
// line of future stones). Where a line's first stone (label 1) falls on a top move, the
// mark stays (it names the move and its score) and is drawn active; a later stone of the
// line on a top move's point hides that mark (the line says what happens there). t:
// i18n.js's t (the marks' letters, score.js scoreLabel).
export function boardMarks(moves, overlay, t) {
  const first = overlay.find((o) => o.label === 1);
  const later = new Set(overlay.filter((o) => o.label !== 1).map((o) => o.x + "," + o.y));
  const isMark = (x, y) => moves.some((m) => m.x === x && m.y === y);
  const marks = moves
    .filter((m) => !later.has(m.x + "," + m.y))
    .map((m) => ({
      x: m.x, y: m.y, label: scoreLabel(m.score, t), best: m.best,
      active: !!first && first.x === m.x && first.y === m.y,
    }));
  const kept = overlay.filter((o) => !(o.label === 1 && isMark(o.x, o.y)));
  return { marks, overlay: kept };
}

// The index of the top move on [x, y], or -1.
export function topIndexAt(moves, x, y) {
  return moves.findIndex((m) => m.x === x && m.y === y);
}

// Does a new analysis report replace the one shown? Reports: {key (the position), want
// (the multi-PV count asked for), depth, decisive}. A new position or count always
// replaces; in the same search the depth only grows, and a new search of the same
// position (the next, longer slice) takes over once it is as deep as the one shown, or
// at once when it has solved the position.
export function replacesTop(shown, next) {
  if (!shown) return true;
  if (shown.key !== next.key || shown.want !== next.want) return true;
  return next.decisive || (Number(next.depth) || 0) >= (Number(shown.depth) || 0);
}

// Whether to announce the best moves by themselves (the aria-live summary): at the end of
// a search slice, only for a position not announced yet or when the best move changed.
// last and next: {key, best: "i9"} (last null when nothing was announced).
export function shouldAnnounce(last, next) {
  if (!next || !next.best) return false;
  return !last || last.key !== next.key || last.best !== next.best;
}

// The spoken summary, e.g. "Best moves for black: i9 +0.8, h9 +0.5, g7 win in 5."
// words: {intro(list) -> sentence, sep, none, score(score) -> text} (the page's language:
// score.js scoreWords).
export function spokenTop(moves, size, words) {
  if (!moves.length) return words.none;
  return words.intro(moves.map((m) => `${cellText(m.x, m.y, size)} ${words.score(m.score)}`).join(words.sep));
}
