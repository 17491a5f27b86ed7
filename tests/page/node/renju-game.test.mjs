// node --test: renju through game.js, storage.js and records.js on several board sizes:
// black's forbidden points in the game state, refused moves, black first only, and the
// rule carried by stored games, finished games, share links and .psq files.
import assert from "node:assert/strict";
import test from "node:test";

import { cellText } from "../../../web/model/coords.js";
import * as Game from "../../../web/model/game.js";
import { parseFragment, parseMoves, parsePsq, toFragment, toPsq } from "../../../web/model/records.js";
import { BLACK, WHITE } from "../../../web/model/rules.js";
import { KEYS, addToHistory, encodeGame, encodeHistory, historyEntry, loadAll, save } from "../../../web/model/storage.js";

const SIZES = [15, 17, 20];

// Black h10 i10 g9 g8 on 15x15 (the same points from the top left on every size), white
// in the bottom row: g10 makes two open threes (a row and a column) for black.
function doubleThree(size) {
  const e = size - 1;
  return { moves: [[7, 5], [0, e], [8, 5], [2, e], [6, 6], [4, e], [6, 7], [e, e]], point: [6, 5] };
}
const playList = (game, moves) => moves.reduce((g, [x, y]) => Game.play(g, x, y), game);
const names = (map, size) => [...map].map(([k, shape]) => {
  const [x, y] = k.split(",").map(Number);
  return `${cellText(x, y, size)}:${shape}`;
});

class FakeStorage {
  constructor() { this.items = new Map(); }
  getItem(k) { return this.items.has(k) ? this.items.get(k) : null; }
  setItem(k, v) { this.items.set(k, String(v)); }
  removeItem(k) { this.items.delete(k); }
}

test("black to move under renju: the forbidden points of the position, with their shapes", () => {
  for (const size of SIZES) {
    const { moves, point: [x, y] } = doubleThree(size);
    const g = playList(Game.newGame({ size, rule: "renju" }), moves);
    assert.deepEqual(names(Game.forbiddenPoints(g), size), [`g${size - 5}:double three`], `size ${size}`);
    assert.equal(Game.forbiddenAt(g, x, y), "double three");
    assert.equal(Game.forbiddenAt(g, x + 1, y + 3), null); // an ordinary empty point
    assert.equal(Game.forbiddenAt(g, 7, 5), null); // a stone
    assert.equal(Game.illegalReason(g, x, y), "forbidden");
    assert.throws(() => Game.play(g, x, y), (err) => err.reason === "forbidden" && err.shape === "double three"
      && /forbidden for black \(double three\)/.test(err.message));
    // the same point under freestyle, or for white (one move earlier, white to move)
    assert.deepEqual([...Game.forbiddenPoints(playList(Game.newGame({ size }), moves))], []);
    assert.equal(Game.illegalReason(playList(Game.newGame({ size }), moves), x, y), null);
    const whiteToMove = Game.goTo(g, moves.length - 1);
    assert.equal(Game.forbiddenPoints(whiteToMove).size, 0);
    assert.equal(Game.illegalReason(whiteToMove, x, y), null);
    assert.equal(Game.play(whiteToMove, x, y).moves.length, moves.length);
  }
});

test("renju fives in the game: black's six is forbidden, white's wins; black's exact five wins", () => {
  // black a1 b1 c1 e1 f1, then d1 would be six: refused as an overline
  const six = parseMoves("a1 h8 b1 h10 c1 h12 e1 j8 f1 j10", 15, "renju");
  const g = playList(Game.newGame({ rule: "renju" }), six);
  assert.equal(Game.forbiddenAt(g, 3, 14), "overline");
  assert.throws(() => Game.play(g, 3, 14), /overline/);
  // black's exact five is never forbidden, and wins
  const five = parseMoves("a1 h8 b1 h10 c1 h12 d1 j8", 15, "renju");
  const f = playList(Game.newGame({ rule: "renju" }), five);
  assert.equal(Game.forbiddenAt(f, 4, 14), null);
  assert.equal(Game.position(Game.play(f, 4, 14)).winner, BLACK);
  // white's six wins under renju (and not under standard)
  const w6 = "h8 a1 h10 b1 h12 c1 j8 e1 j10 f1 k15 d1";
  assert.equal(Game.position(playList(Game.newGame({ rule: "renju" }), parseMoves(w6, 15, "freestyle"))).winner, WHITE);
  assert.equal(Game.position(playList(Game.newGame({ rule: "standard" }), parseMoves(w6, 15, "freestyle"))).over, false);
  // no marks once the game is over
  const won = playList(Game.newGame({ rule: "renju" }), parseMoves(w6, 15, "freestyle"));
  assert.equal(Game.forbiddenPoints(won).size, 0);
});

