// node --test: web/model/review-words.js (the game review in a player's words: from the
// mover's side, "you" and "your opponent"; the colours only in analysis; how a flag was
// found and the budget in a details line) on the worker's own answers for a short game
// (fixtures/review-answers.json: white's j9, move 6, leaves black's open three, a proven
// blunder, better k8; black wins), in English and Chinese.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";

import * as Game from "../../../web/model/game.js";
import { TABLES, readLanguageFrom, textOf } from "../../../web/model/i18n.js";
import { parseMoves } from "../../../web/model/records.js";
import { CLASSES, addAnswer, newReview } from "../../../web/model/review.js";
import { budgetWords, moveNote, pointWords, speaker, summaryWho } from "../../../web/model/review-words.js";
import { BLACK, WHITE } from "../../../web/model/rules.js";

const FIXTURE = JSON.parse(readFileSync(new URL("./fixtures/review-answers.json", import.meta.url), "utf8"));
const record = { moves: parseMoves(FIXTURE.game, 15), size: 15, rule: "freestyle", first: BLACK };
const GAME = Game.fromRecord(record); // over: black (human by default) won
const REVIEW = FIXTURE.answers.reduce((r, a) => addAnswer(r, a, GAME), newReview(GAME));
const en = (m) => textOf(m, "en");
const zh = (m) => textOf(m, "zh");

test("who moved: you, your opponent, or the colour when the player is on neither side", () => {
  assert.equal(speaker("black", BLACK), "you");
  assert.equal(speaker("white", BLACK), "opponent");
  assert.equal(speaker("white", WHITE), "you");
  assert.equal(speaker("white", null), "white");
  assert.equal(en(summaryWho("white", BLACK)), "Your opponent");
  assert.equal(en(summaryWho("black", BLACK)), "You");
  assert.equal(en(summaryWho("black", null)), "Black");
  assert.equal(zh(summaryWho("white", BLACK)), "对手");
});

test("the opponent's blunder, from the mover's side; the method and budget in the details line", () => {
  const note = moveNote(REVIEW, GAME, 6, BLACK);
  assert.equal(en(note.head), "Move 6, your opponent played j9: a blunder.");
  assert.deepEqual(note.better.map(en), [
    "k8 was better (its line is drawn on the board: k8 j9 j7 g9 g8 i7 f10).",
    "After it you win by force.", // a proven blunder: whose forced win
  ]);
  // white's chance, not black's: it fell to nothing
  const before = Math.round((1 - REVIEW.black[5]) * 100);
  assert.equal(en(note.chance), `Your opponent's chance ${before}% → 0%.`);
  assert.equal(en(note.details), "Details: proven (the engine found a forced win); 12,000 nodes per position.");
  // nothing of the engine's method or budget outside the details line
  for (const m of [note.head, ...note.better, note.chance]) assert.doesNotMatch(en(m), /proven|judged|nodes|Black's|White's/);
  assert.equal(zh(note.head), "第 6 手，对手下 j9：败着。");
  assert.equal(zh(note.chance), `对手的胜率 ${before}% → 0%。`);
  assert.match(zh(note.details), /^详情：已证明/);
});

test("the same move when the player is white: your move, your chance", () => {
  const asWhite = Game.withHuman(GAME, WHITE);
  const note = moveNote(REVIEW, asWhite, 6, WHITE);
  assert.equal(en(note.head), "Move 6, you played j9: a blunder.");
  assert.equal(en(note.better[1]), "After it your opponent wins by force.");
  assert.match(en(note.chance), /^Your chance \d+% → 0%\.$/);
  assert.equal(zh(note.head), "第 6 手，你下 j9：败着。");
});

test("in analysis (neither side the player's) the colours are named, the chance the mover's", () => {
  const note = moveNote(REVIEW, GAME, 6, null);
  assert.equal(en(note.head), "Move 6, white played j9: a blunder.");
  assert.equal(en(note.better[1]), "After it black wins by force.");
  assert.match(en(note.chance), /^White's chance \d+% → 0%\.$/);
  assert.equal(zh(note.head), "第 6 手，白棋下 j9：败着。");
  assert.equal(en(pointWords(REVIEW, GAME, 0, null)[0]), `Start: Black's chance ${Math.round(REVIEW.black[0] * 100)}%.`);
});

test("the graph's points and the words said when browsing", () => {
  const brief = pointWords(REVIEW, GAME, 6, BLACK, true).map(en);
  assert.deepEqual(brief, ["Move 6, your opponent played j9: a blunder.", "k8 was better.", "After it you win by force."]);
  const full = pointWords(REVIEW, GAME, 6, BLACK).map(en);
  assert.equal(full[full.length - 1], "Your opponent's chance after it: 0%.");
  assert.equal(en(pointWords(REVIEW, GAME, 0, BLACK)), `Start: your chance ${Math.round(REVIEW.black[0] * 100)}%.`);
  assert.deepEqual(pointWords(REVIEW, GAME, 99, BLACK), []);
  assert.equal(en(budgetWords(REVIEW)), "Details: 12,000 nodes per position (a deep review: 60,000).");
});

test("a missed win: you could have won with the better move", () => {
  // the fixture's move 7 (black's k8) recast as a missed win with a better move
  const missed = structuredClone(REVIEW);
  missed.moves[7] = { cls: "missed_win", better: [6, 7], line: [[6, 7], [1, 1]], proof: "judged", noBetter: false };
  const note = moveNote(missed, GAME, 7, BLACK);
  assert.equal(en(note.head), "Move 7, you played k8: you could have won with g8.");
  assert.equal(en(note.better[0]), "The winning line is drawn on the board: g8 b14.");
  assert.equal(en(note.details), "Details: judged by the evaluation (no forced win found); 12,000 nodes per position.");
  assert.equal(en(moveNote(missed, GAME, 7, WHITE).head), "Move 7, your opponent played k8: they could have won with g8.");
  assert.equal(zh(note.head), "第 7 手，你下 k8：你本可以下 g8 取胜。");
});

test("every class and side has its sentence in both languages, every field filled in", () => {
  for (const cls of CLASSES) {
    for (const side of [BLACK, WHITE, null]) {
      const review = structuredClone(REVIEW);
      review.moves[6] = { cls, better: cls === "best" ? null : [10, 7], line: [[10, 7]], proof: null, noBetter: cls === "blunder" };
      const note = moveNote(review, GAME, 6, side);
      for (const m of [note.head, ...note.better, note.chance, note.details, ...pointWords(review, GAME, 6, side)]) {
        for (const code of ["en", "zh"]) {
          const text = textOf(m, code);
          assert.doesNotMatch(text, /\{|\}|^rv|^clsA_/, `${cls} ${side} ${code}: ${text}`);
        }
      }
    }
  }
  assert.equal(Object.keys(TABLES.zh).length, Object.keys(TABLES.en).length);
});

test("the words follow the page's language when rendered (kept as messages)", () => {
  const head = moveNote(REVIEW, GAME, 6, BLACK).head;
  let lang = "en";
  readLanguageFrom(() => lang);
  try {
    assert.equal(textOf(head), "Move 6, your opponent played j9: a blunder.");
    lang = "zh";
    assert.equal(textOf(head), "第 6 手，对手下 j9：败着。");
  } finally {
    readLanguageFrom(() => "en");
  }
});
