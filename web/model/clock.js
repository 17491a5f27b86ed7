// A Fischer game clock: each colour starts with the same time and gets an increment after
// each of its moves; the colour whose time runs out loses (its flag falls). Pure data and
// functions: the time is passed in (`now`, ms of a monotonic time source the caller owns:
// performance.now() in the page, plus the test hook's offset), nothing here reads a clock.
//
// A control is {baseMs, incMs} ("5+3": 5 minutes, 3 s a move). A clock is plain data:
//
//   { baseMs, incMs,
//     left:     [black ms, white ms]: each colour's time, as of its last charge
//     running:  the colour whose turn it is on the clock (BLACK | WHITE), 0 before the
//               first move (the clock starts with the first stone)
//     since:    the `now` at which the running colour's time began to run, or null: the
//               clock is stopped (not started, paused, the game over); its time is then
//               all in left
//     turnUsed: ms charged to the running colour in this turn before `since` (a turn
//               paused and resumed: the move's time is the sum)
//     used:     the time each move of the game took, by move number (ms; null: a move
//               made with the clock stopped, in analysis)
//     flag:     the colour that ran out of time, or 0 }
//
// Who runs and when is the caller's (state.js clockLive): the clock only keeps the
// times. No function changes the clock it is given.

import { BLACK, WHITE } from "./rules.js";

// The New game dialog's choices: minutes + increment seconds.
export const PRESETS = [
  { baseMs: 60_000, incMs: 0 },
  { baseMs: 180_000, incMs: 2000 },
  { baseMs: 300_000, incMs: 3000 },
  { baseMs: 600_000, incMs: 5000 },
  { baseMs: 900_000, incMs: 10_000 },
];
// A custom control: whole minutes and whole seconds of increment, within these.
export const MIN_MINUTES = 1;
export const MAX_MINUTES = 180;
export const MAX_INC_SECONDS = 60;
// Under this much time left the display turns red and shows tenths of a second.
export const LOW_MS = 10_000;

const isColour = (c) => c === BLACK || c === WHITE;

// The control of `minutes` + `incSeconds` (whole numbers within MIN_MINUTES..MAX_MINUTES
// and 0..MAX_INC_SECONDS); throws an Error naming the bad one.
export function control(minutes, incSeconds) {
  if (!Number.isInteger(minutes) || minutes < MIN_MINUTES || minutes > MAX_MINUTES) {
    throw new Error(`the minutes must be a whole number from ${MIN_MINUTES} to ${MAX_MINUTES}, not ${JSON.stringify(minutes)}`);
  }
  if (!Number.isInteger(incSeconds) || incSeconds < 0 || incSeconds > MAX_INC_SECONDS) {
    throw new Error(`the increment must be a whole number of seconds from 0 to ${MAX_INC_SECONDS}, not ${JSON.stringify(incSeconds)}`);
  }
  return { baseMs: minutes * 60_000, incMs: incSeconds * 1000 };
}

// Is c a control this page makes ({baseMs, incMs} of whole minutes and seconds in range)?
export function isControl(c) {
  if (c === null || typeof c !== "object") return false;
  try {
    const made = control(c.baseMs / 60_000, c.incMs / 1000);
    return made.baseMs === c.baseMs && made.incMs === c.incMs;
  } catch {
    return false;
  }
}

// "5+3" for 5 minutes + 3 s a move.
export const controlText = ({ baseMs, incMs }) => `${baseMs / 60_000}+${incMs / 1000}`;

// The control of "5+3" (a link's clock=); throws on anything else.
export function parseControl(text) {
  const m = /^(\d{1,3})\+(\d{1,2})$/.exec(String(text).trim());
  if (!m) throw new Error(`not a time control like 5+3: ${JSON.stringify(String(text).slice(0, 20))}`);
  return control(Number(m[1]), Number(m[2]));
}

// A clock at the start of a game under the control: both colours at baseMs, stopped.
export function newClock({ baseMs, incMs }) {
  const c = { baseMs, incMs };
  if (!isControl(c)) throw new Error(`bad time control ${JSON.stringify(c)}`);
  return { baseMs, incMs, left: [baseMs, baseMs], running: 0, since: null, turnUsed: 0, used: [], flag: 0 };
}

const runningFor = (clock, now) => (clock.since === null ? 0 : Math.max(0, now - clock.since));

// The colour's time left at `now` (ms, never below 0).
export function remaining(clock, colour, now) {
  const ms = clock.left[colour - 1] - (clock.running === colour ? runningFor(clock, now) : 0);
  return Math.max(0, ms);
}

// Has the running colour's time run out at `now` (and no flag fallen yet)?
export function flagDue(clock, now) {
  return !clock.flag && isColour(clock.running) && clock.since !== null && remaining(clock, clock.running, now) <= 0;
}

// The clock stopped at `now`: the running colour charged for the time since it started.
export function pause(clock, now) {
  if (clock.since === null) return clock;
  const ms = runningFor(clock, now);
  const left = clock.left.slice();
  left[clock.running - 1] -= ms;
  return { ...clock, left, since: null, turnUsed: clock.turnUsed + ms };
}

