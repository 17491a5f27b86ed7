// node --test: the page's think times and hard deadlines (web/engine/deadlines.js), the one place
// the engine jobs (engine-jobs.js), the job runner (jobs.js) and the engine clients take
// them from. The numbers are the ones the page kept before they moved here (README: "3 x
// think time + 10 s; a level think ... gets a 20 s think's: 70 s").
import assert from "node:assert/strict";
import test from "node:test";

import * as D from "../../../web/engine/deadlines.js";
import * as EngineJobs from "../../../web/engine/engine-jobs.js";
import * as Jobs from "../../../web/engine/jobs.js";

test("a think's hard deadline is 3 x its time + 10 s, well past the time the engine stops at", () => {
  assert.equal(D.deadlineFor(1000), 13000);
  assert.equal(D.deadlineFor(10000), 40000);
  for (const ms of [1, 500, 2000, 10000, 600000]) {
    assert.ok(D.deadlineFor(ms) >= 2 * ms + 10000, `deadline of ${ms}`);
    assert.ok(D.deadlineFor(ms + 1) > D.deadlineFor(ms));
  }
  // the ?deadline= test hook replaces it, whatever the time asked for
  assert.equal(D.deadlineFor(10000, 8000), 8000);
  assert.equal(D.deadlineFor(10000, null), 40000);
});

test("slices grow, and the last one's length holds from then on", () => {
  const lengths = [0, 1, 2, 3, 10].map((i) => D.sliceMs(i));
  assert.deepEqual(lengths, [500, 1000, 2000, 2000, 2000]);
  for (let i = 1; i < D.SLICES.length; i++) assert.ok(D.SLICES[i] > D.SLICES[i - 1]);
  assert.equal(D.sliceMs(5, 300), 300); // ?slice=
});

test("a level think: a 20 s think's deadline (70 s), its end guessed from its nodes", () => {
  const { ms, deadlineMs } = D.levelThinkTimes(30000);
  assert.equal(deadlineMs, 70000);
  assert.equal(deadlineMs, D.deadlineFor(D.LEVEL_DEADLINE_AS_MS));
  assert.equal(ms, Math.ceil((30000 / D.LEVEL_GUESS_NPS) * 1000)); // 6 s at 5,000 nodes/s
  assert.equal(D.levelThinkTimes(0).ms, 0); // the bottom rungs search nothing
  assert.equal(D.levelThinkTimes(1).ms, 1); // rounded up: never guessed to be over at once
  assert.equal(D.levelThinkTimes(30000, 8000).deadlineMs, 8000); // ?deadline=
  // the guess for the strongest level is past RESTART_LEFT_MS: a cancel replaces its worker
  assert.ok(D.levelThinkTimes(30000).ms > D.RESTART_LEFT_MS);
  assert.ok(D.LEVEL_FLOOR_MS > 0 && D.LEVEL_FLOOR_MS < D.RESTART_LEFT_MS);
});

test("a failed parallel think retried alone: what is left of its deadline, at least 2 x its time + 3 s", () => {
  assert.equal(D.fallbackDeadline({ timeMs: 1000 }, 500), 5000);
  assert.equal(D.fallbackDeadline({ maxMs: 10000 }, 500), 23000);
  assert.equal(D.fallbackDeadline({ maxMs: 10000 }, 30000), 30000);
  assert.equal(D.fallbackDeadline({ depth: 4 }, 0), 5000); // no time: as a 1 s think
  assert.equal(D.fallbackDeadline(undefined, 0), 5000);
  assert.ok(D.DEFAULT_DEADLINE_MS > D.deadlineFor(D.HINT_MAX_MS));
});

test("the engine jobs and the job runner read the same numbers", () => {
  assert.equal(EngineJobs.SLICES, D.SLICES);
  assert.equal(EngineJobs.LEVEL_FLOOR_MS, D.LEVEL_FLOOR_MS);
  assert.equal(EngineJobs.LEVEL_DEADLINE_AS_MS, D.LEVEL_DEADLINE_AS_MS);
  assert.equal(EngineJobs.LEVEL_GUESS_NPS, D.LEVEL_GUESS_NPS);
  assert.equal(Jobs.RESTART_LEFT_MS, D.RESTART_LEFT_MS);
});

test("under a game clock: the move expected within a quarter of the time left; the level's floor a small share of it", () => {
  assert.equal(D.clockThinkMs(300_000), 75_000);
  assert.equal(D.clockThinkMs(1), 1);
  assert.equal(D.clockThinkMs(0), 1);
  assert.equal(D.clockFloorMs(300_000), D.LEVEL_FLOOR_MS); // a long clock: the usual floor
  assert.equal(D.clockFloorMs(4000), 100); // 1/40 of 4 s
  assert.equal(D.clockFloorMs(0), 0);
  assert.ok(D.clockFloorMs(20_000) <= D.LEVEL_FLOOR_MS);
});
