// node --test: web/model/clock.js, the Fischer game clock (time passed in: every test
// drives its own `now`).
import assert from "node:assert/strict";
import test from "node:test";

import * as Clock from "../../../web/model/clock.js";
import { BLACK, WHITE } from "../../../web/model/rules.js";

const FIVE_THREE = { baseMs: 300_000, incMs: 3000 };

// A clock of 5+3 after black's first move at t = 1000 (white's turn, running from then).
function started(now = 1000) {
  return Clock.resume(Clock.moved(Clock.newClock(FIVE_THREE), BLACK, WHITE, now), now);
}

test("controls: presets, custom minutes + seconds, text both ways, bad ones refused", () => {
  assert.deepEqual(Clock.PRESETS.map(Clock.controlText), ["1+0", "3+2", "5+3", "10+5", "15+10"]);
  assert.ok(Clock.PRESETS.every(Clock.isControl));
  assert.deepEqual(Clock.control(7, 4), { baseMs: 420_000, incMs: 4000 });
  assert.deepEqual(Clock.parseControl(" 10+5 "), { baseMs: 600_000, incMs: 5000 });
  assert.deepEqual(Clock.parseControl("180+60"), Clock.control(180, 60));
  for (const [m, s] of [[0, 0], [181, 0], [1.5, 0], ["5", 3], [5, -1], [5, 61], [5, 0.5]]) {
    assert.throws(() => Clock.control(m, s), /minutes|increment/, `${m}+${s}`);
  }
  for (const text of ["5", "5+", "+3", "5+3s", "5 + 3", "0+3", "1000+0", "5+99", ""]) {
    assert.throws(() => Clock.parseControl(text), Error, text);
  }
  for (const c of [null, 5, {}, { baseMs: 300_000 }, { baseMs: 30_000, incMs: 0 }, { baseMs: 300_000, incMs: 500 }]) {
    assert.equal(Clock.isControl(c), false, JSON.stringify(c));
  }
  assert.throws(() => Clock.newClock({ baseMs: 1, incMs: 0 }), /bad time control/);
});

test("a new clock: both colours at the start's time, stopped until the first move", () => {
  const c = Clock.newClock(FIVE_THREE);
  assert.deepEqual(c, { baseMs: 300_000, incMs: 3000, left: [300_000, 300_000], running: 0, since: null, turnUsed: 0, used: [], flag: 0 });
  assert.equal(Clock.remaining(c, BLACK, 99_999), 300_000); // nobody runs
  assert.equal(Clock.flagDue(c, 1e12), false);
  assert.equal(Clock.resume(c, 5), c); // nothing to resume before the first move
});

test("start: the first move is not charged, gets its increment, and the other colour runs", () => {
  const c = Clock.moved(Clock.newClock(FIVE_THREE), BLACK, WHITE, 777);
  assert.deepEqual(c.left, [303_000, 300_000]);
  assert.equal(c.running, WHITE);
  assert.equal(c.since, null); // stopped: the caller resumes it when play is live
  assert.deepEqual(c.used, [0]);
  const live = Clock.resume(c, 1000);
  assert.equal(live.since, 1000);
  assert.equal(Clock.remaining(live, WHITE, 4500), 296_500);
  assert.equal(Clock.remaining(live, BLACK, 4500), 303_000); // not running
});

test("switch and increment: the mover is charged its turn, gets the increment, the other runs on at once", () => {
  let c = started(1000);
  c = Clock.moved(c, WHITE, BLACK, 11_000); // white took 10 s
  assert.deepEqual(c.left, [303_000, 293_000]);
  assert.equal(c.running, BLACK);
  assert.equal(c.since, 11_000);
  assert.deepEqual(c.used, [0, 10_000]);
  c = Clock.moved(c, BLACK, WHITE, 11_250);
  assert.deepEqual(c.left, [305_750, 293_000]);
  assert.deepEqual(c.used, [0, 10_000, 250]);
  // without an increment a move only costs
  let plain = Clock.resume(Clock.moved(Clock.newClock({ baseMs: 60_000, incMs: 0 }), BLACK, WHITE, 0), 0);
  plain = Clock.moved(plain, WHITE, BLACK, 2500);
  assert.deepEqual(plain.left, [60_000, 57_500]);
});

