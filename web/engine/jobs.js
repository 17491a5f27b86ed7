// The engine-job runner: every search the page asks of the engine (its move, a hint, an
// analysis, a game review) is a job run here. No DOM; the engine client, the clock
// and the timer are passed in, so that tests drive it with fakes.
//
// A job is {kind, key?, sliced?, floorMs?, next, onInfo?, onReply?, onDone?}:
//   next(i, last)     the job's i-th request {message, ms, deadlineMs?} (ms: the think
//                     time asked for, which sets the hard deadline, deadlineFor(ms), unless
//                     deadlineMs gives it; and when the request is expected to end), or
//                     null when the job is done; last is the previous accepted reply (null
//                     for i = 0)
//   onInfo(info, i)   a progress message of request i (the engine's "info")
//   onReply(reply, i) each accepted reply (type "result", or the job's replyType)
//   onDone(last)      the job is over (last: the final accepted reply), not cancelled
//   sliced            open-ended: moveNow() ends it after the request under way
//   floorMs           the job is never done sooner than this after its first request
//                     reached the engine (an aside request ahead of it does not count; an answer
//                     that comes earlier waits)
//   replyType         the type of an accepted reply ("result" unless given: a review's
//                     answers are "review")
// Throwing from onReply or onDone is an engine problem: the job ends as a failure.
//
// The runner keeps one job at a time, each with a token: start() replaces the job under
// way, cancel() forgets it, and whatever a forgotten job's request answers later (info,
// result or failure) is ignored. Requests reach the engine one at a time: a new one
// waits until the one before has answered (a cancelled search still runs to its end), and
// is dropped unsent when its job is forgotten meanwhile. A forgotten job with more than
// RESTART_LEFT_MS of thinking left is cut short by replacing the worker (quietly: see
// takeQuietRestart). A reply that is not of the job's replyType ("result"; an "error"
// reply, anything else) is refused here, in one place. A failure is reported with onFailure(error, {job,
// retrying}): retrying when the engine timed out (the client has replaced the worker; the
// page resumes its work when the new one is ready) and fewer than MAX_RETRIES timeouts
// came in a row; otherwise the engine is in trouble and the page says so.

import { RESTART_LEFT_MS } from "./deadlines.js";

export { RESTART_LEFT_MS };
export const MAX_RETRIES = 2;

// A request dropped unsent because its job was forgotten (never reported).
export class Cancelled extends Error {
  constructor() {
    super("cancelled");
    this.name = "Cancelled";
  }
}

// client: {state, request(message, {deadlineMs, onInfo}) -> Promise<reply>, restart()};
// deadlineFor(ms): the hard deadline of a request asking for ms; isTimeout(err): the
// client's error for a request past its deadline; onChange(job): the job under way
// changed (job: a copy, {kind, key, sliced}, or null); onFailure(err, {job, retrying}).
export function createJobRunner({
  client, deadlineFor, isTimeout, onChange = () => {}, onFailure = () => {},
  now = () => performance.now(), sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
}) {
  let token = 0; // the current job's; a job whose token is older is forgotten
  let job = null; // {token, kind, key, sliced, moveNow, started, asked, endsAt}
  let queue = Promise.resolve(); // the engine's requests, one at a time
  let retries = 0; // timeouts in a row
  let quiet = false; // the last worker restart was a cancel's

  const stale = (j) => j.token !== token;
  const view = (j) => (j ? { kind: j.kind, key: j.key, sliced: j.sliced } : null);

  function ask(j, message, opts) {
    const run = queue.then(() => {
      if (stale(j)) throw new Cancelled();
      if (j.asked === null) j.asked = now();
      return client.request(message, opts);
    });
    queue = run.then(() => {}, () => {});
    return run;
  }

  function end(j) {
    if (job === j) {
      job = null;
      onChange(null);
    }
  }

  function fail(j, err) {
    if (stale(j) || err instanceof Cancelled) return;
    end(j);
    const retrying = isTimeout(err) && retries < MAX_RETRIES;
    if (retrying) retries += 1;
    onFailure(err, { job: view(j), retrying });
  }

  async function run(j, spec) {
    let last = null;
    try {
      for (let i = 0; ; i++) {
        if (i > 0 && j.moveNow) break;
        const step = spec.next(i, last);
        if (!step) break;
        j.endsAt = now() + step.ms;
        const onInfo = (info) => { if (!stale(j) && spec.onInfo) spec.onInfo(info, i); };
        const deadlineMs = step.deadlineMs ?? deadlineFor(step.ms);
        const reply = await ask(j, step.message, { deadlineMs, onInfo });
        if (stale(j)) return;
        if (!reply || reply.type !== (spec.replyType || "result")) {
          throw new Error((reply && reply.message) || "unexpected reply " + (reply && reply.type));
        }
        if (spec.onReply) spec.onReply(reply, i);
        retries = 0;
        last = reply;
      }
      const wait = (j.asked ?? j.started) + (spec.floorMs || 0) - now();
      if (wait > 0) {
        await sleep(wait);
        if (stale(j)) return;
      }
      end(j);
      if (spec.onDone) spec.onDone(last);
    } catch (err) {
      fail(j, err);
    }
  }

  // Forget the job under way (nothing when none).
  function cancel() {
    if (!job) return;
    const left = job.endsAt - now();
    token += 1;
    job = null;
    if (left > RESTART_LEFT_MS && client.state === "ready") {
      quiet = true;
      client.restart();
    }
    onChange(null);
  }

  return {
    // Run a job (replacing the one under way, if any); returns its token.
    start(spec) {
      if (job) cancel();
      const t = ++token;
      const started = now();
      job = { token: t, kind: spec.kind, key: spec.key ?? null, sliced: !!spec.sliced, moveNow: false, started, asked: null, endsAt: started };
      onChange(view(job));
      run(job, spec);
      return t;
    },
    cancel,
    // A request outside the jobs (the coach's threats: cheap, no search), queued with the
    // jobs' requests so that the engine still gets one at a time; it neither replaces nor
    // waits for the job under way (it goes before that job's next request), and its reply,
    // whatever its type, is the caller's. A timeout (a hung worker, which the client has
    // replaced) is reported as a job's is: onFailure(err, {job: {kind: "aside"}, retrying:
    // true}).
    aside(message, deadlineMs) {
      const run = queue.then(() => client.request(message, { deadlineMs }));
      queue = run.then(() => {}, () => {});
      run.catch((err) => {
        if (isTimeout(err)) onFailure(err, { job: { kind: "aside", key: null, sliced: false }, retrying: true });
      });
      return run;
    },
    // An open-ended job ends with the answer of the request under way.
    moveNow() {
      if (job && job.sliced) job.moveNow = true;
    },
    // {kind, key, sliced} of the job under way, or null
    current: () => view(job),
    busy: () => job !== null,
    isCurrent: (t) => job !== null && job.token === t,
    // The player asked to try again (Retry): the count of timeouts starts over.
    resetRetries() {
      retries = 0;
    },
    // Was the last worker restart a cancel's (not worth telling the player)? Asked once
    // per restart: the answer is reset.
    takeQuietRestart() {
      const q = quiet;
      quiet = false;
      return q;
    },
  };
}
