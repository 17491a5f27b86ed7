// Renju: black's forbidden points, for the page (marks on the board, refusing a click,
// checking records). Pure functions, no DOM. The same definitions as the engine's
// py/gomoku/renju_reference.py, and tested against positions it solved
// (tests/page/node/fixtures/renju.json):
//
// - black wins only with exactly five; six or more in a row is an overline;
// - a four through a stone: one more black stone on the line makes a five with it (its
//   "five points"); two five points are one four when they are the two ends of four in a
//   row (a straight four, .XXXX.), otherwise two fours on one line (X.XXX.X);
// - a three through a stone: not a four, and one more black stone makes a straight four
//   through it, on a point that is not forbidden itself once the stone is there (recursive);
// - a black move that makes no five is forbidden when it makes an overline, two or more
//   fours ("double four") or two or more threes ("double three"). A five is never forbidden.
//
// Stones are given like rules.js keeps them: a Map "x,y" -> player (0 = first mover, 1),
// with `black` the player who has black (0 unless white moved first). Coordinates are the
// engine's: 0-based x from the left, y from the top.

export const SHAPES = ["overline", "double four", "double three"];

const DIRS = [[1, 0], [0, 1], [1, 1], [1, -1]];
const EMPTY = 0, BLACK = 1, WHITE = 2;

// A grid (Int8Array, index y * size + x) of EMPTY / BLACK / WHITE from a stones Map.
export function toGrid(stones, size, black = 0) {
  const grid = new Int8Array(size * size);
  for (const [key, who] of stones) {
    const [x, y] = key.split(",").map(Number);
    grid[y * size + x] = who === black ? BLACK : WHITE;
  }
  return grid;
}

const onBoard = (size, x, y) => x >= 0 && y >= 0 && x < size && y < size;

// Stones of (x, y)'s colour following it without a break: [behind, ahead] along -d, +d.
function extent(g, size, x, y, dx, dy) {
  const colour = g[y * size + x];
  const out = [0, 0];
  [-1, 1].forEach((sign, i) => {
    let cx = x + sign * dx, cy = y + sign * dy;
    while (onBoard(size, cx, cy) && g[cy * size + cx] === colour) {
      out[i]++;
      cx += sign * dx; cy += sign * dy;
    }
  });
  return out;
}

// Offsets k (-4..4, increasing) of the empty points where one more black stone makes a
// run of exactly five through the black stone on (x, y).
function fivePoints(g, size, x, y, dx, dy) {
  const out = [];
  for (let k = -4; k <= 4; k++) {
    const qx = x + k * dx, qy = y + k * dy;
    if (!k || !onBoard(size, qx, qy) || g[qy * size + qx] !== EMPTY) continue;
    g[qy * size + qx] = BLACK;
    const [b, a] = extent(g, size, qx, qy, dx, dy);
    g[qy * size + qx] = EMPTY;
    if (b + 1 + a === 5 && k - b <= 0 && 0 <= k + a) out.push(k);
  }
  return out;
}

function isStraightFour(g, size, x, y, dx, dy) {
  const [b, a] = extent(g, size, x, y, dx, dy);
  if (b + 1 + a !== 4) return false;
  const points = fivePoints(g, size, x, y, dx, dy);
  return points.length === 2 && points[0] === -b - 1 && points[1] === a + 1;
}

function foursIn(g, size, x, y, dx, dy) {
  const points = fivePoints(g, size, x, y, dx, dy);
  if (points.length >= 2 && isStraightFour(g, size, x, y, dx, dy)) return 1;
  return Math.min(points.length, 2);
}

function isThree(g, size, x, y, dx, dy) {
  if (fivePoints(g, size, x, y, dx, dy).length) return false;
  for (let k = -4; k <= 4; k++) {
    const qx = x + k * dx, qy = y + k * dy;
    if (!k || !onBoard(size, qx, qy) || g[qy * size + qx] !== EMPTY) continue;
    g[qy * size + qx] = BLACK;
    const [b, a] = extent(g, size, x, y, dx, dy);
    const straight = -b <= k && k <= a && isStraightFour(g, size, x, y, dx, dy);
    g[qy * size + qx] = EMPTY;
    if (straight && shapeOn(g, size, qx, qy) === null) return true; // the recursion
  }
  return false;
}

// The forbidden shape of empty (x, y) for black on grid g, or null. g is left as it was.
export function shapeOn(g, size, x, y) {
  const i = y * size + x;
  if (g[i] !== EMPTY) throw new Error(`${x},${y} is occupied`);
  g[i] = BLACK;
  try {
    const runs = DIRS.map(([dx, dy]) => {
      const [b, a] = extent(g, size, x, y, dx, dy);
      return b + 1 + a;
    });
    if (runs.includes(5)) return null;
    if (Math.max(...runs) >= 6) return "overline";
    const fours = DIRS.map(([dx, dy]) => foursIn(g, size, x, y, dx, dy));
    if (fours[0] + fours[1] + fours[2] + fours[3] >= 2) return "double four";
    let threes = 0;
    for (let d = 0; d < 4; d++) {
      if (!fours[d] && isThree(g, size, x, y, DIRS[d][0], DIRS[d][1]) && ++threes === 2) {
        return "double three";
      }
    }
    return null;
  } finally {
    g[i] = EMPTY;
  }
}

// Why black may not play empty (x, y): "overline", "double four", "double three", or null.
export function forbiddenShape(stones, x, y, size, black = 0) {
  return shapeOn(toGrid(stones, size, black), size, x, y);
}

// Map "x,y" -> shape of every forbidden point. Only points with a black stone within two
// points can be forbidden, so only those are examined.
export function forbiddenPoints(stones, size, black = 0) {
  const g = toGrid(stones, size, black);
  const out = new Map();
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (g[y * size + x] !== EMPTY || !blackNear(g, size, x, y)) continue;
      const shape = shapeOn(g, size, x, y);
      if (shape) out.set(x + "," + y, shape);
    }
  }
  return out;
}

function blackNear(g, size, x, y) {
  for (let dy = -2; dy <= 2; dy++) {
    for (let dx = -2; dx <= 2; dx++) {
      if (onBoard(size, x + dx, y + dy) && g[(y + dy) * size + x + dx] === BLACK) return true;
    }
  }
  return false;
}

// Replays moves (player 0 first; `black` is the player with black): the first black move
// on a point forbidden when it was played, as {index, shape}, or null. Moves are assumed
// on the board and on empty points (rules.js replay checks that).
export function firstForbidden(moves, size, black = 0) {
  const g = new Int8Array(size * size);
  for (let i = 0; i < moves.length; i++) {
    const [x, y] = moves[i];
    const colour = i % 2 === black ? BLACK : WHITE;
    if (colour === BLACK && g[y * size + x] === EMPTY) {
      const shape = shapeOn(g, size, x, y);
      if (shape) return { index: i, shape };
    }
    g[y * size + x] = colour;
  }
  return null;
}