test("under renju black moves first: white first is refused everywhere", () => {
  assert.throws(() => Game.newGame({ rule: "renju", first: WHITE }), /under renju black moves first/);
  assert.throws(() => Game.fromRecord({ moves: [], size: 15, rule: "renju", first: WHITE }), /black moves first/);
  assert.throws(() => parseFragment("#moves=h8&rule=renju&first=white"), /under renju black moves first/);
  assert.equal(Game.newGame({ rule: "standard", first: WHITE }).first, WHITE);
});

test("a record with a forbidden black move does not open; a good one opens in renju", () => {
  for (const size of SIZES) {
    const { moves, point } = doubleThree(size);
    const record = { moves: [...moves, point], size, rule: "renju", first: BLACK };
    assert.throws(() => Game.fromRecord(record), /move 9 \(g\d+\) is forbidden for black: double three/);
    const g = Game.fromRecord({ ...record, moves });
    assert.equal(g.rule, "renju");
    assert.equal(Game.forbiddenPoints(g).size, 1);
    // under standard the same record is fine
    assert.equal(Game.fromRecord({ ...record, rule: "standard" }).moves.length, 9);
  }
});

test("share links and .psq files round-trip a renju game on several sizes", () => {
  for (const size of SIZES) {
    const { moves } = doubleThree(size);
    const frag = toFragment({ moves, size, rule: "renju", first: BLACK });
    assert.match(frag, new RegExp(`&rule=renju&size=${size}$`));
    assert.deepEqual(parseFragment("#" + frag), { moves, size, rule: "renju", first: BLACK });
    const psq = toPsq(moves, size, [], "renju");
    assert.deepEqual(parsePsq(psq), { moves, size, rule: "renju" });
    assert.deepEqual(parsePsq(psq, "freestyle", WHITE), { moves, size, rule: "renju" }, "the file's rule wins");
    // the record opens as a renju game, marks and all
    const g = Game.fromRecord({ ...parsePsq(psq), first: BLACK });
    assert.equal(g.rule, "renju");
    assert.deepEqual(names(Game.forbiddenPoints(g), size), [`g${size - 5}:double three`]);
  }
});

test("stored renju games and finished games reopen in renju; a forbidden move is not read", () => {
  for (const size of SIZES) {
    const { moves, point } = doubleThree(size);
    const g = Game.goTo(playList(Game.newGame({ size, rule: "renju", human: WHITE }), moves), 6);
    const storage = new FakeStorage();
    save(storage, KEYS.game, encodeGame(g));
    const entry = historyEntry({ ...g, moves }, "draw", new Date("2025-01-02T03:04:05Z"));
    save(storage, KEYS.history, encodeHistory(addToHistory([], entry)));
    const back = loadAll(storage);
    assert.deepEqual(back.game, g);
    assert.deepEqual(back.notices, []);
    assert.equal(back.history[0].rule, "renju");
    assert.deepEqual(back.history[0].moves, moves);

    // a stored game whose black player sits on a forbidden point is discarded, with a notice
    const bad = new FakeStorage();
    save(bad, KEYS.game, { ...encodeGame(g), moves: [...moves, point] });
    save(bad, KEYS.history, [
      { ...encodeHistory([entry])[0] },
      { ...encodeHistory([entry])[0], moves: encodeHistory([{ ...entry, moves: [...moves, point] }])[0].moves },
      { ...encodeHistory([entry])[0], first: WHITE },
    ]);
    const got = loadAll(bad);
    assert.equal(got.game, null);
    assert.deepEqual(got.notices, ["corruptGame", "droppedHistory"]);
    assert.equal(got.history.length, 1);
    // the same moves under standard are a good stored game
    save(bad, KEYS.game, { ...encodeGame(g), rule: "standard", moves: [...moves, point] });
    assert.equal(loadAll(bad).game.moves.length, 9);
  }
});
