// node --test: web/model/coach.js (the coach: the worker's answer checked, the marks, the
// sentence in English and Chinese, the message, on or off by level and by choice) and
// the runner's aside request (jobs.js) it is sent with.
import assert from "node:assert/strict";
import test from "node:test";

import * as Coach from "../../../web/model/coach.js";
import { parseCell } from "../../../web/model/coords.js";
import * as Game from "../../../web/model/game.js";
import { readLanguageFrom } from "../../../web/model/i18n.js";
import { createJobRunner } from "../../../web/engine/jobs.js";
import { COACH_DEFAULT_UP_TO, LEVEL_NUMBERS, coachByDefault } from "../../../web/model/levels.js";
import { BLACK, WHITE } from "../../../web/model/rules.js";
import { DEFAULT_SETTINGS, decodeSettings } from "../../../web/model/settings.js";

// the language t() reads (the page's is its settings')
const speak = (code) => readLanguageFrom(() => code);

const cells = (text) => text.split(" ").map((c) => parseCell(c, 15));
// black a1 a3 a5, white f8 g8 h8 (black to move): white's open three, as the worker says it
const WHITE_THREE = {
  type: "threats", id: "r1", toMove: "black", black: [],
  white: [{ kind: "three", points: cells("e8 i8"), blocks: cells("e8 i8") }],
};

test("the coach is on by default up to COACH_DEFAULT_UP_TO, off above; the player's choice wins", () => {
  for (const n of LEVEL_NUMBERS) assert.equal(coachByDefault(n), n <= COACH_DEFAULT_UP_TO, String(n));
  assert.equal(coachByDefault(0), false);
  assert.equal(coachByDefault("1"), false);
  const low = Game.newGame({ level: LEVEL_NUMBERS[0] });
  const high = Game.newGame({ level: LEVEL_NUMBERS[LEVEL_NUMBERS.length - 1] });
  assert.equal(Coach.coachOn(DEFAULT_SETTINGS, low), true);
  assert.equal(Coach.coachOn(DEFAULT_SETTINGS, high), false);
  assert.equal(Coach.coachOn({ ...DEFAULT_SETTINGS, coach: false }, low), false);
  assert.equal(Coach.coachOn({ ...DEFAULT_SETTINGS, coach: true }, high), true);
});

test("the choice is stored as a boolean or not at all", () => {
  assert.equal("coach" in DEFAULT_SETTINGS, false);
  assert.equal(decodeSettings({ coach: true }).coach, true);
  assert.equal(decodeSettings({ coach: false }).coach, false);
  for (const bad of ["yes", 1, null]) assert.equal("coach" in decodeSettings({ coach: bad }), false, String(bad));
  assert.equal(decodeSettings({ coachSeen: true }).coachSeen, true);
  for (const bad of [false, "yes", 1]) assert.equal("coachSeen" in decodeSettings({ coachSeen: bad }), false, String(bad));
});

test("seen once, the coach stays on up the ladder: said once, then the player's choice", () => {
  const low = Game.newGame({ level: COACH_DEFAULT_UP_TO });
  const above = COACH_DEFAULT_UP_TO + 1;
  const high = Game.newGame({ level: above });
  // shown at a level where it is on by default: remembered as seen
  const seen = Coach.seenBy(DEFAULT_SETTINGS, low);
  assert.deepEqual(seen, { ...DEFAULT_SETTINGS, coachSeen: true });
  assert.equal(Coach.coachOn(seen, high), true, "on at the next level up");
  assert.equal(Coach.keptAt(seen, above), true, "kept there only because it was seen: said so");
  assert.equal(Coach.keptAt(seen, COACH_DEFAULT_UP_TO), false, "on by default there anyway");
  // nothing to remember when it was off, or the player chose
  assert.equal(Coach.seenBy(DEFAULT_SETTINGS, high), DEFAULT_SETTINGS);
  const chose = { ...DEFAULT_SETTINGS, coach: false };
  assert.equal(Coach.seenBy(chose, low), chose);
  assert.equal(Coach.coachOn({ ...seen, coach: false }, high), false, "the player's choice wins");
  assert.equal(Coach.keptAt({ ...seen, coach: true }, above), false, "said once: then it is the choice");
  assert.equal(Coach.keptAt(DEFAULT_SETTINGS, above), false, "never seen: off above, as before");
  assert.equal(Coach.coachOn(DEFAULT_SETTINGS, high), false);
});

test("the message carries the shown position, its size, rule and first colour", () => {
  let game = Game.newGame({ size: 17, rule: "standard", first: WHITE });
  game = Game.play(Game.play(game, 8, 8), 9, 9);
  assert.deepEqual(Coach.threatsMessage(game), { type: "threats", size: 17, rule: "standard", moves: [[8, 8], [9, 9]], first: "white" });
  assert.equal(Coach.threatsMessage(Game.goTo(game, 1)).moves.length, 1);
});

