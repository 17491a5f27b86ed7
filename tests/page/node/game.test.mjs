// node --test: web/model/game.js (the game state and its transitions).
import assert from "node:assert/strict";
import test from "node:test";

import { SIZES, parseCell } from "../../../web/model/coords.js";
import * as Game from "../../../web/model/game.js";
import { DEFAULT_LEVEL } from "../../../web/model/levels.js";
import { BLACK, WHITE } from "../../../web/model/rules.js";

const at = (game, text) => parseCell(text, game.size);
function playAll(game, texts) {
  for (const t of texts.split(" ")) game = Game.play(game, ...at(game, t));
  return game;
}
const shownText = (g) => Game.shownMoves(g).map(([x, y]) => `${x},${y}`).join(" ");

// A full board without five in a row for either side (colour by ((x + 2y) >> 1) & 1),
// as moves alternating between the two colours' points.
function drawnBoard(size) {
  const sides = [[], []];
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) sides[((x + 2 * y) >> 1) & 1].push([x, y]);
  const moves = [];
  for (let i = 0; i < size * size; i++) moves.push(sides[i % 2][i >> 1]);
  return moves;
}

test("a new game: defaults, any size 15..20, and bad settings refused", () => {
  const g = Game.newGame();
  assert.deepEqual(g, { size: 15, rule: "freestyle", first: BLACK, human: BLACK, level: DEFAULT_LEVEL, seed: 0, moves: [], cursor: 0, recorded: false, twoPlayers: false, clock: null });
  for (const size of SIZES) assert.equal(Game.newGame({ size }).size, size);
  assert.throws(() => Game.newGame({ size: 21 }), /bad board size 21/);
  assert.throws(() => Game.newGame({ size: "17" }), /bad board size "17"/);
  assert.throws(() => Game.newGame({ rule: "go" }), /unknown rule "go"/);
  assert.throws(() => Game.newGame({ first: 3 }), /bad first player 3/);
  assert.throws(() => Game.newGame({ human: 0 }), /bad player colour 0/);
  assert.throws(() => Game.newGame({ level: "t99" }), /unknown level "t99"/);
  assert.throws(() => Game.newGame({ level: "t1" }), /unknown level "t1"/); // old keys: storage.js migrates them
  assert.throws(() => Game.newGame({ level: 42 }), /unknown level 42/);
  assert.equal(Game.newGame({ seed: 123456789 }).seed, 123456789);
  assert.equal(Game.newGame({ seed: Game.MAX_SEED }).seed, 2 ** 31 - 1);
  for (const seed of [-1, 2 ** 31, 1.5, "7", null]) assert.throws(() => Game.newGame({ seed }), /bad seed/);
});

test("moves alternate colours from the first player, and the position follows", () => {
  let g = Game.newGame({ size: 17 });
  assert.equal(Game.sideToMove(g), BLACK);
  g = playAll(g, "i9 j10");
  assert.equal(Game.sideToMove(g), BLACK);
  const pos = Game.position(g);
  assert.equal(pos.stones.get("8,8"), BLACK);
  assert.equal(pos.stones.get("9,7"), WHITE);
  assert.equal(pos.over, false);

  let w = Game.newGame({ first: WHITE, human: WHITE });
  w = playAll(w, "h8");
  assert.equal(Game.position(w).stones.get("7,7"), WHITE);
  assert.equal(Game.sideToMove(w), BLACK);
});

test("play never changes the game it is given", () => {
  const g = playAll(Game.newGame(), "h8 i9");
  const copy = structuredClone(g);
  Game.play(g, 0, 0);
  Game.goTo(g, 0);
  Game.withHuman(g, WHITE);
  assert.deepEqual(g, copy);
});

test("illegal moves are refused with a reason", () => {
  const g = playAll(Game.newGame(), "h8");
  const refuses = (game, x, y, reason) => {
    assert.equal(Game.illegalReason(game, x, y), reason);
    assert.throws(() => Game.play(game, x, y), (err) => err.reason === reason);
  };
  refuses(g, 7, 7, "taken");
  refuses(g, 15, 0, "off");
  refuses(g, -1, 3, "off");
  refuses(g, 1.5, 3, "off");
  assert.equal(Game.illegalReason(Game.newGame({ size: 16 }), 15, 0), null);
  const won = playAll(Game.newGame(), "h8 a1 h9 a2 h10 a3 h11 a4 h12");
  refuses(won, 0, 0, "over");
});

test("five wins on every size; in standard six do not", () => {
  for (const size of SIZES) {
    const e = size - 1;
    let g = Game.newGame({ size });
    // black along the top edge ending in the corner, white along the bottom row
    for (let i = 0; i < 5; i++) {
      g = Game.play(g, e - i, 0);
      if (i < 4) g = Game.play(g, i, e);
    }
    const pos = Game.position(g);
    assert.equal(pos.winner, BLACK, `size ${size}`);
    assert.deepEqual(pos.line, [[e - 4, 0], [e - 3, 0], [e - 2, 0], [e - 1, 0], [e, 0]]);
  }
  const six = "c1 a15 d1 b15 e1 c15 f1 d15 h1 a13 g1";
  assert.equal(Game.position(playAll(Game.newGame({ rule: "standard" }), six)).over, false);
  assert.equal(Game.position(playAll(Game.newGame(), six)).winner, BLACK);
});

test("a full board without five is a draw, on every size", () => {
  for (const size of SIZES) {
    let g = Game.newGame({ size });
    for (const [x, y] of drawnBoard(size)) g = Game.play(g, x, y);
    const pos = Game.position(g);
    assert.equal(pos.draw, true, `size ${size}`);
    assert.equal(pos.over, true);
    assert.equal(Game.unrecordedResult(g), "draw");
  }
});

