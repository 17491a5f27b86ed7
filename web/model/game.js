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
//   opening   (only in a game under an opening rule, opening.js) {rule, player, choices,
//             offers}: the rule ("swap2", "soosorv8"), the player the human is (1: the
//             one who places the opening stones, 2: the other), the choices made so far
//             (colours taken, "two", the number declared) and black's offered 5th moves.
//             The opening's stones are the first moves; while the opening is not over
//             the moves are its stones and nothing else, stones go on the board through
//             openingAct (play refuses them), and human is the colour the human's player
//             holds for now (tentatively: the rule's choices may change it). With two
//             players both players' opening actions are made on this device (the player
//             is then only nominal). A clock starts when the opening is over: its stones
//             are untimed moves (clock.js afterUntimed), white's time runs from there.
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
import * as Opening from "./opening.js";
import { forbiddenPoints as renjuPoints, shapeOn, toGrid } from "./renju.js";
import { isControl, newClock, untimedMove } from "./clock.js";
import { BLACK, WHITE, blackPlayer, isRule, replay } from "./rules.js";

export { DEFAULT_LEVEL, isLevel };
export const MAX_SEED = 2 ** 31 - 1;
export const isSeed = (seed) => Number.isInteger(seed) && seed >= 0 && seed <= MAX_SEED;
export const isColour = (c) => c === BLACK || c === WHITE;

// Throws an Error naming the first setting that is not valid (clock: a clock.js control,
// or null for none; an opening rule's setup is checked by newGame and checkOpening).
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

// A new game; clock: its time control (clock.js {baseMs, incMs}) or null; opening: {rule,
// player} for a game under an opening rule (the human's colour then comes from the
// player: 1 places the opening stones, tentatively black), or null.
export function newGame({
  size = DEFAULT_SIZE, rule = "freestyle", first = BLACK, human = BLACK, level = DEFAULT_LEVEL, seed = 0, twoPlayers = false, clock = null,
  opening = null,
} = {}) {
  checkSetup({ size, rule, first, human, level, seed, twoPlayers, clock });
  const game = { size, rule, first, human, level, seed, moves: [], cursor: 0, recorded: false, twoPlayers, clock: clock && newClock(clock) };
  if (!opening) return game;
  const record = checkOpening({ ...game, opening: { rule: opening.rule, player: opening.player, choices: [], offers: [] } });
  return { ...game, human: opening.player === 1 ? BLACK : WHITE, opening: record };
}

// ---- the opening rule ------------------------------------------------------------------

const openingCache = new WeakMap();

// {state, length} of a game's opening (opening.js fromRecord: the state, and how many of
// the moves are the opening's), or null for a game without an opening rule.
export function openingOf(game) {
  if (!game.opening) return null;
  let got = openingCache.get(game);
  if (!got) {
    const { state } = Opening.fromRecord(game.opening, game.moves, game.size, game.rule);
    got = { state, length: state.stones.length };
    openingCache.set(game, got);
  }
  return got;
}

// A game's opening record checked (the rule, the player, the choices and offers against
// its moves: opening.js fromRecord throws naming what is wrong); returns a clean copy.
export function checkOpening(game) {
  const o = game.opening;
  if (!o || typeof o !== "object") throw new Error("the opening is not an object");
  if (o.player !== 1 && o.player !== 2) throw new Error(`bad opening player ${JSON.stringify(o.player)}`);
  if (game.first !== BLACK) throw new Error("an opening rule has black move first");
  if (!Array.isArray(o.choices) || !Array.isArray(o.offers)) throw new Error("the opening's choices and offers are lists");
  const record = { rule: o.rule, player: o.player, choices: o.choices.map(String), offers: copyMoves(o.offers) };
  Opening.fromRecord(record, game.moves, game.size, game.rule);
  return record;
}

// The game with a stored opening record ({rule, player, choices, offers}) checked against
// its moves; during the opening the human holds the colour of its player. Throws when
// the record does not fit (checkOpening).
export function withOpening(game, opening) {
  const next = { ...game, opening: checkOpening({ ...game, opening }) };
  const { state } = openingOf(next);
  return Opening.isDone(state) ? next : { ...next, human: colourOfPlayer(state, next.opening.player) };
}

// The opening as a record of the shown position keeps it ({rule, choices, offers}), or
// null: no opening rule, or a position browsed back into the opening's stones.
export function recordOpening(game) {
  if (!game.opening || (game.cursor < openingOf(game).length && !atEnd(game))) return null;
  const { rule, choices, offers } = game.opening;
  return { rule, choices: [...choices], offers: copyMoves(offers) };
}

// Is the game in its opening (an opening rule whose opening is not over)?
export const inOpening = (game) => !!game.opening && !Opening.isDone(openingOf(game).state);

// Who acts now in the opening: "human", "engine", or null when not in the opening. With
// two players always "human" (both act on this device).
export function openingTurn(game) {
  if (!inOpening(game)) return null;
  if (game.twoPlayers) return "human";
  return openingOf(game).state.actor === game.opening.player ? "human" : "engine";
}

// The colour the human's player holds in a state of its opening.
const colourOfPlayer = (state, player) => (state.black === player ? BLACK : WHITE);

