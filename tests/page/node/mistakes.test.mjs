// node --test: web/model/mistakes.js (learn from your mistakes): the exercises of a planted
// reviewed game and their judging; which game to learn from, whether the game page offers
// it, and what is read and kept in the storage.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";

import * as Game from "../../../web/model/game.js";
import { exercises, firstLook, gameToLearnFrom, judged, keepReview, learnOffered, readStored } from "../../../web/model/mistakes.js";
import { parseMoves } from "../../../web/model/records.js";
import { addAnswer, encodeReview, isComplete, newReview, reviewKey } from "../../../web/model/review.js";
import { BLACK, WHITE } from "../../../web/model/rules.js";
import { KEYS, encodeGame, encodeHistory, historyEntry } from "../../../web/model/storage.js";

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

// ---- which game, whether offered, what is stored: on the worker's answers for a short game
// (fixtures/review-answers.json: white's j9, move 6, a blunder with the better move k8;
// black wins at move 9)

const FIXTURE = JSON.parse(readFileSync(new URL("./fixtures/review-answers.json", import.meta.url), "utf8"));
const SHORT = Game.fromRecord({ moves: parseMoves(FIXTURE.game, 15), size: 15, rule: "freestyle", first: BLACK });
const reviewOf = (g, n = FIXTURE.answers.length) => FIXTURE.answers.slice(0, n).reduce((r, a) => addAnswer(r, a, g), newReview(g));
const asWhite = Game.withHuman(SHORT, WHITE); // the player lost, with white's j9 to learn from

function memoryStorage(items = {}) {
  const map = new Map(Object.entries(items));
  return {
    getItem: (k) => (map.has(k) ? map.get(k) : null), setItem: (k, v) => map.set(k, String(v)), removeItem: (k) => map.delete(k),
    map,
  };
}

test("the game to learn from: the stored game's review with exercises, else the last finished game", () => {
  // the stored game, over, not reviewed: it, to be reviewed
  assert.deepEqual(gameToLearnFrom({ game: asWhite, review: null, history: [] }), { game: asWhite, review: null });
  // reviewed part-way, nothing of the player's yet: the same game with that review (to go on)
  const part = reviewOf(asWhite, 4);
  assert.equal(gameToLearnFrom({ game: asWhite, review: part, history: [] }).review, part);
  // a game in progress: the last finished game of the list (not an unfinished one), with its review
  const playing = Game.newGame();
  const done = { ...historyEntry(asWhite, "black", new Date(0)), review: encodeReview(reviewOf(asWhite), 15) };
  const kept = historyEntry(Game.play(playing, 7, 7), "unfinished", new Date(1));
  const found = gameToLearnFrom({ game: playing, review: null, history: [done, kept] });
  assert.deepEqual(found.game.moves, asWhite.moves);
  assert.equal(found.game.human, WHITE);
  assert.equal(exercises(found.game, found.review).length, 1);
  assert.equal(gameToLearnFrom({ game: playing, review: null, history: [kept] }), null, "no finished game");
  assert.equal(gameToLearnFrom({}), null);
  // a game not over (opened from a record, say) reviewed with mistakes of the player's: that one
  const planted = { ...review, key: reviewKey(game) };
  assert.deepEqual(gameToLearnFrom({ game, review: planted, history: [done] }), { game, review: planted });
});

test("offered after a game only when there is something to learn", () => {
  // lost, not reviewed: offered (the puzzles page reviews it); reviewed: one exercise
  assert.equal(learnOffered(asWhite, null), true);
  assert.equal(learnOffered(asWhite, reviewOf(asWhite)), true);
  // won and reviewed with nothing of the player's flagged: not offered; won, not reviewed: not
  assert.equal(exercises(SHORT, reviewOf(SHORT)).length, 0);
  assert.equal(learnOffered(SHORT, reviewOf(SHORT)), false);
  assert.equal(learnOffered(SHORT, null), false);
  // a review part-way: offered once it has found an exercise, not before
  assert.equal(learnOffered(asWhite, reviewOf(asWhite, 5)), true, "lost: offered before the review gets there");
  assert.equal(learnOffered(SHORT, reviewOf(SHORT, 5)), false);
  // a game in progress: not offered; another game's review does not count
  assert.equal(learnOffered(Game.newGame(), null), false);
  assert.equal(learnOffered(SHORT, reviewOf(asWhite)), false);
});

test("a game of two players on this device is nobody's own: never learnt from, never offered", () => {
  const two = { ...asWhite, twoPlayers: true }; // lost by white, with white's j9 flagged
  const reviewed = reviewOf(two);
  assert.equal(exercises(two, reviewed).length, 1); // (the review itself finds the move)
  assert.equal(learnOffered(two, null), false);
  assert.equal(learnOffered(two, reviewed), false);
  // the stored two-player game, over and reviewed, is passed over for the last game against the engine
  const mine = { ...historyEntry(asWhite, "black", new Date(0)), review: encodeReview(reviewOf(asWhite), 15) };
  const theirs = { ...historyEntry(two, "black", new Date(1)), review: encodeReview(reviewed, 15) };
  assert.equal(theirs.twoPlayers, true);
  const found = gameToLearnFrom({ game: two, review: { ...reviewed, key: reviewKey(two) }, history: [mine, theirs] });
  assert.equal(found.game.twoPlayers, undefined);
  assert.equal(found.game.human, WHITE);
  assert.equal(exercises(found.game, found.review).length, 1);
  assert.equal(gameToLearnFrom({ game: two, review: null, history: [theirs] }), null, "only two-player games");
});

test("the stored game, review and finished games are read without a change; a review made elsewhere is kept", () => {
  const entry = historyEntry(asWhite, "black", new Date(0));
  const storage = memoryStorage({
    [KEYS.game]: JSON.stringify(encodeGame(asWhite)), [KEYS.history]: JSON.stringify(encodeHistory([entry])),
  });
  const before = new Map(storage.map);
  const stored = readStored(storage);
  assert.deepEqual(stored.game.moves, asWhite.moves);
  assert.equal(stored.review, null);
  assert.equal(stored.history.length, 1);
  assert.deepEqual(storage.map, before, "nothing written");
  // a complete review: with the stored game and with its finished game
  const review = reviewOf(asWhite);
  keepReview(storage, asWhite, review);
  const again = readStored(storage);
  assert.equal(isComplete(again.review), true);
  assert.deepEqual(again.review.black, review.black.map((b) => Math.round(b * 10000) / 10000));
  assert.deepEqual(JSON.parse(storage.getItem(KEYS.history))[0].review, encodeReview(review, 15));
  // a list the page could not read all of is left for the game page to mend
  const broken = memoryStorage({ [KEYS.history]: JSON.stringify([{ date: 1 }, encodeHistory([entry])[0]]) });
  const raw = broken.getItem(KEYS.history);
  keepReview(broken, asWhite, review);
  assert.equal(broken.getItem(KEYS.history), raw);
  // unreadable storage: nothing, no throw
  assert.deepEqual(readStored(memoryStorage({ [KEYS.game]: "{", [KEYS.history]: "[" })), { game: null, review: null, history: [] });
});
