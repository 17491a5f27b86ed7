// The game state: plain data and pure functions, no DOM.
//
// A game is one line of moves plus a cursor, how many of them are on the board:
//
//   { size, rule, first, human, level, seed, moves: [[x, y], ...], cursor, recorded,
//     twoPlayers, clock }
//
//   size      15..20 (coords.js)           rule   one of rules.js RULES
//   first     colour of the first move     human  the player's colour (BLACK | WHITE)
//   level     the engine's level, a number of levels.js (levels-data.js)
//   seed      0..MAX_SEED: a node-limited level's random choices come from it (the same
//             position, level and seed give the same engine move everywhere); drawn by
//             the page when a game starts (this module takes it as given, default 0)
//   moves     engine coordinates; moves[cursor..] are the undone moves (redo brings them back)
//   recorded  the finished game is in the finished-games list already
//   twoPlayers  two people play it on this device, the engine off (human and level are
//             then kept for the next game against the engine, not used)
//   clock     the game clock (clock.js), or null: no clock. A flag that fell ends the game
//             at the end of its line: position() says the other colour won (timeout)
//
// Undo, redo and browsing move the cursor; a move played before the end of the line starts
// a new branch that replaces the moves after it (unless it is the line's next move). No
// function changes the game it is given: each returns a new one. Everything that depends
// on the rule (who won) goes through rules.js, on the size through coords.js, so a new
// rule or size is added there. Under renju black's forbidden points (renju.js) are
// refused like taken points (illegalReason "forbidden", with the shape from forbiddenAt),
// and black always moves first (checkSetup refuses renju with white first: the engine's
// renju, like the rule itself, has black open).

import { DEFAULT_SIZE, isSize, onBoard } from "./coords.js";
import { checkMoves } from "./records.js";
import { DEFAULT_LEVEL, isLevel } from "./levels.js";
import { forbiddenPoints as renjuPoints, shapeOn, toGrid } from "./renju.js";
import { isControl, newClock } from "./clock.js";
import { BLACK, WHITE, blackPlayer, isRule, replay } from "./rules.js";

export { DEFAULT_LEVEL, isLevel };
export const MAX_SEED = 2 ** 31 - 1;
export const isSeed = (seed) => Number.isInteger(seed) && seed >= 0 && seed <= MAX_SEED;
export const isColour = (c) => c === BLACK || c === WHITE;

// Throws an Error naming the first setting that is not valid (clock: a clock.js control,
// or null for none).
export function checkSetup({ size, rule, first, human, level, seed = 0, twoPlayers = false, clock = null }) {
  if (!isSize(size)) throw new Error(`bad board size ${JSON.stringify(size)}`);
  if (!isRule(rule)) throw new Error(`unknown rule ${JSON.stringify(rule)}`);
  if (!isColour(first)) throw new Error(`bad first player ${JSON.stringify(first)}`);
  if (!isColour(human)) throw new Error(`bad player colour ${JSON.stringify(human)}`);
  if (!isLevel(level)) throw new Error(`unknown level ${JSON.stringify(level)}`);
  if (!isSeed(seed)) throw new Error(`bad seed ${JSON.stringify(seed)}`);
  if (rule === "renju" && first !== BLACK) throw new Error("under renju black moves first");
  if (typeof twoPlayers !== "boolean") throw new Error(`bad two-players flag ${JSON.stringify(twoPlayers)}`);
  if (clock !== null && !isControl(clock)) throw new Error(`bad time control ${JSON.stringify(clock)}`);
}

// A new game; clock: its time control (clock.js {baseMs, incMs}) or null.
export function newGame({ size = DEFAULT_SIZE, rule = "freestyle", first = BLACK, human = BLACK, level = DEFAULT_LEVEL, seed = 0, twoPlayers = false, clock = null } = {}) {
  checkSetup({ size, rule, first, human, level, seed, twoPlayers, clock });
  return { size, rule, first, human, level, seed, moves: [], cursor: 0, recorded: false, twoPlayers, clock: clock && newClock(clock) };
}

// A game from a record ({moves, size, rule, first}): shown at its end, with the player on
// the side to move (unless the game is over). Throws on a bad setup or move (records.js
// checkMoves: off the board, taken, after a five, forbidden for black under renju).
// clock: the game's clock as the record left it (clock.js clockOfRecord), or null.
export function fromRecord({ moves, size, rule, first }, { human = BLACK, level = DEFAULT_LEVEL, seed = 0, twoPlayers = false, clock = null } = {}) {
  checkSetup({ size, rule, first, human, level, seed, twoPlayers });
  checkMoves(moves, size, rule, first);
  const game = {
    ...newGame({ size, rule, first, human, level, seed, twoPlayers }), moves: copyMoves(moves), cursor: moves.length, recorded: true, clock,
  };
  return position(game).over ? game : { ...game, human: sideToMove(game) };
}

const copyMoves = (moves) => moves.map(([x, y]) => [x, y]);

export const colorOf = (game, i) => (i % 2 === 0 ? game.first : 3 - game.first);
export const shownMoves = (game) => game.moves.slice(0, game.cursor);
export const sideToMove = (game) => colorOf(game, game.cursor);
export const atEnd = (game) => game.cursor === game.moves.length;