test("undo and redo step by move pairs to the player's turn, or one move in analysis", () => {
  let g = playAll(Game.newGame(), "h8 i9 j10 k11 h9");
  assert.equal(Game.undoTarget(g), 4); // black's last move
  assert.equal(Game.undoTarget(g, true), 4);
  g = Game.goTo(g, 4);
  assert.equal(Game.undoTarget(g), 2);
  assert.equal(Game.undoTarget(g, true), 3);
  assert.equal(Game.redoTarget(g), 5);
  g = Game.goTo(g, 0);
  assert.equal(Game.undoTarget(g), null);
  assert.equal(Game.redoTarget(g), 2);
  assert.equal(Game.redoTarget(g, true), 1);
  assert.equal(Game.redoTarget(Game.goTo(g, 5)), null);
  // playing white: white's moves are the odd ones
  const w = Game.withHuman(playAll(Game.newGame(), "h8 i9 j10 k11"), WHITE);
  assert.equal(Game.undoTarget(w), 3);
  assert.equal(Game.redoTarget(Game.goTo(w, 1)), 3);
});

test("browsing keeps the undone moves; a different move starts a new branch", () => {
  let g = playAll(Game.newGame(), "h8 i9 j10 k11");
  g = Game.goTo(g, 2);
  assert.equal(g.moves.length, 4);
  assert.equal(shownText(g), "7,7 8,6");
  assert.equal(Game.atEnd(g), false);
  // the line's own next move keeps the rest of the line
  const same = Game.play(Game.markRecorded(g), ...at(g, "j10"));
  assert.equal(same.cursor, 3);
  assert.equal(same.moves.length, 4);
  assert.equal(same.recorded, true);
  // another move replaces it
  const branch = Game.markRecorded(Game.play(g, ...at(g, "a1")));
  const again = Game.play(Game.goTo(branch, 1), ...at(g, "o15"));
  assert.equal(again.moves.length, 2);
  assert.equal(again.recorded, false);
  assert.equal(Game.goTo(g, 99).cursor, 4);
  assert.equal(Game.goTo(g, -3).cursor, 0);
});

test("a record opens at its end with the player on the side to move", () => {
  const record = { moves: [[9, 9], [10, 8], [8, 8]], size: 19, rule: "standard", first: BLACK };
  const g = Game.fromRecord(record, { human: BLACK, level: 8, seed: 99 });
  assert.equal(g.size, 19);
  assert.equal(g.rule, "standard");
  assert.equal(g.level, 8);
  assert.equal(g.seed, 99);
  assert.equal(g.cursor, 3);
  assert.equal(g.human, WHITE);
  assert.equal(g.recorded, true);
  record.moves[0][0] = 0; // the game keeps its own copy
  assert.deepEqual(g.moves[0], [9, 9]);
  // a finished record keeps the player's side
  const won = { moves: playAll(Game.newGame(), "h8 a1 h9 a2 h10 a3 h11 a4 h12").moves, size: 15, rule: "freestyle", first: BLACK };
  assert.equal(Game.fromRecord(won, { human: WHITE }).human, WHITE);
  assert.throws(() => Game.fromRecord({ ...record, moves: [[0, 0], [0, 0]] }), /taken point/);
  assert.throws(() => Game.fromRecord({ ...record, size: 15, moves: [[18, 18]] }), /not on the 15x15 board/);
});

test("a finished game is reported once, at the end of its line", () => {
  let g = playAll(Game.newGame(), "h8 a1 h9 a2 h10 a3 h11 a4");
  assert.equal(Game.unrecordedResult(g), null);
  g = playAll(g, "h12");
  assert.equal(Game.unrecordedResult(g), "black");
  assert.equal(Game.unrecordedResult(Game.goTo(g, 8)), null);
  assert.equal(Game.unrecordedResult(Game.markRecorded(g)), null);
  const w = playAll(Game.newGame({ first: WHITE }), "h8 a1 h9 a2 h10 a3 h11 a4 h12");
  assert.equal(Game.unrecordedResult(w), "white");
});

test("position keys tell sizes, rules, first players and positions apart", () => {
  const keys = new Set();
  for (const size of [15, 20]) {
    for (const rule of ["freestyle", "standard"]) {
      for (const first of [BLACK, WHITE]) keys.add(Game.positionKey(playAll(Game.newGame({ size, rule, first }), "h8")));
    }
  }
  keys.add(Game.positionKey(Game.newGame()));
  assert.equal(keys.size, 9);
  const g = playAll(Game.newGame(), "h8 i9");
  assert.equal(Game.positionKey(Game.goTo(g, 1)), Game.positionKey(playAll(Game.newGame(), "h8")));
});

test("level and side changes are checked", () => {
  const g = Game.newGame();
  assert.equal(Game.withLevel(g, 12).level, 12);
  assert.throws(() => Game.withLevel(g, 13), /unknown level/);
  assert.equal(Game.withLevel(g, 1).seed, g.seed);
  assert.equal(Game.withHuman(g, WHITE).human, WHITE);
  assert.throws(() => Game.withLevel(g, "fast"), /unknown level/);
  assert.throws(() => Game.withLevel(g, "inf"), /unknown level/);
  assert.throws(() => Game.withLevel(g, 0), /unknown level/);
  assert.throws(() => Game.withHuman(g, 3), /bad player colour/);
  assert.equal(Game.isLevel("toString"), false);
});
