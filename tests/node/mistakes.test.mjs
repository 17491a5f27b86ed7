// node --test: web/model/mistakes.js (learn from your mistakes) on a planted reviewed game.
import assert from "node:assert/strict";
import test from "node:test";

import { exercises, firstLook, judged } from "../../web/model/mistakes.js";

// A planted game: black (the player) h8, white i9, black j10?? (a blunder: better g8),
// white k11, black c3?! (an inaccuracy: better l12); white's flagged move is not ours.
const game = {
  size: 15, rule: "freestyle", first: 1, human: 1, level: 3, seed: 0, cursor: 5, recorded: false,
  moves: [[7, 7], [8, 6], [9, 5], [10, 4], [2, 12]],
};
const review = {
  nodes: 12000, total: 5, black: [0.55, 0.58, 0.5, 0.2, 0.3, 0.18], summary: null,
  moves: [
    null,
    { cls: "best", better: null, line: [] },
    { cls: "mistake", better: [6, 7], line: [[6, 7]] }, // white's: not the player's
    { cls: "blunder", better: [6, 7], line: [[6, 7], [5, 7]] },
    { cls: "good", better: null, line: [] },
    { cls: "inaccuracy", better: [11, 3], line: [[11, 3]] },
  ],
};

test("the exercises are the player's flagged moves, each before the move", () => {
  const ex = exercises(game, review);
  assert.deepEqual(ex.map((e) => [e.index, e.cls]), [[3, "blunder"], [5, "inaccuracy"]]);
  assert.deepEqual(ex[0].moves, [[7, 7], [8, 6]]);
  assert.deepEqual(ex[0].played, [9, 5]);
  assert.equal(ex[0].before, 0.5); // black's chance after 2 moves
  assert.deepEqual(exercises({ ...game, human: 2 }, review).map((e) => e.index), [2]);
  assert.equal(exercises({ ...game, human: 2 }, review)[0].before, 1 - 0.58);
  assert.deepEqual(exercises(game, null), []);
});

test("the better move is accepted, the move played refused, others judged by their chance", () => {
  const [blunder] = exercises(game, review);
  assert.equal(firstLook(blunder, [6, 7]), "accept");
  assert.equal(firstLook(blunder, [9, 5]), "refuse");
  assert.equal(firstLook(blunder, [3, 3]), "ask");
  assert.equal(judged(blunder, 0.45), true); // a drop of 0.05: as good
  assert.equal(judged(blunder, 0.35), false); // a drop of 0.15: not
  const missed = { ...blunder, cls: "missed_win", before: 1 };
  assert.equal(judged(missed, 1), true);
  assert.equal(judged(missed, 0.95), false); // good, but no longer a win
  const asWhite = { ...blunder, colour: 2, before: 0.6 };
  assert.equal(judged(asWhite, 0.45), true); // white's chance 0.55
});
