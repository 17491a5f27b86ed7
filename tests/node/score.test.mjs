// node --test: web/model/score.js (the one reader of the engine's scores: the score text, a
// solved position, the colours' view for the thinking panel and the evaluation bar).
import assert from "node:assert/strict";
import test from "node:test";

import { parseScoreText as fromAnalysis } from "../../web/model/analysis.js";
import { BLACK, WHITE } from "../../web/model/rules.js";
import { colourScore, isDecisive, parseScoreText } from "../../web/model/score.js";

test("score texts as the engine writes them are read", () => {
  assert.deepEqual(parseScoreText("+0.8"), { kind: "eval", value: 0.8 });
  assert.deepEqual(parseScoreText("-12.0"), { kind: "eval", value: -12 });
  assert.deepEqual(parseScoreText("win in 5"), { kind: "win", n: 5 });
  assert.deepEqual(parseScoreText("loss in 14"), { kind: "loss", n: 14 });
});

test("anything else is not a score text", () => {
  for (const bad of [undefined, null, 3, "", "0.8", "+0.85", "+1", "win in", "win in x", "loss in 4 moves",
    " win in 5", "Win in 5", "draw"]) {
    assert.equal(parseScoreText(bad), null, JSON.stringify(bad));
  }
});

test("analysis.js reads scores with the same parser", () => {
  assert.equal(fromAnalysis, parseScoreText);
});

test("a position is solved when the score is a win or a loss", () => {
  assert.equal(isDecisive({ score_text: "win in 3" }), true);
  assert.equal(isDecisive({ score_text: "loss in 2" }), true);
  assert.equal(isDecisive({ score_text: "+9.9" }), false);
  assert.equal(isDecisive({ score_text: "winning" }), false);
  assert.equal(isDecisive({}), false);
  assert.equal(isDecisive(null), false);
});

test("a win or loss is named by colour, whoever is to move", () => {
  assert.deepEqual(colourScore({ score_text: "win in 7", score: 99990 }, BLACK), { kind: "wins", color: BLACK, n: 7, black: 1 });
  assert.deepEqual(colourScore({ score_text: "win in 7" }, WHITE), { kind: "wins", color: WHITE, n: 7, black: 0 });
  assert.deepEqual(colourScore({ score_text: "loss in 4" }, BLACK), { kind: "wins", color: WHITE, n: 4, black: 0 });
  assert.deepEqual(colourScore({ score_text: "loss in 4" }, WHITE), { kind: "wins", color: BLACK, n: 4, black: 1 });
});

test("an evaluation is turned to the colour ahead, with black's share of the bar", () => {
  const b = colourScore({ score_text: "+1.2", score: 120 }, BLACK);
  assert.equal(b.kind, "ahead");
  assert.equal(b.color, BLACK);
  assert.equal(b.value, "1.2");
  assert.ok(b.black > 0.5 && b.black < 1);
  const w = colourScore({ score_text: "+1.2", score: 120 }, WHITE); // white to move and ahead
  assert.equal(w.color, WHITE);
  assert.equal(w.value, "1.2");
  assert.ok(Math.abs(w.black - (1 - b.black)) < 1e-12);
  assert.deepEqual(colourScore({ score_text: "-0.0", score: -4 }, WHITE), { kind: "even", black: 0.5 });
  assert.deepEqual(colourScore({ score: 4 }, BLACK), { kind: "even", black: 0.5 });
  assert.deepEqual(colourScore({}, BLACK), { kind: "even", black: 0.5 });
  assert.equal(colourScore({ score: -250 }, BLACK).value, "2.5");
  assert.equal(colourScore({ score: -250 }, BLACK).color, WHITE);
});
