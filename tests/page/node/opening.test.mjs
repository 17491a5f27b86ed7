// node --test: web/model/opening.js, the page's opening rules, against the Python machine
// (py/gomoku/game/opening_rules.py) on tests/page/node/fixtures/opening.json (written by
// tests/engine/game/opening_cases.py): every scenario's states after each action, and the code of the
// action refused; plus what the page needs beyond the fixture (the rules a game may have,
// words, records, the errors' Chinese).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";

import { cellText, parseCell } from "../../../web/model/coords.js";
import { errorText } from "../../../web/model/i18n.js";
import * as O from "../../../web/model/opening.js";

const fixture = JSON.parse(readFileSync(new URL("./fixtures/opening.json", import.meta.url), "utf8"));

const asData = (s) => ({
  phase: s.phase, actor: s.actor, black: s.black,
  stones: s.stones.map(([x, y]) => cellText(x, y, s.size)),
  offers: s.offers.map(([x, y]) => cellText(x, y, s.size)),
  n: s.n, options: O.optionsOf(s),
});

for (const c of fixture.cases) {
  test(`as the Python machine: ${c.name}`, () => {
    let state = O.start(c.rule, c.size, c.gameRule);
    const seen = [asData(state)];
    let error = null;
    for (const word of c.actions) {
      try {
        state = O.apply(state, O.actionFromText(state, word));
      } catch (err) {
        error = err.code;
        assert.ok(err.key.startsWith("op_") && err.message && !err.message.includes("{"), err.message);
        break;
      }
      seen.push(asData(state));
    }
    assert.deepEqual(seen, c.steps);
    assert.equal(error, c.error);
  });
}

test("openings that cannot start, as the Python machine", () => {
  for (const s of fixture.starts) {
    let code = null;
    try {
      O.start(s.rule, s.size, s.gameRule);
    } catch (err) {
      code = err.code;
    }
    assert.equal(code, s.error, s.name);
  }
  assert.ok(fixture.cases.length >= 25 && fixture.starts.length === 4);
});

test("the opening rules a game may have", () => {
  assert.deepEqual(O.openingRulesFor("freestyle", 15), ["swap2"]);
  assert.deepEqual(O.openingRulesFor("standard", 20), ["swap2"]);
  assert.deepEqual(O.openingRulesFor("renju", 15), ["soosorv8"]);
  assert.deepEqual(O.openingRulesFor("renju", 17), []);
  assert.ok(O.isOpeningRule("swap2") && !O.isOpeningRule("none"));
});

test("the next stone's colour, white's player, done", () => {
  let s = O.start("swap2", 15, "freestyle");
  assert.equal(O.nextColour(s), 1);
  s = O.apply(s, { kind: "place", at: [7, 7] });
  assert.equal(O.nextColour(s), 2);
  assert.equal(O.whiteOf(s), 2);
  s = O.replay(s, [{ kind: "place", at: [7, 6] }, { kind: "place", at: [8, 8] }, { kind: "black" }]);
  assert.ok(O.isDone(s));
  assert.equal(O.whiteOf(s), 1);
  const r = words(O.start("soosorv8", 15, "renju"), "h8 h9 j10 white i7 1 black");
  assert.equal(r.phase, "offer");
  assert.equal(O.nextColour(r), 1); // an offer is black's, whatever the stones' count
});

test("refusals name what the opening waits for, in English and Chinese", () => {
  const s = O.replay(O.start("swap2", 15, "freestyle"), [{ kind: "place", at: [7, 7] }]);
  assert.throws(() => O.apply(s, { kind: "black" }), (err) => {
    assert.equal(err.message, "not now: the first player places the opening's three stones (black, white, black)");
    assert.equal(errorText(err, "zh"), "现在不行：先手方摆出开局的三子（黑、白、黑）");
    return true;
  });
  assert.throws(() => O.start("swap2", 15, "renju"), (err) => {
    assert.equal(err.message, "swap2 is not an opening rule of renju");
    assert.equal(errorText(err, "zh"), "交换二不适用于连珠规则");
    return true;
  });
  assert.throws(() => O.apply(s, { kind: "place", at: [15, 2] }), /not a point of the 15×15 board/);
  assert.throws(() => O.apply(s, { kind: "place" }), /not a point/);
  const offer = words(O.start("soosorv8", 15, "renju"), "h8 h9 h10 white h6 2 black g7");
  assert.throws(() => O.apply(offer, { kind: "place", at: [8, 8] }), (err) => {
    assert.equal(errorText(err, "en"), "i7 is symmetrical to the offer g7");
    assert.equal(errorText(err, "zh"), "i7 与已打的 g7 对称");
    return true;
  });
  const select = words(O.start("soosorv8", 15, "renju"), "h8 h9 j10 white i7 1 black j8");
  assert.throws(() => O.apply(select, { kind: "select", at: [30, 1] }), /\[30,1\] is not one of the offered/);
  assert.throws(() => O.apply(select, { kind: "select" }), /undefined is not one of the offered/);
  assert.throws(() => O.apply(select, null), /not now/);
});

