// The game review as one job of the engine-job runner (jobs.js): a series of review
// requests, position 0, 1, ... total of the game, each answer added to the state's review
// (review.js addAnswer) as it comes, so that the graph grows and the progress bar moves.
// It starts where the review stopped (the positions already reviewed are kept: an answer
// depends on the game, the index and the budget alone). Also the review's place in the
// state: it belongs to one game (review.js reviewKey) and goes when the moves change (a
// reviewed finished game brings its review back from the finished games); it is stored
// with the game (storage.js gomoku.review.v1) and, once complete, with the game's entry
// in the finished games.
//
// While it runs the board stays the player's: browsing, undo and redo (the cursor) leave
// it running (actions.js cancels only the other jobs then); a change of the moves, a new
// game, Swap sides (the engine's move), analysis or Cancel end it. A worker that stops
// answering is replaced by the engine client; the runner reports a retry and the review
// goes on where it stopped once the new worker is ready (engineReady). An error reply,
// or a worker that keeps failing, stops it with a notice; Review starts it again.

import { msg } from "../model/i18n.js";
import {
  addAnswer, isComplete, newReview, nextIndex, requestMs, reviewInHistory, reviewKey, reviewMessage, reviewable,
  withHistoryReview,
} from "../model/review.js";
import { saveReview } from "../model/storage.js";

// store: the state; jobs: engine-jobs.js (its runner); storage: localStorage or a
// stand-in; say: {announce, notice} (messages, i18n.js); words: review-view.js's summaryWords(); stopAnalysis():
// leave analysis (a review replaces it).
export function createReviewJob({ store, jobs, storage, say, words, stopAnalysis }) {
  const runner = jobs.runner;
  const isReviewing = () => {
    const j = runner.current();
    return !!j && j.kind === "review";
  };

  // Review the game (nodes per position); quiet: a resumption after a worker restart.
  function start(nodes, quiet = false) {
    const s = store.get();
    if (!reviewable(s.game) || s.engine.state !== "ready" || s.engineError) return false;
    if (s.analysing) stopAnalysis();
    const game = store.get().game;
    const key = reviewKey(game);
    const old = store.get().review;
    const review = old && old.key === key && old.nodes === nodes ? old : newReview(game, nodes);
    if (isComplete(review)) return false;
    store.update({ review: { ...review, error: null, resume: false } });
    if (!quiet) {
      say.announce(msg("rvStarted"));
      say.notice("");
    }
    let first = true;
    runner.start({
      kind: "review", key, replyType: "review",
      next() {
        const r = store.get().review;
        const i = r && r.key === key ? nextIndex(r) : null;
        if (i === null) return null;
        // A worker new to the game (a restart, a reload) reviews positions 0..i first,
        // in order (a later position can change an earlier move): its first request gets
        // the time of all of them.
        const ms = first ? requestMs(nodes) * (i + 1) : requestMs(nodes);
        first = false;
        return { message: reviewMessage(game, i, nodes), ms };
      },
      onReply(reply) {
        store.update((st) => ({ ...st, review: addAnswer(st.review, reply, game) })); // throws on a bad answer
      },
      onDone() {
        const r = store.get().review;
        if (!r || r.key !== key || !isComplete(r)) return;
        store.update((st) => ({ ...st, finished: withHistoryReview(st.finished, r) }));
        say.announce(words());
      },
    });
    return true;
  }

  function cancel() {
    if (!isReviewing()) return;
    runner.cancel();
    say.announce(msg("rvCancelled"));
  }

  // The runner's failure of a review job (engine-jobs.js passes it on): a worker replaced
  // after a timeout (retrying): go on once it is ready; anything else: stop, say why.
  function failed(err, { retrying }) {
    const message = String((err && err.message) || err);
    const mark = (patch) => store.update((st) => (st.review ? { ...st, review: { ...st.review, ...patch } } : st));
    if (retrying) {
      mark({ resume: true });
      say.notice(msg("rvRestart"), "warn");
      return;
    }
    mark({ error: message, resume: false });
    say.notice(msg("rvFailed", { err: message }), "error");
  }

  // The engine is ready (again): a review cut short by a worker restart goes on.
  function engineReady() {
    const s = store.get();
    if (!s.review || !s.review.resume || runner.busy()) return;
    if (s.review.key !== reviewKey(s.game)) return;
    start(s.review.nodes, true);
  }

  // The review follows its game: when the moves change it goes (its job ends); a game
  // that is a finished game with a review gets that review.
  store.subscribe((s, prev) => {
    if (s.game === prev.game) return;
    if (s.review && s.review.key === reviewKey(s.game)) return;
    if (isReviewing()) runner.cancel();
    store.update({ review: reviewInHistory(s.finished, s.game) });
  });
  // ... and is stored with it
  store.subscribe((s, prev) => {
    if (s.review !== prev.review) saveReview(storage, s.review, s.game);
  });

  return { start, cancel, failed, engineReady, isReviewing };
}
