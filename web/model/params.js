// The page's URL parameters, read once: the test hooks and the overrides the tests and
// tools use. Pure: it is handed the query string.
//
//   ?test=1        window.gomokuTest and the worker's debug messages (main.js)
//   ?time=MS       the think time of every level (20..60000)
//   ?deadline=MS   the hard deadline of every engine request (500..600000)
//   ?slice=MS      the length of each analysis / unlimited-level search (50..10000)
//   ?threads=N     search workers for this visit, not saved (1..MAX_THREADS)
//   ?snapshot=0    the workers start Pyodide without the build's snapshot (worker.js)
// A number out of range is clamped; a missing or unreadable one is null (no override).

import { MAX_THREADS } from "./settings.js";

export function readParams(search) {
  const params = new URLSearchParams(search);
  const int = (name, lo, hi) => {
    const v = Number.parseInt(params.get(name) ?? "", 10);
    return Number.isFinite(v) ? Math.min(hi, Math.max(lo, v)) : null;
  };
  return {
    test: params.get("test") === "1",
    time: int("time", 20, 60000),
    deadline: int("deadline", 500, 600000),
    slice: int("slice", 50, 10000),
    threads: int("threads", 1, MAX_THREADS),
    snapshot: params.get("snapshot") !== "0",
  };
}
