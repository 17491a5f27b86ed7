// node --test: web/engine/review-run.js (a game reviewed to its end outside the job runner, as
// the puzzles page does for Learn from your mistakes) with a fake engine that answers with the
// worker's own answers for a short game (fixtures/review-answers.json).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";

import { reviewToEnd } from "../../../web/engine/review-run.js";
import * as Game from "../../../web/model/game.js";
import { parseMoves } from "../../../web/model/records.js";
import { DEFAULT_NODES, addAnswer, isComplete, newReview, requestMs } from "../../../web/model/review.js";
import { BLACK } from "../../../web/model/rules.js";

const FIXTURE = JSON.parse(readFileSync(new URL("./fixtures/review-answers.json", import.meta.url), "utf8"));
const GAME = Game.fromRecord({ moves: parseMoves(FIXTURE.game, 15), size: 15, rule: "freestyle", first: BLACK });

// an engine that answers review requests from the fixture, and what it was asked
function fakeEngine() {
  const asked = [];
  const request = async (message, deadlineMs) => {
    asked.push({ index: message.index, nodes: message.nodes, deadlineMs });
    return FIXTURE.answers[message.index];
  };
  return { asked, request };
}

test("every position in order, with progress before each; the review is complete", async () => {
  const { asked, request } = fakeEngine();
  const seen = [];
  const review = await reviewToEnd({ request, game: GAME, onProgress: (p) => seen.push(p.done) });
  assert.equal(isComplete(review), true);
  assert.deepEqual(asked.map((a) => a.index), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.ok(asked.every((a) => a.nodes === DEFAULT_NODES));
  assert.deepEqual(seen, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.equal(review.moves[6].cls, "blunder");
  // a generous deadline: 3x the step's time + 10 s
  assert.equal(asked[1].deadlineMs, requestMs(DEFAULT_NODES) * 3 + 10000);
});

test("a review stored part-way goes on where it stopped (its first request given the time of all before it)", async () => {
  const part = FIXTURE.answers.slice(0, 4).reduce((r, a) => addAnswer(r, a, GAME), newReview(GAME));
  const { asked, request } = fakeEngine();
  const review = await reviewToEnd({ request, game: GAME, review: part });
  assert.deepEqual(asked.map((a) => a.index), [4, 5, 6, 7, 8, 9]);
  assert.equal(asked[0].deadlineMs, requestMs(DEFAULT_NODES) * 5 * 3 + 10000);
  assert.equal(isComplete(review), true);
  // another budget's review is not resumed: a new one
  const again = fakeEngine();
  await reviewToEnd({ request: again.request, game: GAME, review: part, nodes: 3000 });
  assert.deepEqual(again.asked.map((a) => a.index), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
});

test("stopped when no longer wanted; an error reply throws with its message", async () => {
  const { asked, request } = fakeEngine();
  let left = 3;
  const review = await reviewToEnd({ request, game: GAME, wanted: () => left-- > 0 });
  assert.equal(review, null);
  assert.ok(asked.length < 10, String(asked.length));
  const failing = async () => ({ type: "error", message: "nodes must be an integer" });
  await assert.rejects(reviewToEnd({ request: failing, game: GAME }), /nodes must be an integer/);
  const wrong = async (m) => ({ ...FIXTURE.answers[m.index], index: m.index + 1 });
  await assert.rejects(reviewToEnd({ request: wrong, game: GAME }), /reviewed position 1, expected 0/);
});
