// node --test: web/model/puzzle-play.js (the puzzles page's state and words) and
// web/model/puzzle-store.js (its storage, handed in).
import assert from "node:assert/strict";
import test from "node:test";

import { readLanguageFrom } from "../../../web/model/i18n.js";
import {
  counted, failedText, headline, lineOverlay, newPlayState, showSolution, solvedText, solverColour, startExercise,
  startPuzzle, takenBack,
} from "../../../web/model/puzzle-play.js";
import { PROGRESS_KEY, loadProgress, saveLanguage, saveProgress, savedSettings } from "../../../web/model/puzzle-store.js";
import { PUZZLES } from "../../../web/model/puzzles-data.js";
import { decodeRow, newProgress, sideOf } from "../../../web/model/puzzles.js";
import { KEYS } from "../../../web/model/storage.js";

const all = PUZZLES.map(decodeRow);
const vcf = all.find((p) => p.theme === "vcf" && p.line.length > 1);
const defend = all.find((p) => p.theme === "defend");

// A stand-in for localStorage.
function memory(items = {}) {
  const m = new Map(Object.entries(items));
  return {
    getItem: (k) => (m.has(k) ? m.get(k) : null), setItem: (k, v) => m.set(k, String(v)), removeItem: (k) => m.delete(k),
    map: m,
  };
}

test("a puzzle starts from its position, a new puzzle drops what a late answer would change", () => {
  readLanguageFrom(() => "en");
  const st = newPlayState();
  assert.equal(st.phase, "idle");
  startPuzzle(st, vcf, { daily: true });
  assert.deepEqual(st.moves, vcf.moves);
  assert.notEqual(st.moves[0], vcf.moves[0]); // a copy: moves made do not change the puzzle
  assert.equal(st.phase, "solve");
  assert.equal(st.made, 0);
  assert.equal(solverColour(st), sideOf(vcf));
  const token = st.token;
  st.moves.push([0, 0]);
  st.made = 1;
  takenBack(st);
  assert.equal(st.phase, "continue");
  assert.equal(st.moves.length, vcf.moves.length);
  const { prompt, info } = headline(st, Date.UTC(2026, 10, 27));
  assert.match(prompt, /to play/i);
  assert.match(info, /2026-11-27/);
  assert.match(info, new RegExp(vcf.id));
  startPuzzle(st, null);
  assert.equal(st.phase, "idle");
  assert.deepEqual(st.moves, []);
  assert.ok(st.token > token);
});

test("the solution: the line from the side to move, or the defence's block", () => {
  readLanguageFrom(() => "en");
  const st = newPlayState();
  startPuzzle(st, vcf);
  st.moves.push([0, 0]);
  const shown = showSolution(st);
  assert.equal(st.phase, "shown");
  assert.deepEqual(st.moves, vcf.moves);
  assert.deepEqual(shown.overlay, lineOverlay(vcf.line, sideOf(vcf)));
  assert.equal(shown.overlay[1].color, 3 - sideOf(vcf));
  assert.equal(shown.overlay[1].label, 2);
  assert.match(shown.text, /line/i);
  startPuzzle(st, defend);
  const block = showSolution(st);
  assert.equal(block.overlay.length, 1);
  assert.equal(block.overlay[0].color, sideOf(defend));
});

test("an exercise of the mistakes is a stand-in puzzle of its game's size and rule", () => {
  readLanguageFrom(() => "zh");
  const st = newPlayState();
  const ex = { moves: [[7, 7], [8, 8]], better: [6, 6], line: [[6, 6], [5, 5]], played: [9, 9], colour: 1, index: 3, cls: "blunder" };
  st.exercises = [ex];
  st.mode = "mistakes";
  startExercise(st, 0, { size: 17, rule: "renju" });
  assert.equal(st.puzzle.size, 17);
  assert.equal(st.puzzle.rule, "renju");
  assert.deepEqual(st.puzzle.solutions, [[6, 6]]);
  assert.equal(solverColour(st), 1);
  assert.match(headline(st, 0).info, /1/);
  const shown = showSolution(st);
  assert.equal(shown.overlay.length, 2);
  readLanguageFrom(() => "en");
});

test("a result counts once, and says so", () => {
  readLanguageFrom(() => "en");
  const p = all[0];
  const first = counted(newProgress(), p, true, "2026-11-27");
  assert.ok(first.counted && first.after > first.before);
  assert.match(solvedText(first, "Well found."), /^Well found\. .*\d/);
  const again = counted(first.progress, p, false, "2026-11-27");
  assert.ok(!again.counted && again.progress === first.progress);
  assert.equal(failedText(again, "No."), "No.");
  assert.match(solvedText(again), new RegExp(String(first.after)));
});

test("the progress is stored under its key; an unreadable one is dropped alone", () => {
  const store = memory({ [KEYS.settings]: JSON.stringify({ theme: "dark" }) });
  assert.deepEqual(loadProgress(store), { progress: newProgress(), dropped: null });
  const p = counted(newProgress(), all[0], true, "2026-11-27").progress;
  saveProgress(store, p);
  assert.deepEqual(loadProgress(store).progress, p);
  store.setItem(PROGRESS_KEY, "{not json");
  const read = loadProgress(store);
  assert.ok(read.dropped instanceof Error);
  assert.deepEqual(read.progress, newProgress());
  assert.ok(!store.map.has(PROGRESS_KEY));
  saveLanguage(store, "zh");
  assert.deepEqual(savedSettings(store), { theme: "dark", lang: "zh" });
  store.setItem(KEYS.settings, "[1]");
  assert.equal(savedSettings(store), null);
  const broken = { getItem: () => { throw new Error("denied"); } };
  assert.deepEqual(loadProgress(broken), { progress: newProgress(), dropped: null });
});
