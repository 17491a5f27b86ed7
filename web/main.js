// The page's bootstrap: reads the URL parameters and what is stored, makes the state's
// store and the page's parts, wires them together and starts the engine.
//
//   state.js, store.js       the state (plain data, pure changes) and its subscribers:
//                            persistence (localStorage), settings-panel (theme, language),
//                            view (the page)
//   engine-jobs.js, jobs.js  the engine's jobs (move, hint, analysis) on the one runner
//   actions.js, input.js     the player's actions, and the pointer, keys and controls
//   view.js, think-view.js, analysis-view.js, status.js   what the page shows and says
//   review-job.js, review-view.js   the game review: its job, its card, graph and marks
//   new-game-dialog.js, records-dialog.js, settings-panel.js   the dialogs and settings
//   clock.js, clock-view.js, undo-dialog.js   the game clock, and undo by agreement

import { createActions, randomSeed } from "./ui/actions.js";
import { setupAnalysisView } from "./ui/analysis-view.js";
import { BoardView } from "./ui/board.js";
import { setupClockView } from "./ui/clock-view.js";
import { setupCoachView } from "./ui/coach-view.js";
import { centre } from "./model/coords.js";
import { createEngineJobs } from "./engine/engine-jobs.js";
import * as Game from "./model/game.js";
import { msg } from "./model/i18n.js";
import { setupInput } from "./ui/input.js";
import { setupLoadProgress } from "./ui/load-progress.js";
import { setupNewGameDialog } from "./ui/new-game-dialog.js";
import { setupOpeningView } from "./ui/opening-view.js";
import { registerOffline } from "./ui/offline.js";
import { ParallelEngineClient } from "./engine/parallel-client.js";
import { readParams } from "./model/params.js";
import { setupRecordsDialog } from "./ui/records-dialog.js";
import { createReviewJob } from "./engine/review-job.js";
import { setupReviewView } from "./ui/review-view.js";
import { setupSettingsPanel } from "./ui/settings-panel.js";
import { threadsFor } from "./model/settings.js";
import { initialState, persistence, positionKey, shownOf } from "./model/state.js";
import { colorWord } from "./model/status.js";
import { loadAll } from "./model/storage.js";
import { createStore } from "./model/store.js";
import { setupThinkView } from "./ui/think-view.js";
import { setupUndoDialog } from "./ui/undo-dialog.js";
import { createView } from "./ui/view.js";

const params = readParams(location.search);
const canvas = document.querySelector("#board");
// The game clock's time source (clock.js's `now`): the page's monotonic clock, plus what
// the test hook moved it on by (?test=1: gomokuTest.advanceClock).
let clockOffset = 0;
const clockNow = () => performance.now() + clockOffset;

// localStorage, or a stand-in that remembers nothing when the browser refuses storage
const storage = (() => {
  try {
    return window.localStorage;
  } catch {
    return { getItem: () => null, setItem() {}, removeItem() {} };
  }
})();
const stored = loadAll(storage);
// nothing stored: a first game, with its own seed; the stored game's review (review.js)
const store = createStore({
  ...initialState({ ...stored, game: stored.game ?? Game.newGame({ seed: randomSeed() }) }),
  review: stored.review,
});
const board = new BoardView(canvas, store.get().game.size);
board.cursor = centre(store.get().game.size);

// ---- the engine: the engine worker, and with threads >= 2 that many search workers ----

const workerUrl = new URL("engine/worker.js", location.href);
if (params.test) workerUrl.searchParams.set("test", "1");
if (!params.snapshot) workerUrl.searchParams.set("snapshot", "0");
const searchWorkerUrl = new URL(workerUrl);
searchWorkerUrl.searchParams.set("role", "search");
const loadProgress = setupLoadProgress({
  canvas, box: document.querySelector("#load-progress"), bar: document.querySelector("#load-bar"),
  label: document.querySelector("#load-pct"), announce: (message) => say.announce(message),
});
const engine = new ParallelEngineClient({
  workerUrl: workerUrl.href,
  searchWorkerUrl: searchWorkerUrl.href,
  threads: threadsFor(store.get().settings, params.threads),
  testMode: params.test,
  onWorkers: (workers) => store.update({ workers }),
  onState: (state, detail) => {
    loadProgress.state(state, detail);
    jobs.engineState(state, detail);
  },
  onProgress: (msg) => loadProgress.progress(msg),
});

// ---- the parts ---------------------------------------------------------------------------

