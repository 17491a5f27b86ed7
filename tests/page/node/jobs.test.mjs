// node --test: web/engine/jobs.js (the engine-job runner) with a fake engine client, a fake clock
// and a fake timer: tokens and stale answers, cancel, one request at a time, unexpected
// replies, timeouts and retries, open-ended jobs and Move now, the floor time, and a
// review-like series of requests whose worker dies mid-way.
import assert from "node:assert/strict";
import test from "node:test";

import { Cancelled, MAX_RETRIES, RESTART_LEFT_MS, createJobRunner } from "../../../web/engine/jobs.js";

class Timeout extends Error {}

// The engine client's interface; each request waits until the test answers it.
class FakeClient {
  constructor() {
    this.state = "ready";
    this.calls = []; // {message, opts, resolve, reject, info(msg)}
    this.restarts = 0;
  }
  request(message, opts) {
    return new Promise((resolve, reject) => {
      this.calls.push({ message, opts, resolve, reject, info: (m) => opts.onInfo({ type: "info", ...m }) });
    });
  }
  restart() {
    this.restarts += 1;
    for (const c of this.calls) c.reject(new Error("engine restarted"));
  }
  get last() {
    return this.calls[this.calls.length - 1];
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const result = (extra = {}) => ({ type: "result", move: [7, 7], score: { cp: 10 }, black: 0.5125, ...extra });

// A runner over a fake client; log collects what the runner reported.
function setup({ clock = { t: 0 } } = {}) {
  const client = new FakeClient();
  const log = { changes: [], failures: [], sleeps: [] };
  const sleepers = [];
  const runner = createJobRunner({
    client,
    deadlineFor: (ms) => ms * 3 + 10000,
    isTimeout: (err) => err instanceof Timeout,
    onChange: (job) => log.changes.push(job && job.kind),
    onFailure: (err, info) => log.failures.push({ message: err.message, ...info }),
    now: () => clock.t,
    sleep: (ms) => new Promise((resolve) => { log.sleeps.push(ms); sleepers.push(resolve); }),
  });
  return { client, log, runner, clock, wake: () => sleepers.splice(0).forEach((r) => r()) };
}

// A job of one request (a timed move, a hint); record: what it heard.
function single(kind = "move", ms = 1000, extra = {}) {
  const heard = { infos: [], replies: [], done: [] };
  const spec = {
    kind, key: "k",
    next: (i) => (i === 0 ? { message: { type: "think", n: i }, ms } : null),
    onInfo: (info) => heard.infos.push(info.depth),
    onReply: (reply) => heard.replies.push(reply),
    onDone: (last) => heard.done.push(last),
    ...extra,
  };
  return { spec, heard };
}

test("one request: sent with its deadline, info passed on, the answer ends the job", async () => {
  const { client, log, runner } = setup();
  const { spec, heard } = single("hint", 2000);
  runner.start(spec);
  assert.deepEqual(runner.current(), { kind: "hint", key: "k", sliced: false });
  await settle();
  assert.equal(client.calls.length, 1);
  assert.deepEqual(client.last.message, { type: "think", n: 0 });
  assert.equal(client.last.opts.deadlineMs, 16000);
  client.last.info({ depth: 3 });
  client.last.resolve(result());
  await settle();
  assert.deepEqual(heard.infos, [3]);
  assert.equal(heard.replies.length, 1);
  assert.deepEqual(heard.done, [result()]);
  assert.equal(runner.current(), null);
  assert.deepEqual(log.changes, ["hint", null]);
  assert.deepEqual(log.failures, []);
});

test("a cancelled job's info, answer and failure are ignored", async () => {
  const { client, log, runner } = setup();
  const { spec, heard } = single();
  const token = runner.start(spec);
  await settle();
  runner.cancel();
  assert.equal(runner.isCurrent(token), false);
  assert.equal(runner.busy(), false);
  client.last.info({ depth: 5 });
  client.last.resolve(result());
  await settle();
  assert.deepEqual(heard, { infos: [], replies: [], done: [] });

  const again = single();
  runner.start(again.spec);
  await settle();
  runner.cancel();
  client.last.reject(new Timeout("late"));
  await settle();
  assert.deepEqual(log.failures, []);
  assert.deepEqual(again.heard.done, []);
});

test("one request at a time: a new job's request waits for the old one's answer", async () => {
  const { client, runner } = setup();
  const a = single("move");
  const b = single("hint");
  runner.start(a.spec);
  await settle();
  runner.start(b.spec); // replaces a
  assert.equal(runner.current().kind, "hint");
  await settle();
  assert.equal(client.calls.length, 1, "b waits while a's search still runs");
  client.calls[0].resolve(result({ move: [1, 1] }));
  await settle();
  assert.equal(client.calls.length, 2);
  assert.deepEqual(a.heard.done, []);
  client.calls[1].resolve(result({ move: [2, 2] }));
  await settle();
  assert.deepEqual(b.heard.done.map((r) => r.move), [[2, 2]]);
});

test("a request whose job was forgotten while it waited is never sent", async () => {
  const { client, log, runner } = setup();
  runner.start(single("move").spec);
  await settle();
  const b = single("hint");
  runner.start(b.spec);
  runner.cancel();
  client.calls[0].resolve(result());
  await settle();
  assert.equal(client.calls.length, 1);
  assert.deepEqual(log.failures, []); // Cancelled is not a failure
  assert.ok(new Cancelled() instanceof Error);
});

test("unexpected replies are refused in one place", async () => {
  for (const [reply, message] of [
    [{ type: "error", message: "moves[0] is off the board" }, "moves[0] is off the board"],
    [{ type: "status", id: "r1" }, "unexpected reply status"],
    [null, "unexpected reply null"],
  ]) {
    const { client, log, runner } = setup();
    const { spec, heard } = single();
    runner.start(spec);
    await settle();
    client.last.resolve(reply);
    await settle();
    assert.deepEqual(heard.replies, []);
    assert.deepEqual(heard.done, []);
    assert.deepEqual(log.failures, [{ message, job: { kind: "move", key: "k", sliced: false }, retrying: false }]);
    assert.equal(runner.busy(), false);
  }
});

test("timeouts are retried MAX_RETRIES times in a row; an answer or Retry resets the count", async () => {
  const { client, log, runner } = setup();
  const timeout = async () => {
    runner.start(single().spec);
    await settle();
    client.last.reject(new Timeout("the engine did not answer"));
    await settle();
    return log.failures[log.failures.length - 1].retrying;
  };
  assert.equal(MAX_RETRIES, 2);
  assert.equal(await timeout(), true);
  assert.equal(await timeout(), true);
  assert.equal(await timeout(), false);
  runner.resetRetries();
  assert.equal(await timeout(), true);
  runner.start(single().spec);
  await settle();
  client.last.resolve(result());
  await settle();
  assert.equal(await timeout(), true);
  assert.equal(await timeout(), true);
  assert.equal(await timeout(), false);
  // any other failure is not retried
  runner.resetRetries();
  runner.start(single().spec);
  await settle();
  client.last.reject(new Error("engine worker error"));
  await settle();
  assert.equal(log.failures[log.failures.length - 1].retrying, false);
});

test("throwing from onReply or onDone ends the job as a failure", async () => {
  for (const where of ["onReply", "onDone"]) {
    const { client, log, runner } = setup();
    const { spec } = single("move", 1000, { [where]: () => { throw new Error("illegal move"); } });
    runner.start(spec);
    await settle();
    client.last.resolve(result());
    await settle();
    assert.deepEqual(log.failures.map((f) => [f.message, f.retrying]), [["illegal move", false]], where);
    assert.equal(runner.busy(), false);
  }
});

// An open-ended job: slices until Move now, or until the position is solved.
function sliced(kind = "move") {
  const heard = { slices: [], done: [] };
  const spec = {
    kind, sliced: true,
    next: (i, last) => (last && last.score.win === 3 ? null : { message: { slice: i }, ms: 500 * 2 ** Math.min(i, 2) }),
    onReply: (reply, i) => heard.slices.push(i),
    onDone: (last) => heard.done.push(last),
  };
  return { spec, heard };
}

test("an open-ended job runs slice after slice until Move now, then ends with that slice's answer", async () => {
  const { client, runner } = setup();
  const { spec, heard } = sliced();
  runner.start(spec);
  assert.equal(runner.current().sliced, true);
  for (let i = 0; i < 3; i++) {
    await settle();
    assert.deepEqual(client.last.message, { slice: i });
    client.last.resolve(result({ move: [i, i] }));
  }
  await settle();
  assert.equal(client.calls.length, 4);
  assert.equal(client.last.opts.deadlineMs, 2000 * 3 + 10000);
  runner.moveNow(); // while slice 3 runs
  client.last.resolve(result({ move: [3, 3] }));
  await settle();
  assert.equal(client.calls.length, 4);
  assert.deepEqual(heard.slices, [0, 1, 2, 3]);
  assert.deepEqual(heard.done.map((r) => r.move), [[3, 3]]);
});

test("an open-ended job ends by itself when next says so (a solved position)", async () => {
  const { client, runner } = setup();
  const { spec, heard } = sliced("analyse");
  runner.start(spec);
  await settle();
  client.last.resolve(result({ score: { win: 3 }, black: 1 }));
  await settle();
  assert.equal(client.calls.length, 1);
  assert.equal(heard.done.length, 1);
  assert.equal(runner.busy(), false);
});

test("Move now means nothing to a job that is not open-ended", async () => {
  const { client, runner } = setup();
  const { spec, heard } = single("move", 1000, { next: (i) => (i < 2 ? { message: { i }, ms: 100 } : null) });
  runner.start(spec);
  runner.moveNow();
  await settle();
  client.last.resolve(result());
  await settle();
  assert.equal(client.calls.length, 2);
  client.last.resolve(result());
  await settle();
  assert.equal(heard.done.length, 1);
});

test("a cancel with more than RESTART_LEFT_MS of thinking left replaces the worker, quietly", async () => {
  const clock = { t: 0 };
  const { client, runner } = setup({ clock });
  runner.start(single("move", 10000).spec);
  await settle();
  clock.t = 10000 - RESTART_LEFT_MS - 1;
  runner.cancel();
  assert.equal(client.restarts, 1);
  assert.equal(runner.takeQuietRestart(), true);
  assert.equal(runner.takeQuietRestart(), false, "asked once per restart");

  runner.start(single("move", 10000).spec);
  await settle();
  clock.t += 10000 - RESTART_LEFT_MS + 1; // less left: the search runs out
  runner.cancel();
  assert.equal(client.restarts, 1);

  runner.start(single("move", 10000).spec);
  await settle();
  client.state = "loading"; // no worker to replace
  runner.cancel();
  assert.equal(client.restarts, 1);
  runner.cancel(); // nothing under way: nothing happens
  assert.equal(runner.takeQuietRestart(), false);
});

test("floorMs: an early answer waits out the floor; a cancel during the wait drops it", async () => {
  const clock = { t: 1000 };
  const { client, log, runner, wake } = setup({ clock });
  const { spec, heard } = single("move", 5000, { floorMs: 450 });
  runner.start(spec);
  await settle();
  clock.t = 1100;
  client.last.resolve(result());
  await settle();
  assert.deepEqual(log.sleeps, [350]);
  assert.equal(runner.busy(), true, "still the engine's turn while it waits");
  assert.deepEqual(heard.done, []);
  wake();
  await settle();
  assert.equal(heard.done.length, 1);
  assert.equal(runner.busy(), false);

  const late = single("move", 5000, { floorMs: 450 });
  runner.start(late.spec);
  await settle();
  clock.t += 2000; // slower than the floor: no wait
  client.last.resolve(result());
  await settle();
  assert.deepEqual(log.sleeps, [350]);
  assert.equal(late.heard.done.length, 1);

  const dropped = single("move", 5000, { floorMs: 450 });
  runner.start(dropped.spec);
  await settle();
  client.last.resolve(result());
  await settle();
  runner.cancel();
  wake();
  await settle();
  assert.deepEqual(dropped.heard.done, []);
});

test("a review-like series: progress per request, cancel any time, a worker that dies mid-way", async () => {
  const positions = ["p0", "p1", "p2", "p3", "p4"];
  const done = new Map(); // position -> score: what the review learnt, kept across restarts
  const progress = [];
  const review = () => ({
    kind: "review",
    next: () => {
      const p = positions.find((q) => !done.has(q));
      return p ? { message: { type: "think", position: p }, ms: 300 } : null;
    },
    onInfo: (info) => progress.push(`info ${info.depth}`),
    onReply: (reply) => {
      done.set(reply.position, reply.score);
      progress.push(`${done.size}/${positions.length}`);
    },
  });
  const { client, log, runner } = setup();
  runner.start(review());
  const answer = async () => {
    await settle();
    const { message } = client.last;
    client.last.info({ depth: 2 });
    client.last.resolve(result({ position: message.position }));
    await settle();
  };
  await answer();
  await answer();
  // the worker hangs on p2: the client's deadline fires (it replaces the worker)
  await settle();
  client.last.reject(new Timeout("the engine did not answer"));
  await settle();
  assert.deepEqual(log.failures.map((f) => [f.job.kind, f.retrying]), [["review", true]]);
  assert.equal(runner.busy(), false);
  // the page starts the review again once the new worker is ready: it goes on at p2
  runner.start(review());
  await settle();
  assert.equal(client.last.message.position, "p2");
  await answer();
  // the player cancels; the board is the page's again; a late answer changes nothing
  await settle();
  runner.cancel();
  client.last.resolve(result({ position: "p3" }));
  await settle();
  assert.equal(done.size, 3);
  runner.start(review());
  await answer();
  await answer();
  await settle();
  assert.equal(done.size, 5);
  assert.equal(runner.busy(), false);
  assert.deepEqual(progress.filter((p) => !p.startsWith("info")), ["1/5", "2/5", "3/5", "4/5", "5/5"]);
});

test("a request may give its own hard deadline (deadlineMs), else deadlineFor(ms)", async () => {
  const { client, runner } = setup();
  const { spec } = single("move", 100, {
    next: (i) => (i === 0 ? { message: { type: "think" }, ms: 100, deadlineMs: 70000 } : null),
  });
  runner.start(spec);
  await settle();
  assert.equal(client.last.opts.deadlineMs, 70000);
});

test("replyType: a review's answers are accepted, a result or an error reply is refused", async () => {
  const { client, log, runner } = setup();
  const heard = [];
  const spec = (n) => ({
    kind: "review", replyType: "review",
    next: (i) => (i < n ? { message: { type: "review", index: i }, ms: 1000 } : null),
    onReply: (reply, i) => heard.push([i, reply.index]),
  });
  runner.start(spec(2));
  await settle();
  client.last.resolve({ type: "review", index: 0 });
  await settle();
  client.last.resolve({ type: "review", index: 1 });
  await settle();
  assert.deepEqual(heard, [[0, 0], [1, 1]]);
  assert.deepEqual(log.failures, []);
  for (const [reply, message] of [
    [{ type: "error", message: "nodes must be an integer" }, "nodes must be an integer"],
    [result(), "unexpected reply result"],
  ]) {
    runner.start(spec(1));
    await settle();
    client.last.resolve(reply);
    await settle();
    assert.equal(log.failures[log.failures.length - 1].message, message);
    assert.equal(log.failures[log.failures.length - 1].job.kind, "review");
  }
});
