// Parallel search across several Web Workers.
//
// ParallelEngineClient is the page's EngineClient (engine-client.js: the engine worker)
// plus a pool of N search workers (worker.js?role=search, each with its own Pyodide).
// With threads >= 2 and at least two search workers ready, a "think" request becomes a
// parallel search (gomoku.parallel, scheme "lazy": search worker 0 thinks as the engine
// worker would, search worker 1 runs a plain search beside it, the coordinator plays the
// deeper result its plan allows; py/gomoku/parallel/lazy.py):
//
//   - the coordinator lives in the engine worker (gomoku.protocol.webapi's "coord" messages);
//     its replies name jobs [[worker, job], ...], which are posted to the search workers;
//   - a search worker answers each job (gomoku.parallel.run_job_json), progress answers
//     first, and every answer is relayed to the coordinator ("coord" op "result");
//   - a search worker that fails (error event, "fatal", terminated, or dropped by the
//     coordinator as hung or erring) is reported (op "failure"), terminated, and the
//     search goes on with the others; it is restarted once the search is over;
//   - a tick goes to the coordinator every 50 ms at most (deadlines, hung jobs);
//   - once done, {kind: "abort", sid} goes to the workers still busy, so that they skip
//     the queued jobs of the finished search.
//
// Nothing is shared but messages (no SharedArrayBuffer: GitHub Pages has no cross-origin
// isolation). The page's hard deadline still holds: search workers still busy then are
// terminated and the coordinator answers with its best move so far. If the parallel
// machinery fails in any other way, the request falls back to the engine worker's own
// think. With threads = 1 (or fewer than two search workers ready) every request is the
// engine worker's, exactly as without this file; so are, whatever the threads, a multi-PV
// think (analysis) and a node-limited level's think (limits {level, seed}).

import { DEFAULT_DEADLINE_MS, FINISH_MS, fallbackDeadline } from "./deadlines.js";
import { EngineClient, EngineFailure, EngineTimeout } from "./engine-client.js";
import { SearchPool } from "./search-pool.js";
import { validThreads } from "../model/settings.js";

const TICK_MS = 50;

export class ParallelEngineClient extends EngineClient {
  constructor({ searchWorkerUrl, threads = 1, onWorkers = () => {}, testMode = false, ...options }) {
    super(options);
    this.onWorkers = onWorkers;
    this.threads = validThreads(threads) ? threads : 1;
    this.pool = new SearchPool({
      workerUrl: searchWorkerUrl,
      loadTimeoutMs: this.loadTimeoutMs,
      onChange: () => this.onWorkers(this.workers()),
    });
    this.search = null; // the running parallel search: {cancel(err)}
    // searches done in parallel, search workers lost during them, requests that fell back
    // to the engine worker, deadlines hit, coordinator calls (messages to the engine worker)
    this.stats = { parallel: 0, failures: 0, fallbacks: 0, deadlines: 0, coordCalls: 0 };
    if (testMode) this._testHooks();
  }

  // {threads, ready, loading, total}: the search workers (total 0 with threads = 1)
  workers() {
    const slots = this.pool.slots;
    return {
      threads: this.threads,
      ready: slots.filter((s) => s.state === "ready").length,
      loading: slots.filter((s) => s.state === "loading").length,
      total: slots.length,
    };
  }

  start() {
    super.start();
    this.pool.resize(this._poolSize()); // no-op when the pool has its size; reports it
  }

  _poolSize() {
    return this.threads >= 2 ? this.threads : 0;
  }

  setThreads(n) {
    if (!validThreads(n) || n === this.threads) return;
    this.threads = n;
    // the search in progress (if any) ends; its request falls back to the engine worker
    if (this.search) this.search.cancel(new Error("the number of threads changed"));
    this.pool.resize(this._poolSize());
  }

  restart(error) {
    // the engine worker (and with it the coordinator) is replaced: the search is over
    if (this.search) this.search.cancel(error || new EngineFailure("engine restarted"));
    super.restart(error);
  }

  async request(message, opts = {}) {
    if (!message || message.type !== "think" || this.threads < 2) return super.request(message, opts);
    // the parallel schemes report one move: a multi-PV think (analysis) is the engine worker's;
    // a level think ({level, seed}: levels.js) is too: its move must not depend on threads
    if (message.limits && message.limits.multiPv > 1) return super.request(message, opts);
    if (message.limits && message.limits.level !== undefined) return super.request(message, opts);
    await this.whenReady();
    const slots = this.pool.ready();
    if (slots.length < 2) return super.request(message, opts);
    const started = performance.now();
    const deadlineMs = opts.deadlineMs ?? DEFAULT_DEADLINE_MS;
    const onInfo = opts.onInfo || (() => {});
    try {
      const reply = await this._parallel(message, slots, deadlineMs, onInfo, opts.scheme);
      this.stats.parallel += 1;
      return reply;
    } catch (err) {
      // the engine worker itself timed out or was replaced: as on the single-worker path
      if (err instanceof EngineTimeout || err instanceof EngineFailure) throw err;
      this.stats.fallbacks += 1;
      console.warn("parallel search failed, thinking in one worker:", String(err && err.message || err));
      const left = deadlineMs - (performance.now() - started);
      return super.request(message, { ...opts, deadlineMs: fallbackDeadline(message.limits, left) });
    }
  }

