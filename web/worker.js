/* Engine worker: runs the Python engine in Pyodide, self-hosted under ./pyodide/.
 *
 * Thin on purpose: every message goes to gomoku.protocol.webapi.handle_json (plain Python, tested in
 * CPython), whose replies are posted back. Replies echo the message's id.
 *
 *   worker -> page  {type:"ready", version, build, pyodide, loadMs}     once, when usable
 *                   {type:"fatal", message}                            loading failed
 *                   {type:"info"|"result"|"status"|"error", id, ...}   answers
 *
 * Test hook: when the worker URL has test=1 (the page passes it on from its own ?test=1),
 * {type:"debug-hang"} makes the worker spin forever, so tests can check that the page
 * notices and replaces it.
 *
 * With role=search in its URL the worker is a search worker of a parallel search
 * (gomoku.parallel; the page's parallel-client.js drives it): every message is a job,
 * answered by gomoku.parallel.run_job_json in the order received (a job may post
 * progress answers before its final one), except {kind:"abort", sid}, which drops the
 * queued jobs of that search (the running one cannot be interrupted). It posts
 * {type:"ready", role:"search", ...} once loaded. Test hooks (test=1): {kind:"debug-throw"}
 * throws (an error event at the page), {kind:"debug-hang"} spins forever.
 */
"use strict";

const params = new URL(self.location.href).searchParams;
const TEST_MODE = params.get("test") === "1";
const ROLE = params.get("role") === "search" ? "search" : "engine";
const t0 = performance.now();

importScripts("pyodide/pyodide.js");

let handleJson = null;
const backlog = [];

function post(msg) {
  self.postMessage(msg);
}

function idOf(data) {
  if (data && typeof data === "object" && !Array.isArray(data)) {
    const id = data.id;
    if ((typeof id === "string" && id.length > 0 && id.length <= 128) || Number.isSafeInteger(id)) {
      return id;
    }
  }
  return null;
}

function answer(data) {
  if (TEST_MODE && data && data.type === "debug-hang") {
    // Simulates an engine stuck in a long computation: never yields, never answers.
    for (;;) { /* spin */ }
  }
  let text;
  try {
    text = JSON.stringify(data);
  } catch (err) {
    text = undefined;
  }
  if (typeof text !== "string") {
    post({ type: "error", id: idOf(data), message: "message is not JSON-serialisable" });
    return;
  }
  try {
    const reply = handleJson(text, (infoText) => post(JSON.parse(infoText)));
    post(JSON.parse(reply));
  } catch (err) {
    post({ type: "error", id: idOf(data), message: "worker error: " + String(err && err.message || err) });
  }
}

// ---- search worker (role=search) ----------------------------------------------------

let runJob = null; // gomoku.parallel.run_job_json once loaded
let jobs = []; // received, not yet run
const aborted = []; // sids of finished searches (the last few)
let scheduled = false;
const tick = new MessageChannel(); // runs the next job as a task of its own: messages
tick.port1.onmessage = runNextJob; // that arrived meanwhile (an abort) are seen first

function scheduleJob() {
  if (!scheduled && runJob !== null && jobs.length) {
    scheduled = true;
    tick.port2.postMessage(0);
  }
}

function runNextJob() {
  scheduled = false;
  for (const m of jobs) {
    if (m.kind === "abort" && !aborted.includes(m.sid)) {
      aborted.push(m.sid);
      if (aborted.length > 16) aborted.shift();
    }
  }
  jobs = jobs.filter((m) => m.kind !== "abort" && !aborted.includes(m.sid));
  const job = jobs.shift();
  if (job !== undefined) {
    let reply;
    try {
      reply = JSON.parse(runJob(JSON.stringify(job), (progress) => post(JSON.parse(progress))));
    } catch (err) {
      reply = { kind: job.kind, sid: job.sid, jid: job.jid, status: "error", nodes: 0,
        error: "worker error: " + String(err && err.message || err) };
    }
    post(reply);
  }
  scheduleJob();
}

function searchMessage(data) {
  if (!data || typeof data !== "object") return;
  if (TEST_MODE && data.kind === "debug-throw") throw new Error("test hook: search worker crash");
  if (TEST_MODE && data.kind === "debug-hang") for (;;) { /* spin */ }
  jobs.push(data);
  scheduleJob();
}

self.onmessage = (event) => {
  if (ROLE === "search") {
    searchMessage(event.data);
  } else if (handleJson === null) {
    backlog.push(event.data);
  } else {
    answer(event.data);
  }
};

async function loadInfo() {
  const resp = await fetch("build-info.json", { cache: "no-cache" });
  if (!resp.ok) throw new Error("build-info.json: HTTP " + resp.status);
  return resp.json();
}

async function start() {
  const phases = {};
  const mark = (name) => { phases[name] = Math.round(performance.now() - t0); };
  const indexURL = new URL("pyodide/", self.location.href).href;
  const [info, pyodide] = await Promise.all([
    loadInfo(),
    loadPyodide({ indexURL, stdout: () => {}, stderr: (s) => console.warn(s) }),
  ]);
  mark("pyodide");
  const failures = [];
  const errorCallback = (msg) => failures.push(String(msg));
  const quiet = () => {};
  // numpy (by name: found next to pyodide-lock.json, sha256 checked) and our wheel by URL,
  // in one call so they download and install side by side
  const wheelURL = new URL(info.wheel, self.location.href).href;
  await pyodide.loadPackage(["numpy", wheelURL], { messageCallback: quiet, errorCallback });
  mark("packages");
  if (failures.length) throw new Error("loading packages failed: " + failures.join("; "));

  if (ROLE === "search") {
    const par = pyodide.pyimport("gomoku.parallel");
    mark("import");
    const fn = par.run_job_json;
    // Warm up: builds the engine's tables and loads the opening book (a think on the
    // empty board asks it), as the engine worker does; "ready" means a job is fast.
    const warm = JSON.parse(fn(JSON.stringify({ kind: "think", sid: "warmup", jid: 0, size: 15, rule: 0,
      moves: [], fresh: false, limits: { time_ms: null, depth: 1 } })));
    if (warm.status !== "ok") throw new Error("search worker self-check failed: " + (warm.error || warm.status));
    mark("warmup");
    runJob = (text, emit) => fn(text, emit);
    post({ type: "ready", role: "search", build: info.build, loadMs: Math.round(performance.now() - t0), phases });
    scheduleJob();
    return;
  }
  const webapi = pyodide.pyimport("gomoku.protocol.webapi");
  mark("import");
  const fn = webapi.handle_json;
  // Warm up: the first call builds the engine's tables; "ready" means a think is fast.
  const warm = JSON.parse(fn(JSON.stringify({ type: "status", id: "warmup", moves: [] })));
  if (warm.type !== "status") throw new Error("engine self-check failed: " + (warm.message || warm.type));
  handleJson = (text, emit) => fn(text, emit);
  mark("warmup");

  const version = pyodide.runPython("import gomoku; gomoku.__version__");
  post({
    type: "ready",
    version,
    build: info.build,
    pyodide: pyodide.version,
    loadMs: Math.round(performance.now() - t0),
    phases,
  });
  while (backlog.length) answer(backlog.shift());
}

start().catch((err) => {
  post({ type: "fatal", message: String(err && err.message || err) });
});