const analysisView = setupAnalysisView({
  canvas,
  count: () => store.get().settings.analysisMoves,
  setCount: (n) => store.update((s) => ({ ...s, settings: { ...s.settings, analysisMoves: n } })),
  context() {
    const s = store.get();
    return {
      analysing: s.analysing, key: positionKey(s), size: s.game.size, stm: Game.sideToMove(s.game), colorWord,
      blocked: (x, y) => Game.illegalReason(s.game, x, y, shownOf(s.game).pos),
    };
  },
  play: (x, y) => actions.humanPlay(x, y),
  onChange: () => view.drawBoard(),
  onCount: () => actions.analysisCountChanged(),
});
const think = setupThinkView({ store, onHover: () => view.render() });
const reviewView = setupReviewView({
  store, goTo: (n) => actions.goTo(n), start: (nodes) => review.start(nodes), cancel: () => review.cancel(),
});
// the coach's requests go with the engine's jobs (jobs.js aside: one request at a time)
// (?deadline= sets their hard deadline too)
const coachView = setupCoachView({ store, ask: (message, ms) => jobs.runner.aside(message, params.deadline ?? ms) });
const openingView = setupOpeningView({ actions: { openingAction: (a) => actions.openingAction(a) } });
const view = createView({ store, board, think, analysisView, reviewView, coachView, openingView });
const say = { announce: view.announce, notice: view.notice };
const jobs = createEngineJobs({
  store, engine, params, analysisView, say,
  onReady() {
    // the service worker (offline.js: registered the first time only)
    registerOffline({
      onReady() { canvas.dataset.offline = "ready"; },
      onUpdate() { say.notice(msg("updated"), "info"); },
    });
    window.setTimeout(() => {
      review.engineReady(); // a review cut short by a worker restart goes on
      actions.resume();
    }, 0);
  },
  onReviewFailure: (err, info) => review.failed(err, info),
  clockNow,
  onFlag: () => actions.flagFell(),
});
const undoDialog = setupUndoDialog();
const actions = createActions({
  store, jobs, analysisView, say, reviewWords: (n) => reviewView.words(n), now: clockNow, confirmUndo: undoDialog.ask,
});
const clockView = setupClockView({ store, now: clockNow, onFlag: () => actions.flagFell() });
const review = createReviewJob({
  store, jobs, storage, say, words: () => reviewView.summaryWords(), stopAnalysis: () => actions.setAnalysis(false),
});

const settingsPanel = setupSettingsPanel({ store, engine, threadsOverride: params.threads });

store.subscribe(persistence(storage));
store.subscribe(settingsPanel.follow);
store.subscribe((s, prev) => { if (s.settings.lang !== prev.settings.lang) view.silence(); });
store.subscribe(view.update);
store.subscribe(coachView.follow);
store.subscribe(clockView.follow);
coachView.bind();

setupInput({ store, board, view, analysisView, actions });
setupNewGameDialog({ getGame: () => store.get().game, getResults: () => store.get().results, newGame: actions.newGame });
setupRecordsDialog({
  getGame: () => store.get().game, getHistory: () => store.get().finished, loadRecord: (r) => actions.loadRecord(r),
  announce: say.announce,
});
window.addEventListener("hashchange", actions.openFragment);
const resizeObserver = new ResizeObserver(() => board.resize());
resizeObserver.observe(canvas);
window.addEventListener("resize", () => board.resize());

// what loadAll mended or dropped, said once
function showStoredNotices(notices) {
  if (notices.length) say.notice(notices.map((n) => (typeof n === "string" ? msg(n) : msg(n.key, n.vars))), "warn");
}

// ---- test hooks (only with ?test=1) ------------------------------------------------------

if (params.test) {
  window.gomokuTest = {
    hang() { engine.postRaw({ type: "debug-hang" }); },
    send(data, id = null, deadlineMs = 30000) { return engine.rawRequest(data, id, deadlineMs); },
    state() {
      const s = store.get();
      const { pos } = shownOf(s.game);
      return {
        game: { ...structuredClone(s.game), line: pos.line, winner: pos.winner },
        engine: engine.state, restarts: engine.restarts, thinking: !!s.job && s.job.kind === "move",
        job: s.job ? s.job.kind : null, analysing: s.analysing, info: s.info ? { ...s.info } : null,
        ready: engine.info ? structuredClone(engine.info) : null, // the worker's ready message
        finished: structuredClone(s.finished),
      };
    },
    review: () => structuredClone(store.get().review),
    // The game clock's time source moved on by ms (as if that much time passed), and a
    // tick at once: a flag due falls now.
    advanceClock(ms) {
      clockOffset += ms;
      clockView.tick();
    },
    clockNow,
    // A first visit's page again without a reload, the engine's workers kept (a reload
    // starts Pyodide anew, seconds): the browser tests' warm page calls it between tests.
    // With items: the page as loaded with exactly these localStorage items (read, mended,
    // noticed and resumed as at start; the storage left as the load leaves it).
    reset(items = null) {
      if (review.isReviewing()) review.cancel();
      jobs.cancel();
      analysisView.reset();
      coachView.reset();
      storage.clear();
      for (const [key, value] of Object.entries(items ?? {})) storage.setItem(key, value);
      const fresh = loadAll(storage);
      const left = Object.keys(storage).map((key) => [key, storage.getItem(key)]);
      store.update((s) => ({
        ...initialState({ ...fresh, game: fresh.game ?? Game.newGame({ seed: randomSeed() }) }),
        review: fresh.review, engine: s.engine, workers: s.workers, engineError: s.engineError,
      }));
      board.cursor = centre(store.get().game.size);
      engine.setThreads(threadsFor(store.get().settings, params.threads));
      store.update({ workers: engine.workers() });
      settingsPanel.apply(store.get().settings);
      for (const dialog of document.querySelectorAll("dialog[open]")) dialog.close();
      for (const d of document.querySelectorAll("details")) d.open = d.classList.contains("moves");
      say.notice("");
      say.announce("");
      view.silence();
      window.scrollTo(0, 0);
      if (!items) return;
      storage.clear(); // the store's update above wrote it all back
      for (const [key, value] of left) storage.setItem(key, value);
      showStoredNotices(fresh.notices);
      review.engineReady();
      actions.resume();
    },
  };
}

// ---- start -----------------------------------------------------------------------------------

if (navigator.serviceWorker && navigator.serviceWorker.controller) canvas.dataset.offline = "ready";
settingsPanel.apply(store.get().settings);
view.render();
clockView.follow();
showStoredNotices(stored.notices);
actions.openFragment();
board.resize();
engine.start();