  // scheme: one of gomoku.parallel.SCHEMES (undefined: the coordinator's default)
  _parallel(message, slots, deadlineMs, onInfo, scheme) {
    const coord = (msg, ms) => {
      this.stats.coordCalls += 1;
      return EngineClient.prototype.request.call(this, { type: "coord", ...msg }, { deadlineMs: ms });
    };
    const end = performance.now() + deadlineMs;
    const left = () => Math.max(end - performance.now(), 1);
    return new Promise((resolve, reject) => {
      const run = { sid: null, done: false, busy: [], failed: new Set(), tickTimer: null };
      let chain = Promise.resolve();

      const finish = (err, result) => {
        if (run.done) return;
        run.done = true;
        clearTimeout(run.tickTimer);
        clearTimeout(deadline);
        if (this.search === search) this.search = null;
        if (this.pool.listener === listener) this.pool.listener = null;
        if (run.sid) {
          for (const w of run.busy) {
            const slot = slots[w];
            if (slot.state === "ready") slot.worker.postMessage({ kind: "abort", sid: run.sid });
          }
        }
        this.pool.revive();
        if (err) reject(err);
        else resolve(result);
      };

      const call = (msg, ms = null) => {
        chain = chain
          .then(async () => {
            if (run.done) return;
            const reply = await coord(msg, ms ?? left());
            if (run.done) return;
            if (reply.type !== "coord") throw new Error(reply.message || "unexpected reply " + reply.type);
            handle(reply);
          })
          .catch((err) => finish(err));
      };

      const fail = (w) => {
        if (run.done || run.failed.has(w)) return;
        run.failed.add(w);
        this.stats.failures += 1;
        call({ op: "failure", worker: w });
      };

      const handle = (reply) => {
        run.sid = reply.sid;
        run.busy = reply.busy;
        for (const info of reply.infos) onInfo(info);
        for (const w of reply.dropped || []) {
          // hung or erring: the coordinator gave up on it; replace it after the search
          run.failed.add(w);
          if (slots[w].state !== "dead") this.pool.kill(slots[w], "dropped by the coordinator");
        }
        for (const [w, job] of reply.jobs) {
          const slot = slots[w];
          if (slot && slot.state === "ready" && !run.failed.has(w)) slot.worker.postMessage(job);
          else fail(w);
        }
        if (reply.done) {
          finish(null, reply.result);
          return;
        }
        clearTimeout(run.tickTimer);
        const wait = reply.wait == null ? TICK_MS : Math.min(TICK_MS, Math.max(2, reply.wait * 1000 + 1));
        run.tickTimer = setTimeout(() => call({ op: "tick" }), wait);
      };

      const listener = {
        result: (slot, msg) => {
          const w = slots.indexOf(slot);
          if (w < 0 || run.done || run.failed.has(w) || msg.sid !== run.sid) return; // not this search's
          call({ op: "result", worker: w, result: msg });
        },
        failure: (slot) => {
          const w = slots.indexOf(slot);
          if (w >= 0) fail(w);
        },
      };

      const search = {
        slots,
        cancel: (err) => {
          for (const w of run.busy) if (slots[w].state === "ready") this.pool.kill(slots[w], "cancelled");
          finish(err);
        },
      };

      // The page's hard deadline: workers still at it are ended, the best so far is taken.
      const deadline = setTimeout(() => {
        if (run.done) return;
        this.stats.deadlines += 1;
        for (const w of run.busy) if (slots[w].state === "ready") this.pool.kill(slots[w], "overran the deadline");
        call({ op: "finish" }, FINISH_MS);
      }, deadlineMs);

      this.search = search;
      this.pool.listener = listener;
      const { size, rule, first, moves, limits, reset } = message;
      const start = { op: "start", moves, limits, workers: slots.length };
      if (scheme !== undefined) start.scheme = scheme;
      if (this._breakNext) { // test hook: a start the coordinator refuses
        this._breakNext = false;
        start.workers = 0;
      }
      if (size !== undefined) start.size = size;
      if (rule !== undefined) start.rule = rule;
      if (first !== undefined) start.first = first;
      if (reset !== undefined) start.reset = reset;
      call(start);
    });
  }

  // Test hooks (the page's ?test=1 only): window.gomokuParallel.
  _testHooks() {
    const pool = this.pool;
    self.gomokuParallel = {
      workers: () => this.workers(),
      stats: () => ({ ...this.stats, restarts: pool.restarts, searching: !!this.search }),
      // terminate search worker i (as a crash would end it)
      kill: (i) => { if (pool.slots[i]) pool.kill(pool.slots[i], "killed by a test"); },
      // search worker i throws: the error event its throw raises at the page, now. (A throw
      // inside the worker would reach the page only between its jobs, and in the lazy
      // scheme the helper's one job runs until about when the think answers: mostly after
      // the search, too late to test.)
      crash: (i) => {
        const worker = pool.slots[i] && pool.slots[i].worker;
        if (worker && worker.onerror) worker.onerror(new ErrorEvent("error", { message: "test hook: search worker crash", cancelable: true }));
      },
      // make the next parallel search fail at its start (its request falls back)
      breakNext: () => { this._breakNext = true; },
      // make search worker i spin forever (the coordinator sees it hang)
      hang: (i) => { if (pool.slots[i] && pool.slots[i].worker) pool.slots[i].worker.postMessage({ kind: "debug-hang" }); },
      // one think, timed: parallel when threads >= 2 and workers are ready, else single;
      // scheme: one of gomoku.parallel.SCHEMES (default: the coordinator's)
      think: async (moves, limits, deadlineMs = 120000, scheme = undefined) => {
        const t = performance.now();
        const message = { type: "think", size: 15, moves, limits, reset: true };
        const reply = await this.request(message, { deadlineMs, scheme });
        return { ms: performance.now() - t, reply, stats: { ...this.stats } };
      },
      single: async (moves, limits, deadlineMs = 120000) => {
        const t = performance.now();
        const reply = await EngineClient.prototype.request.call(this, { type: "think", size: 15, moves, limits, reset: true }, { deadlineMs });
        return { ms: performance.now() - t, reply };
      },
    };
  }
}
