// node --test: web/model/i18n.js. Both languages have the same keys, every one filled in and
// with the same {fields}; every key the page uses exists: t("...") in web/*.js (a
// literal key, or a literal prefix with each of its known endings), data-i18n* in
// index.html, and the notices of storage.js.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import test from "node:test";

import {
  TABLES, applyLanguage, currentLanguage, errorMessage, errorText, inLanguages, joinSentences, joined, msg, pickLanguage,
  readLanguageFrom, t, textOf,
} from "../../../web/model/i18n.js";
import { LEVEL_DATA } from "../../../web/model/levels-data.js";
import { OPENING_RULES, OPTIONS } from "../../../web/model/opening.js";
import { textError } from "../../../web/model/record-errors.js";
import { SHAPES } from "../../../web/model/renju.js";
import { CLASSES, COUNTED } from "../../../web/model/review.js";
import { RULES } from "../../../web/model/rules.js";
import { KEYS, loadAll } from "../../../web/model/storage.js";

const WEB = new URL("../../../web/", import.meta.url);
const read = (name) => readFileSync(new URL(name, WEB), "utf8");
const { en, zh } = TABLES;
const fields = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

// The endings of the keys the page builds from a prefix (t("src_" + source), ...).
const FAMILIES = {
  cls_: CLASSES, // the game review's classes
  clsA_: CLASSES, // ... as a sentence's object ("a blunder")
  many_: COUNTED,
  src_: ["book", "threat", "search", "forced", "guard", "level"],
  rule_: RULES,
  level_: LEVEL_DATA.map((l) => l.key), // the levels' names and descriptions (i18n-levels.js)
  levelAbout_: LEVEL_DATA.map((l) => l.key),
  res_: ["black", "white", "draw", "unfinished"],
  hist_: ["won", "lost", "draw", "unfinished"],
  shape_: SHAPES.map((s) => s.replaceAll(" ", "_")),
  // the opening rules (opening.js): their names, what each phase asks, the roles, what
  // the human (with two players: the first or second player) and the engine did
  opr_: [...OPENING_RULES, "none"],
  opa_: [...OPENING_RULES, "none"],
  op_do_open_: OPENING_RULES,
  op_where_: ["1", "2", "3"],
  op_do_: Object.keys(OPTIONS).filter((p) => p !== "open" && p !== "done").map((p) => p.replace("-", "_")),
  op_role_: ["1", "2"],
  op_ann_you_: ["place", "offer", "select", "black", "white", "two", "declare"],
  op_ann_player_: ["place", "offer", "select", "black", "white", "two", "declare"],
  op_ann_engine_: ["place", "offer", "select", "black", "white", "two", "declare"],
};

// The keys t() and msg() (a message kept to be shown later) are called with in a module:
// [{key, prefix}], from the string literals at the top level of the first argument (a
// ternary gives both of its keys; "x_" + ... a prefix; literals inside nested calls are
// not keys).
function keysUsed(source) {
  const found = [];
  for (const m of source.matchAll(/\b(?:t|msg)\(/g)) {
    let depth = 0;
    let arg = "";
    for (let i = m.index + m[0].length; i < source.length; i++) {
      const c = source[i];
      if (c === "(" || c === "{" || c === "[") depth += 1;
      if (c === ")" || c === "}" || c === "]") {
        if (depth === 0) break;
        depth -= 1;
        continue;
      }
      if (c === "," && depth === 0) break;
      if (depth === 0) arg += c;
    }
    for (const lit of arg.matchAll(/"([^"]*)"\s*(\+)?/g)) found.push({ key: lit[1], prefix: !!lit[2] });
  }
  return found;
}

test("English and Chinese have the same keys, every text filled in, with the same fields", () => {
  assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort());
  for (const key of Object.keys(en)) {
    assert.ok(en[key].trim() && zh[key].trim(), key);
    assert.deepEqual(fields(zh[key]), fields(en[key]), key);
  }
});

test("every t() key in web/*.js exists", () => {
  const files = readdirSync(WEB, { recursive: true }).filter((f) => f.endsWith(".js") && f !== "model/i18n.js"); // i18n.js defines t
  let count = 0;
  for (const file of files) {
    for (const { key, prefix } of keysUsed(read(file))) {
      count += 1;
      if (prefix) {
        assert.ok(FAMILIES[key], `${file}: t("${key}" + ...) is not a known family`);
        for (const end of FAMILIES[key]) assert.ok(key + end in en, `${file}: ${key + end}`);
      } else {
        assert.ok(key in en, `${file}: t("${key}")`);
      }
    }
  }
  assert.ok(count > 100, `only ${count} keys found: the scan is broken`);
});

test("every data-i18n key of index.html exists", () => {
  const html = read("index.html");
  const keys = [...html.matchAll(/data-i18n(?:-label|-title)?="([^"]+)"/g)].map((m) => m[1]);
  assert.ok(keys.length > 50);
  for (const key of keys) assert.ok(key in en, key);
});

