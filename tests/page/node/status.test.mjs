// node --test: web/model/status.js (what the page says about the state, in English here: the
// status and its code, the line under it, the score, the engine's and workers' lines, the
// board's spoken label).
import assert from "node:assert/strict";
import test from "node:test";

import { parseCell } from "../../../web/model/coords.js";
import * as Game from "../../../web/model/game.js";
import { TABLES, readLanguageFrom } from "../../../web/model/i18n.js";
import { LEVEL_NUMBERS, levelOf } from "../../../web/model/levels.js";

// A level's name in the page's text (i18n-levels.js), by its key.
const nameIn = (level, lang) => TABLES[lang]["level_" + level.key];
import { BLACK, WHITE } from "../../../web/model/rules.js";
import { DEFAULT_SETTINGS } from "../../../web/model/settings.js";
import * as State from "../../../web/model/state.js";
import * as Status from "../../../web/model/status.js";

const READY = { state: "ready", restarts: 0, ready: null };
const make = (setup = {}, moves = "", extra = {}) => {
  let s = { ...State.initialState({ game: Game.newGame(setup), settings: DEFAULT_SETTINGS }), engine: READY, ...extra };
  for (const c of moves.split(" ").filter(Boolean)) s = State.played(s, ...parseCell(c, s.game.size), new Date(0));
  return s;
};
const code = (s) => Status.statusOf(s).code;

test("the status code and text of each situation", () => {
  assert.deepEqual(Status.statusOf(make()), { code: "your-turn", text: "your turn" });
  assert.deepEqual(Status.statusOf(make({}, "h8", { job: { kind: "move" } })), { code: "thinking", text: "thinking..." });
  assert.equal(code(make({}, "h8")), "thinking"); // the engine's turn, its job about to start
  assert.equal(code(make({}, "h8 i9")), "your-turn");
  assert.equal(code({ ...make({}, "h8 i9 j10"), game: Game.goTo(make({}, "h8 i9 j10").game, 1) }), "review");
  assert.equal(code(make({}, "", { analysing: true })), "analysing");
  assert.equal(code(make({}, "", { engineError: "x", analysing: true })), "error");
  const won = make({}, "h8 a1 h9 a2 h10 a3 h11 a4 h12", { engineError: "x" });
  assert.deepEqual(Status.statusOf(won), { code: "black-wins", text: "Black wins" });
  assert.equal(code(make({ human: WHITE }, "h8 a1 h9 a2 h10 a3 h11 a4 a5 a6 h12")), "black-wins");
});

test("while the engine loads the player may move; else it is loading or restarting", () => {
  const loading = { state: "loading", restarts: 0, ready: null };
  assert.deepEqual(Status.statusOf(make({}, "", { engine: loading })), { code: "your-turn", text: "your turn (engine loading...)" });
  assert.deepEqual(Status.statusOf(make({}, "h8", { engine: loading })), { code: "loading", text: "loading engine..." });
  assert.equal(Status.statusOf(make({}, "h8", { engine: { ...loading, restarts: 1 } })).text, "restarting engine...");
});

test("the line under the status", () => {
  const line = (s) => Status.playerLine(s, code(s), 15);
  assert.equal(line(make()), "You play black and move first.");
  assert.equal(line(make({ human: WHITE })), "You play white.");
  assert.equal(line(make({ size: 19, rule: "standard" })), "You play black and move first. Game:\u00a019×19, standard.");
  assert.equal(line(make({}, "", { analysing: true })), "Analysis: play either colour, the engine only comments.");
  assert.equal(line(make({}, "h8 a1 h9 a2 h10 a3 h11 a4 h12")), "You win — well played! Press New game to play again.");
  const renju = make({ rule: "renju" }, "h10 a1 i10 c1 g9 e1 g8 o1");
  assert.equal(line(renju), "You play black and move first. Game:\u00a0renju. Crosses mark the points black may not play.");
});

test("the panel's score by colour, and black's share of the bar (the engine's chance)", () => {
  assert.deepEqual(Status.scoreLine({ score: { cp: 120 }, black: 0.3543, stm: WHITE }), { text: "White +1.2", black: 0.3543 });
  assert.deepEqual(Status.scoreLine({ score: { loss: 4 }, black: 1, stm: WHITE }), { text: "Black wins in 4", black: 1 });
  assert.deepEqual(Status.scoreLine({ score: { cp: 2 }, black: 0.5025, stm: BLACK }), { text: "even 0.0", black: 0.5025 });
  readLanguageFrom(() => "zh");
  try {
    assert.deepEqual(Status.scoreLine({ score: { win: 3 }, black: 0, stm: WHITE }), { text: "白棋 3 手内获胜", black: 0 });
    assert.equal(Status.scoreLine({ score: { cp: -250 }, black: 0.7773, stm: WHITE }).text, "黑棋 +2.5");
  } finally {
    readLanguageFrom(() => "en");
  }
});

test("speed, the engine's and the workers' lines", () => {
  assert.equal(Status.kilo(950), "950");
  assert.equal(Status.kilo(12345), "12.3k");
  assert.equal(Status.kilo(2500000), "2.50M");
  assert.equal(Status.speedText(12345), "12.3k nodes/s");
  assert.equal(Status.engineReadyText(null), "");
  assert.equal(Status.engineReadyText({ version: "1.2.3", pageLoadMs: 3456, pyodide: "0.27.7" }),
    "Engine 1.2.3 ready in 3.5 s (Pyodide 0.27.7).");
  assert.equal(Status.workersText({ threads: 2, ready: 1, total: 2 }), "Parallel search: 1 of 2 search workers ready.");
  assert.equal(Status.workersText({ threads: 1, ready: 0, total: 0 }), "Search in one worker (1 thread).");
});