// the state after the words of a record
function words(state, text) {
  for (const w of text.split(" ")) state = O.apply(state, O.actionFromText(state, w));
  return state;
}

test("words and actions as a record writes them", () => {
  const s = words(O.start("soosorv8", 15, "renju"), "h8 h9 j10 white i7 1 black j8");
  assert.deepEqual(O.actionFromText(s, "j8"), { kind: "select", at: [9, 7] });
  assert.deepEqual(O.actionFromText(s, " White "), { kind: "white" });
  assert.deepEqual(O.actionFromText(s, "two"), { kind: "two" });
  assert.deepEqual(O.actionFromText(s, "4"), { kind: "declare", n: 4 });
  assert.throws(() => O.actionFromText(s, "pass"), (err) => err.code === "word");
  for (const [action, text] of [[{ kind: "place", at: [7, 7] }, "h8"], [{ kind: "declare", n: 3 }, "3"], [{ kind: "black" }, "black"], [{ kind: "select", at: [0, 0] }, "a15"]]) {
    assert.equal(O.actionText(action, 15), text);
  }
});

test("a record keeps the choices and offers, and gives the opening back", () => {
  for (const [rule, gameRule, text, choices, offers] of [
    ["swap2", "standard", "h8 h9 j10 two i9 k8 white", ["two", "white"], ""],
    ["swap2", "freestyle", "h8 h9 j10 black", ["black"], ""],
    ["swap2", "freestyle", "h8 h9", [], ""],
    ["soosorv8", "renju", "h8 h9 j10 white i7 3 black j8 g8 k11 g8", ["white", "3", "black"], "j8 g8 k11"],
    ["soosorv8", "renju", "h8 h9 j10 white i7 3 black j8", ["white", "3", "black"], "j8"],
  ]) {
    let state = O.start(rule, 15, gameRule);
    const actions = [];
    for (const w of text.split(" ")) {
      const a = O.actionFromText(state, w);
      state = O.apply(state, a);
      actions.push(a);
    }
    const record = O.recordOf(state, actions);
    assert.deepEqual(record, { rule, choices, offers: offers ? offers.split(" ").map((c) => parseCell(c, 15)) : [] });
    const later = O.isDone(state) ? [[0, 0], [14, 14]] : [];
    const back = O.fromRecord(record, [...state.stones, ...later], 15, gameRule);
    assert.deepEqual(back.state, state, text);
    assert.deepEqual(back.actions, actions, text);
  }
});

test("a record that does not fit is refused, in the page's words", () => {
  const moves = [[7, 7], [7, 6], [9, 5]];
  const code = (fn) => { try { fn(); } catch (err) { return err.code; } return null; };
  assert.equal(code(() => O.fromRecord({ rule: "swap2", choices: ["black", "white"], offers: [] }, moves, 15, "freestyle")), "unused");
  assert.equal(code(() => O.fromRecord({ rule: "swap2", choices: [], offers: [[1, 1]] }, moves, 15, "freestyle")), "unused");
  assert.equal(code(() => O.fromRecord({ rule: "swap2" }, [...moves, [0, 0]], 15, "freestyle")), "unfinished");
  assert.equal(code(() => O.fromRecord({ rule: "soosorv8", choices: ["white", "1", "black"], offers: [[9, 7]] }, [...moves, [8, 8], [10, 4]], 15, "renju")), "not-offered");
  assert.equal(code(() => O.fromRecord({ rule: "swap2", choices: ["nine"], offers: [] }, moves, 15, "freestyle")), "word");
  try {
    O.fromRecord({ rule: "swap2" }, [...moves, [0, 0]], 15, "freestyle");
  } catch (err) {
    assert.equal(errorText(err, "en"), "the game goes on before the opening is over (the second player takes black, takes white, or places two more stones)");
    assert.match(errorText(err, "zh"), /^开局还没结束棋局就继续了（后手方/);
  }
});

test("the board's symmetries as the engine's", () => {
  // transform k as py/gomoku/core/geometry.py: k & 4 mirrors x, then k & 3 quarter turns
  assert.deepEqual(O.transform(0, 2, 3, 15), [2, 3]);
  assert.deepEqual(O.transform(1, 2, 3, 15), [11, 2]);
  assert.deepEqual(O.transform(4, 2, 3, 15), [12, 3]);
  assert.deepEqual(O.transform(5, 2, 3, 15), [11, 12]);
  assert.deepEqual(O.positionSymmetries([[7, 7], [7, 6], [7, 5], [7, 9]], 15), [0, 4]);
  assert.deepEqual(O.positionSymmetries([], 15), [0, 1, 2, 3, 4, 5, 6, 7]);
});
