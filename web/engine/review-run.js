// A game reviewed to its end outside the game page's job runner: the puzzles page's
// Learn from your mistakes reviews the player's last finished game itself when no review
// of it is stored. One review request per position, in order (review.js: the same
// requests and checks as the game page's review job, review-job.js), resuming a review
// stored part-way at the same budget. No DOM: the engine is a request function.

import { deadlineFor } from "./deadlines.js";
import { DEFAULT_NODES, addAnswer, newReview, nextIndex, progress, requestMs, reviewKey, reviewMessage } from "../model/review.js";

// Reviews game (review.js) to its end and returns the complete review, or null when
// wanted() turned false meanwhile (the player went on to something else). request(message,
// deadlineMs) -> Promise of the worker's reply; review: a review of the game so far (used
// when it is this game's at these nodes), or null; onProgress({done, total, index})
// before each request. Throws on an error reply or an answer review.js refuses.
export async function reviewToEnd({ request, game, review = null, nodes = DEFAULT_NODES, onProgress = () => {}, wanted = () => true }) {
  let r = review && review.key === reviewKey(game) && review.nodes === nodes ? review : newReview(game, nodes);
  let first = true;
  for (let i = nextIndex(r); i !== null; i = nextIndex(r)) {
    if (!wanted()) return null;
    onProgress(progress(r));
    // a worker new to the game reviews positions 0..i first (review-job.js): its first
    // request gets the time of all of them
    const ms = requestMs(nodes) * (first ? i + 1 : 1);
    first = false;
    const reply = await request(reviewMessage(game, i, nodes), deadlineFor(ms));
    if (!wanted()) return null;
    if (!reply || reply.type !== "review") throw new Error((reply && reply.message) || "the engine sent no review");
    r = addAnswer(r, reply, game);
  }
  return r;
}