// The game after an opening action ({kind, at?, n?}: opening.js) at the end of its line;
// throws the rule's refusal (opening.js: key op_..., for errorText) or when the game is
// not in its opening. The action that ends the opening starts a clock: the opening's
// stones are its untimed moves, the side to move (white) next.
export function openingAct(game, action) {
  if (!inOpening(game)) throw Opening.refusal("over");
  if (!atEnd(game)) throw Opening.refusal("browsing");
  const state = Opening.apply(openingOf(game).state, action);
  const choice = ["black", "white", "two", "declare"].includes(action.kind);
  const opening = {
    ...game.opening,
    choices: choice ? [...game.opening.choices, Opening.actionText(action, game.size)] : [...game.opening.choices],
    offers: copyMoves(state.offers),
  };
  const moves = copyMoves(state.stones);
  let { clock } = game;
  if (clock && Opening.isDone(state)) {
    for (let i = 0; i < moves.length; i++) clock = untimedMove(clock, colorOf(game, i + 1));
  }
  return { ...game, opening, moves, cursor: moves.length, recorded: false, clock, human: colourOfPlayer(state, game.opening.player) };
}

// How many of the game's moves its clock has seen (clock.js decodeClock): none while the
// opening goes on (the clock starts when it is over), else all of them.
export const clockedMoves = (game) => (inOpening(game) ? 0 : game.moves.length);

// The colour of the next stone put on the board: the opening's (an offer is black's),
// else the side to move's.
export function nextStoneColour(game) {
  if (inOpening(game)) return Opening.nextColour(openingOf(game).state);
  return sideToMove(game);
}

// The moves an undo may not go below: the opening's stones, once it is over.
const openingFloor = (game) => (game.opening ? openingOf(game).length : 0);

// A game from a record ({moves, size, rule, first}): shown at its end, with the player on
// the side to move (unless the game is over). Throws on a bad setup or move (records.js
// checkMoves: off the board, taken, after a five, forbidden for black under renju).
// clock: the game's clock as the record left it (clock.js clockOfRecord), or null.
//
// With an opening ({rule, choices, offers, player?}: opening.js, checked against the moves)
// the game keeps it, the player being `player` when given (a finished game's own), else
// during the opening the one who acts now, after it the one on the side to move.
export function fromRecord({ moves, size, rule, first, opening = null }, { human = BLACK, level = DEFAULT_LEVEL, seed = 0, twoPlayers = false, clock = null } = {}) {
  checkSetup({ size, rule, first, human, level, seed, twoPlayers });
  checkMoves(moves, size, rule, first);
  let game = {
    ...newGame({ size, rule, first, human, level, seed, twoPlayers }), moves: copyMoves(moves), cursor: moves.length, recorded: true, clock,
  };
  if (opening) {
    game = { ...game, opening: checkOpening({ ...game, opening: { player: 1, ...opening } }) };
    const { state } = openingOf(game);
    if (!Opening.isDone(state)) {
      const player = opening.player === 1 || opening.player === 2 ? opening.player : state.actor;
      return { ...game, opening: { ...game.opening, player }, human: colourOfPlayer(state, player), recorded: false };
    }
    if (opening.player === 1 || opening.player === 2) return { ...game, human: colourOfPlayer(state, opening.player) };
    const toMove = position(game).over ? human : sideToMove(game);
    return { ...game, human: toMove, opening: { ...game.opening, player: toMove === BLACK ? state.black : 3 - state.black } };
  }
  return position(game).over ? game : { ...game, human: sideToMove(game) };
}

const copyMoves = (moves) => moves.map(([x, y]) => [x, y]);

export const colorOf = (game, i) => (i % 2 === 0 ? game.first : 3 - game.first);
export const shownMoves = (game) => game.moves.slice(0, game.cursor);
export const sideToMove = (game) => colorOf(game, game.cursor);
export const atEnd = (game) => game.cursor === game.moves.length;

// Identifies the shown position (for matching engine answers to what is on the board).
export const positionKey = (game) =>
  `${game.size}/${game.first}/${game.rule}/` + shownMoves(game).map((m) => m.join(".")).join(" ") +
  (game.opening ? `/${game.opening.rule}:${game.opening.choices.join(",")}:${game.opening.offers.map((m) => m.join(".")).join(" ")}` : "");

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
// "forbidden" (renju: see forbiddenAt for the shape), "opening" (the opening rule places
// the stones: during the opening, or inside its stones); or null.
export function illegalReason(game, x, y, pos = position(game)) {
  if (!onBoard(x, y, game.size)) return "off";
  if (pos.over) return "over";
  if (game.opening && (inOpening(game) || game.cursor < openingFloor(game))) return "opening";
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
// An opening's stones are never undone (none during the opening either).
export function undoTarget(game, bothSides = false) {
  if (inOpening(game)) return null;
  const floor = openingFloor(game);
  if (bothSides) return game.cursor > floor ? game.cursor - 1 : null;
  for (let n = game.cursor - 1; n >= floor; n--) if (colorOf(game, n) === game.human) return n;
  return null;
}

export function redoTarget(game, bothSides = false) {
  if (atEnd(game)) return null;
  if (bothSides) return game.cursor + 1;
  for (let n = game.cursor + 1; n < game.moves.length; n++) if (colorOf(game, n) === game.human) return n;
  return game.moves.length;
}

// The human on the other colour (after an opening: the other player too).
export function withHuman(game, human) {
  if (!isColour(human)) throw new Error(`bad player colour ${JSON.stringify(human)}`);
  if (!game.opening || human === game.human) return { ...game, human };
  return { ...game, human, opening: { ...game.opening, player: 3 - game.opening.player } };
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
