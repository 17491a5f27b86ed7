/* Engine worker: runs the Python engine in Pyodide, self-hosted under the site's pyodide/.
 *
 * docs/PROTOCOL.md describes every message. Thin on purpose: every message goes to
 * gomoku.protocol.webapi.handle_json (plain Python, tested in CPython), whose replies are
 * posted back. Replies echo the message's id.
 *
 *   worker -> page  {type:"progress", stage, percent}                  while it loads
 *                   {type:"ready", version, build, pyodide, loadMs, start, startReason?,
 *                    marks}                                            once, when usable
 *                   {type:"fatal", message}                            loading failed
 *                   {type:"info"|"result"|"status"|"error", id, ...}   answers
 *
 * start is "snapshot" (Pyodide restored from the build's memory snapshot, build-info.json
 * `snapshot`) or "fresh" (started from scratch: no snapshot, ?snapshot=0, or it failed its
 * checks; startReason and the console say why). marks: each start-up stage's end as an
 * absolute time in ms (performance.timeOrigin + now), for scripts/bench_startup.py.
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
 * {type:"ready", role:"search", ...} once loaded. Test hook (test=1): {kind:"debug-hang"}
 * spins forever.
 */
"use strict";

const params = new URL(self.location.href).searchParams;
const TEST_MODE = params.get("test") === "1";
const ROLE = params.get("role") === "search" ? "search" : "engine";
const t0 = performance.now();
// the site's root: this script is engine/worker.js; build-info.json names its files from the root
const SITE = new URL("../", self.location.href);

importScripts(new URL("pyodide/pyodide.js", SITE).href);

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
  const resp = await fetch(new URL("build-info.json", SITE), { cache: "no-cache" });
  if (!resp.ok) throw new Error("build-info.json: HTTP " + resp.status);
  return resp.json();
}

// ---- start-up: stages, progress, the snapshot ------------------------------------------

// Each stage's end as an absolute time (performance.timeOrigin + now, ms): the page and
// scripts/bench_startup.py line them up with the page's own clock.
const marks = { script: performance.timeOrigin + t0 };
const PROGRESS = { info: 5, snapshot: 15, wasm: 45, interpreter: 60, packages: 85, import: 88, warmup: 100 };
function mark(stage) {
  marks[stage] = performance.timeOrigin + performance.now();
  if (ROLE === "engine" && stage in PROGRESS) post({ type: "progress", stage, percent: PROGRESS[stage] });
}

// The end of Pyodide's own WebAssembly instantiation (fetch + compile + instantiate of
// pyodide.asm.wasm), the first one of this worker: wrapped to time it, nothing else.
for (const name of ["instantiateStreaming", "instantiate"]) {
  const original = WebAssembly[name];
  WebAssembly[name] = function (...args) {
    const result = original.apply(this, args);
    if (!("wasm" in marks)) {
      result.then(() => {
        if ("wasm" in marks) return;
        const fetched = performance.getEntriesByType("resource").find((e) => e.name.endsWith("/pyodide.asm.wasm"));
        if (fetched) marks.wasmFetched = performance.timeOrigin + fetched.responseEnd;
        mark("wasm");
      }, () => {});
    }
    return result;
  };
}

function hex(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

// The snapshot's bytes, unpacked and checked against build-info.json: its sha256, the
// Pyodide version and build id it was made from (which must be the runtime's here: the
// version from build-info.json, the build id in the snapshot's own header). Throws the
// reason it cannot be used.
async function fetchSnapshot(info) {
  const snap = info.snapshot;
  if (snap.pyodideVersion !== info.pyodideVersion) {
    throw new Error(`made by Pyodide ${snap.pyodideVersion}, the site runs ${info.pyodideVersion}`);
  }
  if (typeof DecompressionStream !== "function") throw new Error("this browser has no DecompressionStream");
  const resp = await fetch(new URL(snap.file, SITE));
  if (!resp.ok) throw new Error(`${snap.file}: HTTP ${resp.status}`);
  const unpacked = resp.body.pipeThrough(new DecompressionStream(snap.encoding));
  const bytes = new Uint8Array(await new Response(unpacked).arrayBuffer());
  if (bytes.length !== snap.bytes) throw new Error(`${bytes.length} bytes, build-info.json says ${snap.bytes}`);
  const digest = hex(await crypto.subtle.digest("SHA-256", bytes));
  if (digest !== snap.sha256) throw new Error(`sha256 ${digest} does not match build-info.json`);
  const buildId = Array.from(new Uint32Array(bytes.buffer, 16, 8), (w) => w.toString(16).padStart(8, "0")).join("");
  if (buildId !== snap.pyodideBuildId) throw new Error(`Pyodide build id ${buildId} is not ${snap.pyodideBuildId}`);
  return bytes;
}

// Pyodide started from the build's snapshot when there is one and it checks out, else
// started afresh (the reason in the console). ?snapshot=0 on the page (passed on here)
// skips it: the tests' and the benchmark's start without it.
async function startPyodide(info) {
  const indexURL = new URL("pyodide/", SITE).href;
  const options = { indexURL, stdout: () => {}, stderr: (s) => console.warn(s) };
  let reason = "build-info.json names no snapshot";
  if (params.get("snapshot") === "0") reason = "snapshot=0 in the page's URL";
  else if (info.snapshot) {
    try {
      // a promise: loadPyodide starts fetching pyodide.asm.wasm before it waits for it
      const bytes = fetchSnapshot(info).then((b) => { mark("snapshot"); return b; });
      const pyodide = await loadPyodide({ ...options, _loadSnapshot: bytes });
      if (pyodide.version !== info.snapshot.pyodideVersion) {
        throw new Error(`the runtime is Pyodide ${pyodide.version}, the snapshot's ${info.snapshot.pyodideVersion}`);
      }
      // the snapshot's interpreter had imported `random`: its state would repeat every visit
      pyodide.runPython("import random; random.seed()");
      return { pyodide, start: "snapshot" };
    } catch (err) {
      reason = "the snapshot cannot be used: " + String(err && err.message || err);
      delete marks.snapshot;
      delete marks.wasm;
    }
  }
  console.info(`engine worker (${ROLE}): starting Pyodide without a snapshot (${reason})`);
  return { pyodide: await loadPyodide(options), start: "fresh", reason };
}

async function start() {
  const info = await loadInfo();
  mark("info");
  const { pyodide, start: startPath, reason } = await startPyodide(info);
  mark("interpreter");
  const failures = [];
  const errorCallback = (msg) => failures.push(String(msg));
  const quiet = () => {};
  // numpy (by name: found next to pyodide-lock.json, sha256 checked) and our wheel by URL,
  // in one call so they download and install side by side
  const wheelURL = new URL(info.wheel, SITE).href;
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
      moves: [], fresh: false, limits: { timeMs: null, depth: 1 } })));
    if (warm.status !== "ok") throw new Error("search worker self-check failed: " + (warm.error || warm.status));
    mark("warmup");
    runJob = (text, emit) => fn(text, emit);
    post({ type: "ready", role: "search", build: info.build, loadMs: Math.round(performance.now() - t0), start: startPath, marks });
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
    start: startPath,
    ...(reason ? { startReason: reason } : {}),
    marks,
  });
  while (backlog.length) answer(backlog.shift());
}

start().catch((err) => {
  post({ type: "fatal", message: String(err && err.message || err) });
});