test("the worker's answer is checked", () => {
  const got = Coach.readThreats(WHITE_THREE, 15);
  assert.equal(got.toMove, BLACK);
  assert.deepEqual(got.threats[BLACK], []);
  assert.deepEqual(got.threats[WHITE], [{ kind: "three", points: cells("e8 i8"), blocks: cells("e8 i8") }]);
  const bad = [
    [{ type: "error", message: "moves[0] is off the board" }, /off the board/],
    [{ ...WHITE_THREE, toMove: "red" }, /toMove/],
    [{ ...WHITE_THREE, black: null }, /black is not a list/],
    [{ ...WHITE_THREE, white: [{ kind: "five", points: [[1, 1]], blocks: [] }] }, /bad kind/],
    [{ ...WHITE_THREE, white: [{ kind: "three", points: [[15, 1]], blocks: [] }] }, /bad point/],
    [{ ...WHITE_THREE, white: [{ kind: "three", points: [], blocks: [] }] }, /no point/],
    [{ ...WHITE_THREE, white: [{ kind: "three", points: [[1, 1]], blocks: "e8" }] }, /not a list/],
  ];
  for (const [reply, why] of bad) assert.throws(() => Coach.readThreats(reply, 15), why, JSON.stringify(reply));
});

test("the marks: points labelled by what they make, blocks as rings, each cell once per colour", () => {
  const coaching = Coach.readThreats({
    type: "threats", toMove: "white",
    black: [
      { kind: "three", points: cells("j8"), blocks: cells("g8 j8 l8") },
      { kind: "four-three", points: cells("c3"), blocks: cells("c3 d4") },
    ],
    white: [{ kind: "four", points: cells("j8"), blocks: cells("j8") }],
  }, 15);
  const marks = Coach.coachMarks(coaching);
  assert.equal(
    Coach.coachText(marks, 15),
    "black-three:j8 black-four-three:c3 black-block:g8 black-block:l8 black-block:d4 white-four:j8",
  );
  assert.deepEqual(marks.filter((m) => m.kind !== "block").map((m) => m.label), ["4", "43", "5"]);
});

function sentence(reply) {
  return Coach.coachSentence(Coach.readThreats(reply, 15), 15);
}

test("the sentence says the most pressing threat, in English and in Chinese", () => {
  speak("en");
  assert.deepEqual(sentence(WHITE_THREE), { text: "White threatens to make an open four at e8 or i8: block at e8 or i8.", urgent: true });
  const split = { type: "threats", toMove: "white", white: [], black: [{ kind: "three", points: cells("j8"), blocks: cells("g8 j8 l8") }] };
  assert.equal(sentence(split).text, "Black threatens to make an open four at j8: block at g8, j8 or l8.");
  const ownThree = { ...split, toMove: "black" };
  assert.equal(sentence(ownThree).text, "Black can make an open four at j8.");
  const four = { type: "threats", toMove: "black", black: [], white: [{ kind: "four", points: cells("c5"), blocks: cells("c5") }] };
  assert.equal(sentence(four).text, "White threatens to make five at c5: block at c5.");
  assert.equal(sentence({ ...four, white: [{ kind: "four", points: cells("c5 h5"), blocks: cells("c5 h5") }] }).text,
    "White can make five at c5 or h5: one move cannot block them all.");
  assert.equal(sentence({ ...four, white: [{ kind: "four", points: cells("c5"), blocks: [] }] }).text,
    "White threatens to make five at c5, a point black may not play.");
  // five first, then the other's four, whatever else is on the board
  const both = { ...four, black: [{ kind: "four", points: cells("o1"), blocks: cells("o1") }, ...ownThree.black] };
  assert.equal(sentence(both).text, "Black can make five at o1.");
  assert.equal(sentence({ ...four, black: ownThree.black }).text, "White threatens to make five at c5: block at c5.");
  // an own open four before the other's three; doubles last
  assert.equal(sentence({ ...WHITE_THREE, black: ownThree.black }).text, "Black can make an open four at j8.");
  const double = { type: "threats", toMove: "black", black: [], white: [{ kind: "four-three", points: cells("g9"), blocks: cells("g9 g10") }] };
  assert.equal(sentence(double).text, "White threatens to make a four-three at g9: block at g9 or g10.");
  assert.deepEqual(sentence({ type: "threats", toMove: "black", black: [], white: [] }), { text: "Coach: no threats on the board.", urgent: false });

  speak("zh");
  assert.equal(sentence(WHITE_THREE).text, "白棋威胁在 e8或i8 走成活四：请在 e8或i8 防守。");
  assert.equal(sentence(split).text, "黑棋威胁在 j8 走成活四：请在 g8、j8或l8 防守。");
  assert.equal(sentence(double).text, "白棋威胁在 g9 走成四三：请在 g9或g10 防守。");
  assert.equal(sentence({ type: "threats", toMove: "black", black: [], white: [] }).text, "教练：棋盘上暂无威胁。");
  speak("en");
});