test("a move on a stopped clock: the turn's charged time counts, nothing more, and it stays stopped", () => {
  let c = Clock.pause(Clock.moved(started(0), WHITE, BLACK, 4000), 6000); // black ran 2 s
  assert.deepEqual(c.left, [301_000, 299_000]);
  c = Clock.moved(c, BLACK, WHITE, 50_000); // the move arrives while stopped (a hidden page)
  assert.deepEqual(c.left, [304_000, 299_000]);
  assert.deepEqual(c.used, [0, 4000, 2000]);
  assert.equal(c.since, null);
});

test("pause and resume: the time while paused is not charged; a turn paused twice sums", () => {
  let c = started(0);
  c = Clock.pause(c, 5000);
  assert.deepEqual([c.left[1], c.since, c.turnUsed], [295_000, null, 5000]);
  assert.equal(Clock.pause(c, 9000), c); // paused already: nothing
  assert.equal(Clock.remaining(c, WHITE, 1e9), 295_000);
  c = Clock.resume(c, 60_000); // e.g. the engine's worker loaded again after a minute
  assert.equal(Clock.resume(c, 70_000), c); // running already
  c = Clock.pause(c, 63_000);
  assert.equal(c.turnUsed, 8000);
  c = Clock.moved(Clock.resume(c, 100_000), WHITE, BLACK, 101_000);
  assert.deepEqual(c.used, [0, 9000]);
  assert.equal(c.left[1], 300_000 - 9000 + 3000);
  // a `now` before since (a time source that went back) charges nothing
  assert.equal(Clock.remaining(Clock.resume(Clock.pause(c, 0), 500), BLACK, 100), c.left[0]);
});

test("flag: due when the running colour's time is gone, then it falls and the clock stops for good", () => {
  let c = Clock.resume(Clock.moved(Clock.newClock({ baseMs: 60_000, incMs: 0 }), BLACK, WHITE, 0), 0);
  assert.equal(Clock.flagDue(c, 59_999), false);
  assert.equal(Clock.flagDue(c, 60_000), true);
  assert.equal(Clock.remaining(c, WHITE, 75_000), 0); // never below 0
  assert.equal(Clock.flagDue(Clock.pause(c, 30_000), 1e9), false); // paused: never due
  c = Clock.flagFall(c, 60_050);
  assert.deepEqual([c.flag, c.left[1], c.since], [WHITE, 0, null]);
  assert.equal(Clock.flagDue(c, 1e9), false); // fallen already
  assert.equal(Clock.resume(c, 1e9), c); // a fallen flag never runs again
  assert.throws(() => Clock.moved(c, WHITE, BLACK, 61_000), /flag has fallen/);
  assert.throws(() => Clock.flagFall(Clock.newClock(FIVE_THREE), 0), /no clock is running/);
});

test("analysis moves are untimed: no charge, no increment, their time unknown", () => {
  const c = Clock.untimedMove(Clock.pause(started(0), 1000), BLACK);
  assert.deepEqual(c.left, [303_000, 299_000]);
  assert.equal(c.running, BLACK);
  assert.deepEqual(c.used, [0, null]);
});

test("take back: no time given back, the later moves' times dropped, running on for the side to move", () => {
  let c = Clock.moved(Clock.moved(started(0), WHITE, BLACK, 5000), BLACK, WHITE, 7000);
  // white thinks 1 s, then the last two moves are taken back (black to move again)
  const back = Clock.takeBack(c, 1, WHITE, 8000);
  assert.deepEqual(back.left, [304_000, 297_000]); // white's 1 s charged, nobody's given back
  assert.deepEqual(back.used, [0]);
  assert.equal(back.running, WHITE);
  assert.equal(back.since, 8000);
  assert.equal(back.turnUsed, 0);
  // a stopped clock stays stopped; back to the start it stops until the first stone
  assert.equal(Clock.takeBack(Clock.pause(c, 8000), 1, WHITE, 9000).since, null);
  const none = Clock.takeBack(c, 0, BLACK, 8000);
  assert.deepEqual([none.running, none.since, none.used], [0, null, []]);
});

