// node --test: web/score.js (the one reader of the engine's scores, sent as data: the
// check, the words in English and Chinese through i18n.js, a solved position, the
// colours' view for the thinking panel and the evaluation bar).
import assert from "node:assert/strict";
import test from "node:test";

import { textIn } from "../../../web/model/i18n.js";
import { BLACK, WHITE } from "../../../web/model/rules.js";
import {
  colourScore, evalText, isDecisive, isScore, scoreCode, scoreLabel, scoreWords,
} from "../../../web/model/score.js";

const en = (key, vars) => textIn("en", key, vars);
const zh = (key, vars) => textIn("zh", key, vars);

test("scores as the engine sends them are scores", () => {
  for (const good of [{ cp: 80 }, { cp: -1200 }, { cp: 0 }, { win: 1 }, { win: 5 }, { loss: 14 }]) {
    assert.equal(isScore(good), true, JSON.stringify(good));
  }
});

test("anything else is not a score", () => {
  for (const bad of [undefined, null, 3, "+0.8", "win in 5", [], {}, { cp: 0.5 }, { cp: "80" }, { win: 0 },
    { loss: -2 }, { mate: 3 }, { cp: 1, win: 2 }, [["cp", 1]], { cp: true }]) {
    assert.equal(isScore(bad), false, JSON.stringify(bad));
  }
});

test("an evaluation is written in stones with its sign, whatever the language", () => {
  assert.equal(evalText(80), "+0.8");
  assert.equal(evalText(-1250), "-12.5");
  assert.equal(evalText(0), "+0.0");
  assert.equal(evalText(-4), "-0.0"); // as the engine's own text (py/gomoku/search/score.py)
  for (const t of [en, zh]) {
    assert.equal(scoreLabel({ cp: 80 }, t), "+0.8");
    assert.equal(scoreWords({ cp: -150 }, t), "-1.5");
  }
});

test("wins and losses in English", () => {
  assert.equal(scoreLabel({ win: 5 }, en), "W5");
  assert.equal(scoreLabel({ loss: 4 }, en), "L4");
  assert.equal(scoreWords({ win: 5 }, en), "win in 5");
  assert.equal(scoreWords({ loss: 4 }, en), "loss in 4");
});

test("wins and losses in Chinese", () => {
  assert.equal(scoreLabel({ win: 3 }, zh), "胜3");
  assert.equal(scoreLabel({ loss: 2 }, zh), "负2");
  assert.equal(scoreWords({ win: 5 }, zh), "5 手内获胜");
  assert.equal(scoreWords({ loss: 4 }, zh), "4 手内失败");
});

test("the data attribute's form is one word of no language", () => {
  assert.equal(scoreCode({ cp: 80 }), "+0.8");
  assert.equal(scoreCode({ win: 5 }), "win-in-5");
  assert.equal(scoreCode({ loss: 12 }), "loss-in-12");
});

test("the words refuse what is not a score, naming it", () => {
  assert.throws(() => scoreLabel("win in 5", en), /not a score: "win in 5"/);
  assert.throws(() => scoreWords({ mate: 3 }, en), /not a score: \{"mate":3\}/);
  assert.throws(() => scoreCode(null), /not a score: null/);
});

test("a position is solved when the score is a win or a loss", () => {
  assert.equal(isDecisive({ score: { win: 3 } }), true);
  assert.equal(isDecisive({ score: { loss: 2 } }), true);
  assert.equal(isDecisive({ score: { cp: 99990 } }), false);
  assert.equal(isDecisive({ score: "win in 3" }), false);
  assert.equal(isDecisive({}), false);
  assert.equal(isDecisive(null), false);
});

test("a win or loss is named by colour, whoever is to move", () => {
  assert.deepEqual(colourScore({ score: { win: 7 }, black: 1 }, BLACK), { kind: "wins", color: BLACK, n: 7, black: 1 });
  assert.deepEqual(colourScore({ score: { win: 7 }, black: 0 }, WHITE), { kind: "wins", color: WHITE, n: 7, black: 0 });
  assert.deepEqual(colourScore({ score: { loss: 4 } }, BLACK), { kind: "wins", color: WHITE, n: 4, black: 0 });
  assert.deepEqual(colourScore({ score: { loss: 4 } }, WHITE), { kind: "wins", color: BLACK, n: 4, black: 1 });
});

test("an evaluation is turned to the colour ahead; the bar is the engine's black chance", () => {
  // the engine's chance of +1.2 for the side to move (freestyle's curve: scale 200)
  const b = colourScore({ score: { cp: 120 }, black: 0.6457 }, BLACK);
  assert.deepEqual(b, { kind: "ahead", color: BLACK, value: "1.2", black: 0.6457 });
  const w = colourScore({ score: { cp: 120 }, black: 0.3543 }, WHITE); // white to move and ahead
  assert.deepEqual(w, { kind: "ahead", color: WHITE, value: "1.2", black: 0.3543 });
  assert.deepEqual(colourScore({ score: { cp: -4 }, black: 0.505 }, WHITE), { kind: "even", black: 0.505 });
  assert.deepEqual(colourScore({ score: { cp: -250 }, black: 0.2227 }, BLACK),
    { kind: "ahead", color: WHITE, value: "2.5", black: 0.2227 });
  // no chance sent (or not one): the bar stays in the middle; no score: even
  assert.equal(colourScore({ score: { cp: 300 } }, BLACK).black, 0.5);
  assert.equal(colourScore({ score: { cp: 300 }, black: 1.5 }, BLACK).black, 0.5);
  assert.deepEqual(colourScore({}, BLACK), { kind: "even", black: 0.5 });
});
