// Talks to the engine worker: id -> pending request map, hard deadlines, restarts.
//
// The page owns the deadline. A worker that has not answered a request in time is
// terminated and a fresh one is started; the pending request is rejected with an
// EngineTimeout so the page can tell the user and carry on.

import { DEFAULT_DEADLINE_MS } from "./deadlines.js";

export class EngineTimeout extends Error {
  constructor(message) {
    super(message);
    this.name = "EngineTimeout";
  }
}

export class EngineFailure extends Error {
  constructor(message) {
    super(message);
    this.name = "EngineFailure";
  }
}

export class EngineClient {
  constructor({ workerUrl, onState = () => {}, onProgress = () => {}, loadTimeoutMs = 120000 }) {
    this.workerUrl = workerUrl;
    this.onState = onState;
    this.onProgress = onProgress; // the worker's {type: "progress", stage, percent} while it loads
    this.loadTimeoutMs = loadTimeoutMs;
    this.worker = null;
    this.pending = new Map(); // id -> {resolve, reject, onInfo, timer}
    this.nextId = 1;
    this.state = "idle"; // loading | ready | failed
    this.info = null; // the ready message
    this.restarts = 0;
    this._readyWaiters = [];
  }

  setState(state, detail) {
    this.state = state;
    this.onState(state, detail);
  }

  start() {
    const worker = new Worker(this.workerUrl);
    this.worker = worker;
    this.info = null;
    this.setState("loading");
    const started = performance.now();
    clearTimeout(this._loadTimer);
    this._loadTimer = setTimeout(() => {
      if (this.worker === worker && this.state === "loading") {
        this._fail(`the engine did not load within ${Math.round(this.loadTimeoutMs / 1000)} s`);
      }
    }, this.loadTimeoutMs);
    worker.onmessage = (event) => {
      if (this.worker !== worker) return; // a replaced worker's late words
      this._onMessage(event.data, started);
    };
    worker.onerror = (event) => {
      if (this.worker !== worker) return;
      event.preventDefault();
      if (this.state === "loading") this._fail("engine worker error: " + (event.message || "unknown"));
    };
  }

  _fail(message) {
    clearTimeout(this._loadTimer);
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.setState("failed", message);
    const err = new EngineFailure(message);
    for (const [, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(err);
    }
    this.pending.clear();
    for (const w of this._readyWaiters) w.reject(err);
    this._readyWaiters = [];
  }

  _onMessage(msg, started) {
    if (!msg || typeof msg !== "object") return;
    if (msg.type === "ready") {
      clearTimeout(this._loadTimer);
      this.info = { ...msg, pageLoadMs: Math.round(performance.now() - started) };
      this.setState("ready", this.info);
      for (const w of this._readyWaiters) w.resolve(this.info);
      this._readyWaiters = [];
      return;
    }
    if (msg.type === "progress") {
      if (this.state === "loading") this.onProgress(msg);
      return;
    }
    if (msg.type === "fatal") {
      this._fail("the engine failed to load: " + msg.message);
      return;
    }
    const p = this.pending.get(msg.id);
    if (!p) {
      if (msg.type === "error") console.warn("engine error without a request:", msg.message);
      return;
    }
    if (msg.type === "info") {
      p.onInfo(msg);
      return;
    }
    clearTimeout(p.timer);
    this.pending.delete(msg.id);
    p.resolve(msg); // result, status or error: the caller looks at msg.type
  }

  whenReady() {
    if (this.state === "ready") return Promise.resolve(this.info);
    if (this.state === "failed") return Promise.reject(new EngineFailure("engine failed"));
    return new Promise((resolve, reject) => this._readyWaiters.push({ resolve, reject }));
  }

  // Kill the current worker (answering all pending requests with `error`) and start anew.
  restart(error) {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.restarts += 1;
    const err = error || new EngineFailure("engine restarted");
    for (const [, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(err);
    }
    this.pending.clear();
    this.start();
  }

  // Send a message; resolves with the final reply. The deadline runs from the moment the
  // worker is ready and the message is posted.
  async request(message, { deadlineMs = DEFAULT_DEADLINE_MS, onInfo = () => {} } = {}) {
    await this.whenReady();
    const id = message.id ?? "r" + this.nextId++;
    const msg = { ...message, id };
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        if (!this.pending.has(id)) return;
        this.pending.delete(id);
        const err = new EngineTimeout(`the engine did not answer within ${(deadlineMs / 1000).toFixed(1)} s`);
        reject(err);
        this.restart(err);
      }, deadlineMs);
      this.pending.set(id, { resolve, reject, onInfo, timer });
      this.worker.postMessage(msg);
    });
  }

  // Post anything, bypassing the id bookkeeping (test hooks).
  postRaw(data) {
    if (this.worker) this.worker.postMessage(data);
  }

  // Resolve with the next message carrying `id` that is a final reply (test hooks).
  async rawRequest(data, id, deadlineMs = DEFAULT_DEADLINE_MS) {
    await this.whenReady();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new EngineTimeout("no reply"));
      }, deadlineMs);
      this.pending.set(id, { resolve, reject, onInfo: () => {}, timer });
      this.worker.postMessage(data);
    });
  }
}