test("the display: minutes and seconds, hours, tenths under 10 s, rounded down", () => {
  assert.equal(Clock.formatTime(300_000), "5:00");
  assert.equal(Clock.formatTime(299_001), "4:59");
  assert.equal(Clock.formatTime(10_000), "0:10");
  assert.equal(Clock.formatTime(9_999), "9.9");
  assert.equal(Clock.formatTime(450), "0.4");
  assert.equal(Clock.formatTime(-20), "0.0");
  assert.equal(Clock.formatTime(3_723_000), "1:02:03");
  assert.equal(Clock.LOW_MS, 10_000);
});

test("reload restore: the stored clock reads back stopped, with the times of its last charge", () => {
  let c = Clock.moved(started(0), WHITE, BLACK, 4000);
  c = Clock.pause(c, 6500); // the page hidden (pagehide): black's 2.5 s charged
  const stored = JSON.parse(JSON.stringify(Clock.encodeClock(c)));
  assert.equal("since" in stored, false);
  const back = Clock.decodeClock(stored, 2);
  assert.deepEqual(back, { ...c, since: null });
  // a running clock stored without a pause (a crash) keeps the times of its last move:
  // the stretch since is not charged
  const running = Clock.moved(started(0), WHITE, BLACK, 4000);
  assert.deepEqual(Clock.decodeClock(Clock.encodeClock(running), 2).left, running.left);
  // resumed on the new page's time source
  const again = Clock.resume(back, 10);
  assert.equal(Clock.remaining(again, BLACK, 1010), back.left[0] - 1000);
});

test("a stored clock that cannot be right is refused, naming what is wrong", () => {
  const good = Clock.encodeClock(Clock.moved(started(0), WHITE, BLACK, 4000));
  const bad = [
    [null, /not an object/], [{ ...good, baseMs: 5 }, /time control/], [{ ...good, incMs: -3 }, /time control/],
    [{ ...good, left: [1] }, /times left/], [{ ...good, left: [1, -1] }, /times left/],
    [{ ...good, left: [1, 1e12] }, /times left/], [{ ...good, left: [1, "2"] }, /times left/],
    [{ ...good, running: 3 }, /running/], [{ ...good, running: 0 }, /running/],
    [{ ...good, flag: 7 }, /flag/], [{ ...good, turnUsed: -1 }, /turn time/],
    [{ ...good, used: [0] }, /move times/], [{ ...good, used: [0, "x"] }, /move times/],
  ];
  for (const [v, why] of bad) assert.throws(() => Clock.decodeClock(v, 2), why, JSON.stringify(v));
  assert.throws(() => Clock.decodeClock({ ...good, running: BLACK, used: [] }, 0), /running/); // no move: none runs
});

test("the clock of a record: the control, the times kept (or the start's), the moves' times unknown", () => {
  const c = Clock.clockOfRecord(FIVE_THREE, 3, WHITE, [250_000, 200_000]);
  assert.deepEqual(c, { baseMs: 300_000, incMs: 3000, left: [250_000, 200_000], running: WHITE, since: null, turnUsed: 0, used: [null, null, null], flag: 0 });
  assert.deepEqual(Clock.clockOfRecord(FIVE_THREE, 0, BLACK).left, [300_000, 300_000]);
  assert.equal(Clock.clockOfRecord(FIVE_THREE, 0, BLACK).running, 0);
  assert.throws(() => Clock.clockOfRecord(FIVE_THREE, 2, BLACK, [1e9, 0]), /times left/);
});