// The clock running again from `now` (nothing when it runs already, has not started or
// a flag has fallen).
export function resume(clock, now) {
  if (clock.since !== null || !isColour(clock.running) || clock.flag) return clock;
  return { ...clock, since: now };
}

// `mover` moved at `now`: the move's time charged (its turn's time, paused stretches
// included) and the increment added; then `next`'s turn. A running clock goes on running
// for next; a stopped one stays stopped. The first move of the game is made before the
// clock starts (no time charged); it gets the increment as every move does.
export function moved(clock, mover, next, now) {
  if (clock.flag) throw new Error("the flag has fallen: no more moves on this clock");
  const ms = clock.running === mover ? runningFor(clock, now) : 0;
  const spent = clock.running === mover ? clock.turnUsed + ms : 0;
  const left = clock.left.slice();
  left[mover - 1] += clock.incMs - ms;
  const since = clock.since === null ? null : now;
  return { ...clock, left, running: next, since, turnUsed: 0, used: [...clock.used, spent] };
}

// A move made with the clock stopped (in analysis): no time charged, no increment; then
// `next`'s turn.
export function untimedMove(clock, next) {
  return { ...clock, running: next, used: [...clock.used, null] };
}

// The running colour's flag fell (at `now`): its time is 0, the clock stopped for good.
export function flagFall(clock, now) {
  if (!isColour(clock.running)) throw new Error("no clock is running");
  const stopped = pause(clock, now);
  const left = stopped.left.slice();
  left[clock.running - 1] = 0;
  return { ...stopped, left, flag: clock.running };
}

// The game taken back to its first n moves, `next` to move there (undo under the clock):
// the time is not given back (as on game sites), the moves' times after n are dropped,
// and the clock, if it was running, runs on for next from `now`. Taken back to the start
// (n 0) the clock stops, to start again with the first stone.
export function takeBack(clock, n, next, now) {
  const wasRunning = clock.since !== null;
  const stopped = pause(clock, now);
  const running = n > 0 ? next : 0;
  const restarted = { ...stopped, running, turnUsed: 0, used: stopped.used.slice(0, n) };
  return wasRunning && running ? { ...restarted, since: now } : restarted;
}

// ---- the display ----------------------------------------------------------------------

// A time as a clock shows it: "4:59", "1:02:03" from an hour, "9.4" under LOW_MS
// (rounded down: a clock never shows more time than there is).
export function formatTime(ms) {
  const t = Math.max(0, ms);
  if (t < LOW_MS) return (Math.floor(t / 100) / 10).toFixed(1);
  const s = Math.floor(t / 1000);
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60));
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${mm.padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

// ---- what is stored -------------------------------------------------------------------

// The clock as stored: what decode reads back. The running stretch (since) is not kept:
// the stored times are those of the last charge (a move, a pause: the page pauses the
// clock when it is hidden or closed), so the time while the page was closed is not
// charged.
export function encodeClock(clock) {
  const { baseMs, incMs, left, running, turnUsed, used, flag } = clock;
  return { baseMs, incMs, left: left.slice(), running, turnUsed, used: used.slice(), flag };
}

const isTime = (v, max) => Number.isFinite(v) && v >= 0 && v <= max;

// A stored clock for a game of `moves` moves, checked; stopped (since null) until the page
// resumes it. Throws an Error naming what is wrong.
export function decodeClock(v, moves) {
  if (v === null || typeof v !== "object") throw new Error("the stored clock is not an object");
  const { baseMs, incMs } = v;
  if (!isControl({ baseMs, incMs })) throw new Error(`bad time control ${JSON.stringify({ baseMs, incMs })}`);
  // the most a colour can have: its start plus an increment for each of its moves
  const most = baseMs + incMs * (moves + 1);
  if (!Array.isArray(v.left) || v.left.length !== 2 || !v.left.every((ms) => isTime(ms, most))) {
    throw new Error("bad times left on the stored clock");
  }
  if (![0, BLACK, WHITE].includes(v.running) || (moves > 0) !== (v.running !== 0)) throw new Error("bad running colour on the stored clock");
  if (![0, BLACK, WHITE].includes(v.flag)) throw new Error("bad flag on the stored clock");
  if (!isTime(v.turnUsed, most)) throw new Error("bad turn time on the stored clock");
  if (!Array.isArray(v.used) || v.used.length !== moves || !v.used.every((ms) => ms === null || isTime(ms, most))) {
    throw new Error("bad move times on the stored clock");
  }
  return {
    baseMs, incMs, left: v.left.slice(), running: v.running, since: null, turnUsed: v.turnUsed,
    used: v.used.slice(), flag: v.flag,
  };
}

// The clock of a game opened from a record that names its control (a link, a finished
// game): n moves made, `next` to move, each colour's time `left` ([black, white] ms, as
// the record kept it; null: both at the start's), the moves' own times not known. Throws
// when the control or the times are bad (decodeClock's checks).
export function clockOfRecord(ctrl, n, next, left = null) {
  const start = newClock(ctrl);
  return decodeClock({
    ...encodeClock(start), left: left ?? start.left, running: n > 0 ? next : 0, used: new Array(n).fill(null),
  }, n);
}