test("the keyboard cursor's words", () => {
  const s = make({ rule: "renju" }, "h10 a1 i10 c1 g9 e1 g8 o1");
  const at = (c, top) => Status.cursorText(s, parseCell(c, 15), top);
  assert.equal(at("h10").short, "h10, black stone");
  assert.equal(at("a1").short, "a1, white stone");
  assert.equal(at("g10").short, "g10, forbidden for black: double three");
  assert.equal(at("h8").short, "h8, empty");
  assert.equal(at("h8", "best move 1, +0.8").short, "h8, empty, best move 1, +0.8");
  assert.equal(at("j9").label, "Gomoku board, 15 by 15. Cursor on j9, empty. Arrow keys move, Enter or Space places a stone.");
  assert.equal(Status.forbiddenText(State.shownOf(s.game).forbidden, 15), "g10");
  assert.equal(Status.resultSentence(State.shownOf(make({}, "h8 a1 h9 a2 h10 a3 h11 a4 h12").game).pos), " Black wins.");
  assert.equal(Status.resultSentence(State.shownOf(s.game).pos), "");
});

test("the level chooser's words: labels with the rating when measured, the description, the record", () => {
  const l = levelOf(1);
  const unrated = { ...l, rating: null, ratingError: null };
  assert.equal(Status.levelLabel(unrated), `1 · ${nameIn(l, "en")}`);
  // the choosers show the rating rounded to 50, without its error or unit
  assert.equal(Status.levelLabel({ ...l, rating: 352, ratingError: 40 }), `1 · ${nameIn(l, "en")} (≈ 350)`);
  assert.equal(Status.levelLabel({ ...l, rating: 1432, ratingError: 170 }), `1 · ${nameIn(l, "en")} (≈ 1450)`);
  assert.equal(Status.levelRatingText(unrated), "Rating not yet measured.");
  assert.match(Status.levelRatingText({ ...unrated, nodes: null, timeMs: 0 }), /at least Expert's strength/);
  // in a player's words: rounded as the choosers show it; how it was measured (the rating
  // with its error, the method) in the details line only
  const rated = { ...l, rating: 352, ratingError: 40 };
  assert.equal(Status.levelRatingText(rated), "Rating about 350.");
  assert.equal(Status.levelRatingDetails(rated), "Details: Elo 352 ± 40 from engine matches (the greedy reference player = 800).");
  assert.equal(Status.levelRatingDetails(unrated), "");
  assert.equal(Status.levelRecordText({ won: 2, lost: 5, drawn: 0 }), "Won 2, lost 5, drawn 0 at this level.");
  assert.equal(Status.levelRecordText({ won: 0, lost: 0, drawn: 0 }), "No games at this level yet.");
  assert.deepEqual(Status.levelAbout(unrated, { won: 0, lost: 1, drawn: 0 }), {
    description: TABLES.en["levelAbout_" + l.key], details: "Rating not yet measured. Won 0, lost 1, drawn 0 at this level.", method: "",
  });
  const about = Status.levelAbout(rated, { won: 0, lost: 0, drawn: 0 });
  assert.equal(about.details, "Rating about 350. No games at this level yet.");
  assert.doesNotMatch(about.details, /Elo|greedy|±/);
  assert.match(about.method, /^Details: Elo 352 ± 40/);
  // every level of the table has a label
  for (const n of LEVEL_NUMBERS) assert.match(Status.levelLabel(levelOf(n)), new RegExp(`^${n} · \\S`));
});

test("how to play in two lines, and the level offered after a game, in English and Chinese", () => {
  const g = Game.newGame();
  assert.deepEqual(Status.howToPlay(g), [
    "Five stones in a row (across, down or diagonally) wins.",
    "You are black and move first: tap or click a point; the engine answers.",
  ]);
  assert.match(Status.howToPlay(Game.withHuman(g, WHITE))[1], /^You are white: the engine moves first/);
  const at = (level, offer, offerKind) => ({ game: Game.newGame({ level }), offer, offerKind });
  assert.equal(Status.offerSentence(at(4, 3, "easier")),
    `Three losses in a row at level 4. Level 3, ${nameIn(levelOf(3), "en")}, may be more fun for now, if you like.`);
  assert.equal(Status.offerSentence(at(1, 2, "next")), `You beat level 1, ${nameIn(levelOf(1), "en")}! Ready for level 2, ${nameIn(levelOf(2), "en")}?`);
  assert.equal(Status.offerSentence(at(1, null, null)), "");
  readLanguageFrom(() => "zh");
  try {
    assert.deepEqual(Status.howToPlay(g), ["横、竖或斜向先连成五子者获胜。", "你执黑棋先行：点击交叉点落子，引擎随后应对。"]);
    assert.equal(Status.offerSentence(at(4, 3, "easier")), `在第 4 级连输三局了。想的话，可以先去第 3 级（${nameIn(levelOf(3), "zh")}）玩玩。`);
  } finally {
    readLanguageFrom(() => "en");
  }
});
