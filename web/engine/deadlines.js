// How long the page gives the engine: every think time and hard deadline of the page's
// engine requests, in one place (pure: no DOM, no clock; tests/page/node/deadlines.test.mjs).
//
// The engine keeps its own time (gomoku.search.timeman: a think's optimum and maximum
// from its timeMs / maxMs); the page only asks for a time and keeps a hard deadline that
// catches a stuck or crashed worker, well past the time the engine stops itself at.
// engine-jobs.js picks the think times, jobs.js and the engine clients enforce the
// deadlines; all of them read the numbers here.

// A running search cannot be interrupted (no SharedArrayBuffer), so open-ended thinking
// (analysis, the unlimited level) is a series of think requests of growing length (ms).
export const SLICES = [500, 1000, 2000];

// A hint: the full engine, at most this long (a maxMs promise).
export const HINT_MAX_MS = 2000;

// A think asking for ms gets this hard deadline: generous, the engine stops itself at
// about ms; this only catches a stuck worker.
export const DEADLINE_FACTOR = 3;
export const DEADLINE_EXTRA_MS = 10000;

// A node-limited level's move: the engine answers when its nodes are searched, at once on
// a fast machine for the weak levels; the page waits at least this long after asking (a
// reply that looks considered, and time to see one's own stone first).
export const LEVEL_FLOOR_MS = 500;
// Its hard deadline is that of a think of this long (3 x 20 s + 10 s): the nodes take
// what they take, on a slow phone too; the deadline only catches a stuck worker.
export const LEVEL_DEADLINE_AS_MS = 20000;
// Its nodes per second guessed (Pyodide on a laptop searches about 5,000: BENCHMARKS.md),
// only to guess when a cancelled level search would end (jobs.js: a worker with more than
// RESTART_LEFT_MS of thinking left is replaced rather than waited for).
export const LEVEL_GUESS_NPS = 5000;

// A cancelled job with more than this much thinking left is cut short by replacing the
// worker (jobs.js); with less, the page waits for the search to end.
export const RESTART_LEFT_MS = 4000;

// A request that names no deadline of its own (the engine clients' default).
export const DEFAULT_DEADLINE_MS = 30000;

// The parallel search's fallback: a think the parallel machinery failed is asked of the
// engine worker alone with what is left of the deadline, but at least twice its time plus
// this (it starts afresh).
export const FALLBACK_EXTRA_MS = 3000;
// The coordinator's "finish" after the page's hard deadline gets this long to answer.
export const FINISH_MS = 5000;

// The hard deadline of a think asking for ms; `override` (the ?deadline= test hook)
// replaces it when given.
export function deadlineFor(ms, override = null) {
  return override ?? ms * DEADLINE_FACTOR + DEADLINE_EXTRA_MS;
}

// The think time of the i-th slice (the last slice's length from then on); `override`
// (the ?slice= test hook) replaces it when given.
export function sliceMs(i, override = null) {
  return override ?? SLICES[Math.min(i, SLICES.length - 1)];
}

// A node-limited level's think: when it is guessed to end (ms after asking; only for a
// cancel's choice, see LEVEL_GUESS_NPS) and its hard deadline (`override`: ?deadline=).
export function levelThinkTimes(nodes, override = null) {
  return {
    ms: Math.ceil((nodes / LEVEL_GUESS_NPS) * 1000),
    deadlineMs: deadlineFor(LEVEL_DEADLINE_AS_MS, override),
  };
}

// The engine's turn in an opening rule (its choices: a few small searches, each of the
// worker's OPENING_NODES, gomoku.protocol.webopening): guessed as a level think of this
// many nodes, with a level think's hard deadline.
export const OPENING_GUESS_NODES = 30000;

export function openingThinkTimes(override = null) {
  return levelThinkTimes(OPENING_GUESS_NODES, override);
}

// The deadline of a parallel think retried in the engine worker alone (limits: the
// think's {timeMs | maxMs}; leftMs: what is left of its own deadline).
export function fallbackDeadline(limits, leftMs) {
  const timeMs = (limits && (limits.timeMs || limits.maxMs)) || 1000;
  return Math.max(leftMs, 2 * timeMs + FALLBACK_EXTRA_MS);
}

// ---- under a game clock ----------------------------------------------------------------
// The engine's move is bounded by what is left on its clock: the time manager caps a move
// at a quarter of it (gomoku.search.timeman CLOCK_CAP_DIVISOR) and paces it far below.
// The page expects the move by then (only for a cancel's choice, jobs.js) and keeps its
// usual hard deadline past that (deadlineFor); a flag that falls first ends the move
// anyway.
export const CLOCK_CAP_SHARE = 4;
// A node-limited level's floor (LEVEL_FLOOR_MS) under a clock: never more than this
// share of the engine's time left (a short clock is not spent on looking considered).
export const CLOCK_FLOOR_SHARE = 40;

// The think time the page expects of a move by the clock with leftMs on it.
export function clockThinkMs(leftMs) {
  return Math.max(1, Math.ceil(leftMs / CLOCK_CAP_SHARE));
}

// A node-limited level's floor with leftMs on the engine's clock.
export function clockFloorMs(leftMs) {
  return Math.max(0, Math.min(LEVEL_FLOOR_MS, Math.floor(leftMs / CLOCK_FLOOR_SHARE)));
}