// Identifies the shown position (for matching engine answers to what is on the board).
export const positionKey = (game) =>
  `${game.size}/${game.first}/${game.rule}/` + shownMoves(game).map((m) => m.join(".")).join(" ");

// The shown position: {stones: Map "x,y" -> colour, winner: colour | 0, line: winning
// stones, draw, over, timeout: the colour whose flag fell (then winner is the other; at
// the end of the line only), or 0}.
export function position(game) {
  const r = replay(shownMoves(game), game.size, game.rule, blackPlayer(game.first));
  const stones = new Map();
  for (const [key, player] of r.stones) stones.set(key, player === 0 ? game.first : 3 - game.first);
  let winner = r.winner < 0 ? 0 : colorOf(game, r.winner);
  const timeout = !winner && !r.draw && game.clock && game.clock.flag && atEnd(game) ? game.clock.flag : 0;
  if (timeout) winner = 3 - timeout;
  return { stones, winner, line: r.line, draw: r.draw, over: winner !== 0 || r.draw, timeout };
}

// Does the side to move of the shown position have forbidden points (renju, black)?
const forbidsPoints = (game, pos) => game.rule === "renju" && !pos.over && sideToMove(game) === BLACK;

// The forbidden points of the shown position for the side to move: a Map "x,y" -> shape
// ("overline", "double four", "double three"); empty unless black is to move under renju.
export function forbiddenPoints(game, pos = position(game)) {
  return forbidsPoints(game, pos) ? renjuPoints(pos.stones, game.size, BLACK) : new Map();
}

// The shape that forbids the side to move empty [x, y] of the shown position, or null.
export function forbiddenAt(game, x, y, pos = position(game)) {
  if (!forbidsPoints(game, pos) || !onBoard(x, y, game.size) || pos.stones.has(x + "," + y)) return null;
  return shapeOn(toGrid(pos.stones, game.size, BLACK), game.size, x, y);
}

// Why a stone cannot go on [x, y] of the shown position: "off", "taken", "over",
// "forbidden" (renju: see forbiddenAt for the shape); or null.
export function illegalReason(game, x, y, pos = position(game)) {
  if (!onBoard(x, y, game.size)) return "off";
  if (pos.over) return "over";
  if (pos.stones.has(x + "," + y)) return "taken";
  if (forbiddenAt(game, x, y, pos)) return "forbidden";
  return null;
}

// A stone on [x, y] of the shown position, for the side to move. Throws when illegal (the
// error's reason as illegalReason, and for a forbidden point its shape).
export function play(game, x, y) {
  const pos = position(game);
  const why = illegalReason(game, x, y, pos);
  if (why === "forbidden") {
    const shape = forbiddenAt(game, x, y, pos);
    throw Object.assign(new Error(`no move on [${x}, ${y}]: forbidden for black (${shape})`), { reason: why, shape });
  }
  if (why) throw Object.assign(new Error(`no move on [${x}, ${y}]: ${why}`), { reason: why });
  const next = game.moves[game.cursor];
  if (next && next[0] === x && next[1] === y) return { ...game, cursor: game.cursor + 1 };
  const moves = [...copyMoves(shownMoves(game)), [x, y]];
  return { ...game, moves, cursor: moves.length, recorded: false };
}

// The game taken back to its first n moves for good (no redo): undo under a running
// clock, whose time belongs to the line played (state.js tookBack keeps the clock).
export function takeBack(game, n) {
  const k = Math.max(0, Math.min(game.moves.length, n));
  return { ...game, moves: copyMoves(game.moves.slice(0, k)), cursor: k, recorded: false };
}

// The game browsed to move n (clamped to 0..moves.length).
export function goTo(game, n) {
  return { ...game, cursor: Math.max(0, Math.min(game.moves.length, n)) };
}

// Undo / redo targets (a cursor value, or null when there is none). Playing against the
// engine they step by move pairs, to the player's previous / next turn; in analysis
// (bothSides) one move at a time.
export function undoTarget(game, bothSides = false) {
  if (bothSides) return game.cursor > 0 ? game.cursor - 1 : null;
  for (let n = game.cursor - 1; n >= 0; n--) if (colorOf(game, n) === game.human) return n;
  return null;
}

export function redoTarget(game, bothSides = false) {
  if (atEnd(game)) return null;
  if (bothSides) return game.cursor + 1;
  for (let n = game.cursor + 1; n < game.moves.length; n++) if (colorOf(game, n) === game.human) return n;
  return game.moves.length;
}

export function withHuman(game, human) {
  if (!isColour(human)) throw new Error(`bad player colour ${JSON.stringify(human)}`);
  return { ...game, human };
}

export function withLevel(game, level) {
  if (!isLevel(level)) throw new Error(`unknown level ${JSON.stringify(level)}`);
  return { ...game, level };
}

// The result of a finished game not yet in the finished-games list ("black" | "white" |
// "draw"), or null: the game is not over at the end of its line, or is recorded already.
export function unrecordedResult(game, pos = position(game)) {
  if (game.recorded || !atEnd(game) || !pos.over) return null;
  return pos.winner === BLACK ? "black" : pos.winner === WHITE ? "white" : "draw";
}

export const markRecorded = (game) => ({ ...game, recorded: true });
