// Game rules the page needs without the engine: who has five, when the board is full.
//
// Moves are engine coordinates [x, y] (0-based, y from the top). The first move belongs to
// "player 0" (black, unless the game was set up with white first), then they alternate.
// Freestyle: five or more in a row wins. Standard: exactly five wins (six or more do not).
// Renju: black wins with exactly five, white with five or more; black's forbidden points
// are in renju.js (replay does not check them: records.js does, and the page refuses them).

import { textError } from "./record-errors.js";

export const RULES = ["freestyle", "standard", "renju"];
export const BLACK = 1, WHITE = 2; // colours; the first move is black's unless set up otherwise

export function isRule(rule) {
  return RULES.includes(rule);
}

// The player (0 = first mover, 1) who has black, from the colour of the first move.
export const blackPlayer = (first) => (first === WHITE ? 1 : 0);

// Does a row of n stones win for the player who is (or is not) black under this rule?
function wins(n, rule, isBlack) {
  if (rule === "standard" || (rule === "renju" && isBlack)) return n === 5;
  return n >= 5;
}

const DIRS = [[1, 0], [0, 1], [1, 1], [1, -1]];

// The winning line through (x, y) for the stone there, or null. `black` is the player
// (0 or 1) who has black, which matters under renju only.
export function winLine(stones, x, y, size, rule, black = 0) {
  const who = stones.get(x + "," + y);
  if (who === undefined) return null;
  for (const [dx, dy] of DIRS) {
    const line = [[x, y]];
    for (const sgn of [1, -1]) {
      let cx = x + sgn * dx, cy = y + sgn * dy;
      while (cx >= 0 && cy >= 0 && cx < size && cy < size && stones.get(cx + "," + cy) === who) {
        line.push([cx, cy]);
        cx += sgn * dx; cy += sgn * dy;
      }
    }
    if (wins(line.length, rule, who === black)) {
      return line.sort((a, b) => (a[0] - b[0]) || (a[1] - b[1]));
    }
  }
  return null;
}

// Replays moves; stones map "x,y" -> player (0 first mover, 1 second); `black` as above.
// Returns {winner: -1 | 0 | 1, line, wonAt (index of the winning move or -1), draw}.
// Throws an Error naming the first bad move (off the board, taken, after the end).
export function replay(moves, size, rule, black = 0) {
  const stones = new Map();
  let winner = -1, line = [], wonAt = -1;
  moves.forEach((m, i) => {
    if (!Array.isArray(m) || m.length !== 2 || !m.every((v) => Number.isInteger(v) && v >= 0 && v < size)) {
      throw textError("rec_moveOff", { n: i + 1, size });
    }
    if (winner >= 0) throw textError("rec_afterWin", { n: i + 1, won: wonAt + 1 });
    const key = m[0] + "," + m[1];
    if (stones.has(key)) throw textError("rec_taken", { n: i + 1 });
    stones.set(key, i % 2);
    const l = winLine(stones, m[0], m[1], size, rule, black);
    if (l) { winner = i % 2; line = l; wonAt = i; }
  });
  return { winner, line, wonAt, draw: winner < 0 && moves.length === size * size, stones };
}