test("the notices of stored data that cannot be read exist", () => {
  const storage = {
    items: new Map([[KEYS.game, "{"], [KEYS.settings, "[]"], [KEYS.history, JSON.stringify([{ date: 1 }])],
      [KEYS.results, JSON.stringify({ 42: {} })]]),
    getItem(k) { return this.items.get(k) ?? null; },
    setItem(k, v) { this.items.set(k, v); },
    removeItem(k) { this.items.delete(k); },
  };
  const { notices } = loadAll(storage);
  assert.deepEqual(notices, ["corruptGame", "corruptSettings", "droppedHistory", "droppedResults"]);
  assert.ok("corruptHistory" in en && "corruptResults" in en);
  for (const key of ["corruptReview", "droppedReview"]) assert.ok(key in en && key in zh, key);
  for (const key of notices) assert.ok(key in en, key);
  // notices with fields: an unknown level, a bad seed (storage.js)
  storage.items.set(KEYS.game, JSON.stringify({ level: 42, seed: -1, moves: [] }));
  const mended = loadAll(storage).notices;
  assert.deepEqual(mended.map((n) => n.key), ["unknownLevel", "badSeed"]);
  for (const { key, vars } of mended) {
    assert.ok(key in en, key);
    assert.deepEqual(Object.keys(vars).sort(), fields(en[key]), key);
  }
  assert.equal(t(mended[0].key, mended[0].vars), "The saved game's level 42 is not a level; it is now played at level 4.".replace("4.", `${mended[0].vars.n}.`));
});

test("t fills in fields and falls back to the key", () => {
  assert.equal(t("navPos", { n: 3, total: 9 }), "Move 3 of 9");
  assert.equal(t("boardLabel", { n: 15, cell: "h8", what: "empty" }),
    "Gomoku board, 15 by 15. Cursor on h8, empty. Arrow keys move, Enter or Space places a stone.");
  assert.equal(t("navPos", { n: 3 }), "Move 3 of {total}");
  assert.equal(t("no such key"), "no such key");
});

test("the language is read where it is kept: a change of the settings is the page's language at once", () => {
  const settings = { lang: null };
  readLanguageFrom(() => pickLanguage(settings.lang, ["zh-TW", "en-GB"]));
  try {
    assert.equal(currentLanguage(), "zh"); // no choice: the browser's first language we have
    assert.equal(t("undo"), zh.undo);
    settings.lang = "en";
    assert.equal(currentLanguage(), "en");
    assert.equal(t("undo"), en.undo);
    assert.equal(errorText({ key: "rec_noList" }), en.rec_noList);
    settings.lang = "zh";
    assert.equal(errorText({ key: "rec_noList" }), zh.rec_noList);
    // a document shows it: its lang attribute and the static texts (data-i18n*)
    const el = { dataset: { i18n: "undo", i18nLabel: "moves", i18nTitle: "hint" }, attrs: {},
      setAttribute(k, v) { this.attrs[k] = v; } };
    const doc = { documentElement: {}, querySelectorAll: (sel) => (sel.startsWith("[data-i18n") ? [el] : []) };
    applyLanguage(doc);
    assert.equal(doc.documentElement.lang, "zh-CN");
    assert.deepEqual([el.textContent, el.attrs["aria-label"], el.title], [zh.undo, zh.moves, zh.hint]);
    settings.lang = "fr"; // not one of ours (stored settings are checked, this is the last guard)
    assert.equal(currentLanguage(), "zh");
    readLanguageFrom(() => "fr");
    assert.equal(currentLanguage(), "en");
  } finally {
    readLanguageFrom(() => "en");
  }
});

test("pickLanguage: the saved choice, else the browser's preferences, else English", () => {
  assert.equal(pickLanguage("zh", ["en-US"]), "zh");
  assert.equal(pickLanguage(null, ["fr-FR", "ZH-cn"]), "zh");
  assert.equal(pickLanguage("xx", ["de"]), "en");
  assert.equal(pickLanguage(null), "en");
});

test("a message is kept as data and rendered in the language of the moment", () => {
  const said = [msg("youPlayMove", { move: "h8" }), msg("blackWins")];
  assert.equal(textOf(said, "en"), "You play h8. Black wins.");
  assert.equal(textOf(said, "zh"), "你下在 h8。黑棋获胜。");
  // fields that are messages, texts in each language, lists, errors
  const nested = msg("badLink", { err: errorMessage(textError("rec_notPoint", { tok: "z9", n: 2 })) });
  assert.equal(textOf(nested, "en"), 'The link could not be opened: "z9" (move 2) is not a point like h8. Your current game is unchanged.');
  assert.equal(textOf(nested, "zh"), "无法打开链接：“z9”（第 2 手）不是像 h8 这样的交叉点。当前棋局未改变。");
  assert.equal(textOf(msg("playLevel", { n: 2, name: inLanguages({ en: "Starter", zh: "入门" }) }), "zh"), "挑战第 2 级：入门");
  assert.equal(textOf(inLanguages({ en: "Starter" }), "zh"), "Starter", "English where a language is missing");
  assert.equal(textOf(joined([msg("rvOne", { cls: msg("cls_blunder") }), msg("many_mistake", { n: 2 })], msg("rvSep")), "en"),
    "1 blunder, 2 mistakes");
  assert.equal(textOf(errorMessage(new Error("plain")), "zh"), "plain", "an error without a key: its text");
  for (const empty of [null, undefined, "", []]) assert.equal(textOf(empty), "");
  // the page's language is read when rendered, not when the message was made
  let lang = "en";
  readLanguageFrom(() => lang);
  try {
    const notice = msg("linkOpened");
    assert.equal(textOf(notice), en.linkOpened);
    lang = "zh";
    assert.equal(textOf(notice), zh.linkOpened);
  } finally {
    readLanguageFrom(() => "en");
  }
});

test("sentences in a row: a space after an English one, none after a Chinese one", () => {
  assert.equal(joinSentences(["One.", "Two.", " Three.", "", "四。", "五。"]), "One. Two. Three. 四。五。");
  assert.equal(joinSentences(["", "Alone."]), "Alone.");
});