test("an aside request goes to the engine between the jobs' requests, one at a time", async () => {
  const order = [];
  let release = null;
  const client = {
    state: "ready",
    request(message) {
      order.push(message.type);
      if (message.type === "think") return new Promise((resolve) => { release = () => resolve({ type: "result", move: [7, 7] }); });
      return Promise.resolve({ type: "threats", toMove: "black", black: [], white: [] });
    },
    restart() {},
  };
  const runner = createJobRunner({ client, deadlineFor: () => 1000, isTimeout: () => false });
  let done = false;
  runner.start({ kind: "move", next: (i) => (i === 0 ? { message: { type: "think" }, ms: 10 } : null), onDone: () => { done = true; } });
  const aside = runner.aside({ type: "threats" }, 1000);
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(order, ["think"]); // waits for the search under way
  release();
  const reply = await aside;
  assert.equal(reply.type, "threats");
  assert.deepEqual(order, ["think", "threats"]);
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(done, true); // the job was not disturbed
  assert.equal(runner.busy(), false);
});

test("the keyboard cursor's words on a marked cell", () => {
  speak("en");
  const coaching = Coach.readThreats(WHITE_THREE, 15);
  const marks = Coach.coachMarks(coaching);
  assert.equal(Coach.coachCursor(marks, parseCell("e8", 15)), "coach: white makes an open four here");
  assert.equal(Coach.coachCursor(marks, parseCell("d8", 15)), "");
  const split = Coach.coachMarks(Coach.readThreats({
    type: "threats", toMove: "white", white: [],
    black: [{ kind: "three", points: cells("j8"), blocks: cells("g8 j8 l8") }, { kind: "four-three", points: cells("c3"), blocks: [] }],
  }, 15));
  assert.equal(Coach.coachCursor(split, parseCell("g8", 15)), "coach: blocks black's threat");
  assert.equal(Coach.coachCursor(split, parseCell("c3", 15)), "coach: black makes a four-three here");
  speak("zh");
  assert.equal(Coach.coachCursor(marks, parseCell("e8", 15)), "教练：白棋在此可成活四");
  speak("en");
});

test("a job's floor counts from its own request, not from an aside request ahead of it", async () => {
  const clock = { t: 1000 };
  const sleeps = [];
  const pending = [];
  const client = {
    state: "ready",
    request(message) { return new Promise((resolve) => pending.push({ message, resolve })); },
    restart() {},
  };
  const settle = () => new Promise((r) => setTimeout(r, 0));
  const runner = createJobRunner({
    client, deadlineFor: () => 1000, isTimeout: () => false, now: () => clock.t,
    sleep: (ms) => { sleeps.push(ms); return Promise.resolve(); },
  });
  const aside = runner.aside({ type: "threats" }, 1000);
  let done = false;
  runner.start({ kind: "move", floorMs: 450, next: (i) => (i === 0 ? { message: { type: "think" }, ms: 10 } : null), onDone: () => { done = true; } });
  await settle();
  assert.deepEqual(pending.map((p) => p.message.type), ["threats"]);
  clock.t = 1100; // the coach's answer comes; the think goes now
  pending[0].resolve({ type: "threats" });
  await aside;
  await settle();
  assert.deepEqual(pending.map((p) => p.message.type), ["threats", "think"]);
  clock.t = 1200;
  pending[1].resolve({ type: "result", move: [7, 7] });
  await settle();
  assert.deepEqual(sleeps, [350]); // 1100 + 450 - 1200
  assert.equal(done, true);
});

test("an aside request that times out is reported as a job's timeout (the worker was replaced)", async () => {
  class Timeout extends Error {}
  const failures = [];
  const client = { state: "ready", request: () => Promise.reject(new Timeout("no answer")), restart() {} };
  const runner = createJobRunner({
    client, deadlineFor: () => 1000, isTimeout: (err) => err instanceof Timeout,
    onFailure: (err, info) => failures.push([err.message, info]),
  });
  await assert.rejects(runner.aside({ type: "threats" }, 1000), /no answer/);
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(failures, [["no answer", { job: { kind: "aside", key: null, sliced: false }, retrying: true }]]);
  // an error reply or another failure is the caller's alone
  client.request = () => Promise.reject(new Error("other"));
  await assert.rejects(runner.aside({ type: "threats" }, 1000), /other/);
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(failures.length, 1);
});
