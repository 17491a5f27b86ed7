// node --test: a game under an opening rule in the page's model: game.js (the opening's
// actions, the colours it decides, what play / undo / the key do during and after it),
// state.js (who may put a stone down), status.js (what the page says in each phase, in
// English and Chinese), storage.js (the game and the finished games keep the opening, a
// record that does not fit is refused), records.js (links and .psq files carry it, and
// read back), the engine's opening message and sentence (engine-jobs.js).
import assert from "node:assert/strict";
import test from "node:test";

import { parseCell } from "../../../web/model/coords.js";
import * as Game from "../../../web/model/game.js";
import { errorText, readLanguageFrom, textOf } from "../../../web/model/i18n.js";
import { parseFragment, parsePsq, toFragment, toPsq } from "../../../web/model/records.js";
import { BLACK, WHITE } from "../../../web/model/rules.js";
import { initialState, openingActed, playerMayPlay } from "../../../web/model/state.js";
import { historyLabel, offerAt, playerLine, statusOf } from "../../../web/model/status.js";
import { KEYS, decodeGame, encodeGame, encodeHistory, historyEntry, loadAll } from "../../../web/model/storage.js";
import { DEFAULT_SETTINGS } from "../../../web/model/settings.js";
import { openingMessage, openingSentence } from "../../../web/engine/engine-jobs.js";

const at = (text) => parseCell(text, 15);
const place = (text) => ({ kind: "place", at: at(text) });

// a game under rule (player: the human's) after actions given as words
function played(rule, player, words, gameRule = rule === "soosorv8" ? "renju" : "freestyle") {
  let g = Game.newGame({ rule: gameRule, opening: { rule, player } });
  for (const w of words.split(" ").filter(Boolean)) {
    const state = Game.openingOf(g).state;
    let action;
    if (["black", "white", "two"].includes(w)) action = { kind: w };
    else if (/^\d$/.test(w)) action = { kind: "declare", n: Number(w) };
    else action = { kind: state.phase === "select" ? "select" : "place", at: at(w) };
    g = Game.openingAct(g, action);
  }
  return g;
}

const english = () => readLanguageFrom(() => "en");
const state = (game, extra = {}) => ({ ...initialState({ game, settings: DEFAULT_SETTINGS }), engine: { state: "ready", restarts: 0, ready: null }, ...extra });

test("a new game under an opening rule: the player's tentative colour, no opening without one", () => {
  const first = Game.newGame({ opening: { rule: "swap2", player: 1 } });
  assert.deepEqual(first.opening, { rule: "swap2", player: 1, choices: [], offers: [] });
  assert.equal(first.human, BLACK);
  assert.equal(Game.newGame({ opening: { rule: "swap2", player: 2 } }).human, WHITE);
  assert.equal("opening" in Game.newGame(), false); // a game without one keeps its shape
  assert.throws(() => Game.newGame({ rule: "renju", opening: { rule: "swap2", player: 1 } }), /not an opening rule of renju/);
  assert.throws(() => Game.newGame({ rule: "renju", size: 17, opening: { rule: "soosorv8", player: 1 } }), /15×15/);
  assert.throws(() => Game.newGame({ opening: { rule: "swap2", player: 3 } }), /bad opening player 3/);
  assert.throws(() => Game.newGame({ first: WHITE, opening: { rule: "swap2", player: 1 } }), /black move first/);
});

test("swap2: the stones are the game's moves, the choices decide the colours", () => {
  let g = played("swap2", 2, "h8 h9 j10");
  assert.deepEqual(g.moves, [at("h8"), at("h9"), at("j10")]);
  assert.equal(Game.openingTurn(g), "human");
  assert.equal(Game.nextStoneColour(g), WHITE); // (a 4th stone would be white's)
  g = Game.openingAct(g, { kind: "black" });
  assert.equal(Game.inOpening(g), false);
  assert.equal(g.human, BLACK); // the second player took black
  assert.deepEqual(g.opening.choices, ["black"]);
  assert.equal(Game.sideToMove(g), WHITE); // white (the engine) moves on
  const two = played("swap2", 1, "h8 h9 j10 two i9 k8 white");
  assert.equal(two.human, WHITE); // the first player took white after two
  assert.deepEqual(two.opening.choices, ["two", "white"]);
  assert.equal(Game.openingTurn(played("swap2", 1, "h8 h9 j10")), "engine");
});

test("during the opening play, undo and Swap sides wait; after it the opening's stones stay", () => {
  const g = played("swap2", 1, "h8 h9");
  assert.equal(Game.illegalReason(g, ...at("k11")), "opening");
  assert.throws(() => Game.play(g, ...at("k11")), /opening/);
  assert.equal(Game.undoTarget(g), null);
  assert.equal(Game.undoTarget(g, true), null);
  let done = played("swap2", 2, "h8 h9 j10 black"); // the human black, the engine white
  done = Game.play(done, ...at("i9")); // white (as if the engine)
  done = Game.play(done, ...at("k11")); // black, the human
  assert.equal(Game.undoTarget(done), 4); // back to the human's own move, not into the opening
  assert.equal(Game.undoTarget(Game.goTo(done, 4)), null);
  assert.equal(Game.undoTarget(Game.goTo(done, 4), true), 3);
  assert.equal(Game.undoTarget(Game.goTo(done, 3), true), null);
  assert.equal(Game.illegalReason(Game.goTo(done, 2), ...at("a1")), "opening"); // no branch inside it
  assert.equal(Game.illegalReason(Game.goTo(done, 3), ...at("a1")), null);
  assert.throws(() => Game.openingAct(done, { kind: "black" }), (e) => e.key === "op_over");
  const browsing = Game.goTo(played("swap2", 1, "h8 h9"), 1);
  assert.throws(() => Game.openingAct(browsing, place("j10")), (e) => e.key === "op_browsing");
  // Swap sides after the opening: the other colour and the other player
  const swapped = Game.withHuman(played("swap2", 2, "h8 h9 j10 black"), WHITE);
  assert.equal(swapped.opening.player, 1);
});

test("a refused action leaves the game as it was, with the rule's sentence", () => {
  const g = played("soosorv8", 1, "h8");
  assert.throws(() => Game.openingAct(g, place("h10")), (err) => {
    assert.equal(errorText(err, "en"), "the second stone goes on a point next to h8, not h10");
    assert.equal(errorText(err, "zh"), "第二子必须下在紧挨 h8 的点上，不能下在 h10");
    return true;
  });
  assert.deepEqual(g.moves, [at("h8")]);
});

test("Soosõrv-8: offers are not moves until white chooses one", () => {
  let g = played("soosorv8", 2, "h8 h9 j10 white i7 2 black j8");
  assert.deepEqual(g.moves.length, 4);
  assert.deepEqual(g.opening.offers, [at("j8")]);
  assert.equal(offerAt(g, ...at("j8")), 1);
  assert.equal(offerAt(g, ...at("g8")), 0);
  assert.equal(Game.openingTurn(g), "engine"); // black (the first player, the engine) offers
  g = Game.openingAct(g, place("g8"));
  assert.equal(Game.openingTurn(g), "human"); // white (the human) chooses
  g = Game.openingAct(g, { kind: "select", at: at("g8") });
  assert.deepEqual(g.moves[4], at("g8"));
  assert.equal(Game.inOpening(g), false);
  assert.equal(g.human, WHITE);
  assert.deepEqual(g.opening.choices, ["white", "2", "black"]);
  assert.equal(offerAt(g, ...at("j8")), 0); // the offers are gone from the board
});

test("the position key tells openings apart", () => {
  const a = played("soosorv8", 1, "h8 h9 j10 white i7 2 black j8");
  const b = played("soosorv8", 1, "h8 h9 j10 white i7 3 black j8");
  assert.notEqual(Game.positionKey(a), Game.positionKey(b));
  assert.notEqual(Game.positionKey(a), Game.positionKey({ ...a, opening: undefined }));
});

test("the player may put a stone down on their turn to place or to choose an offer", () => {
  assert.equal(playerMayPlay(state(played("swap2", 1, "h8"))), true);
  assert.equal(playerMayPlay(state(played("swap2", 2, "h8 h9 j10"))), false); // a choice: the panel
  assert.equal(playerMayPlay(state(played("swap2", 2, "h8"))), false); // the engine's turn
  assert.equal(playerMayPlay(state(played("swap2", 1, "h8"), { job: { kind: "move" } })), false);
  assert.equal(playerMayPlay(state(played("soosorv8", 2, "h8 h9 j10 white i7 1 black j8"))), true);
  const s = openingActed(state(played("swap2", 1, "h8 h9")), place("j10"));
  assert.equal(s.game.moves.length, 3);
});

test("what the page says in each phase, in English and Chinese", () => {
  english();
  const say = (g) => statusOf(state(g));
  assert.deepEqual(say(played("swap2", 1, "h8")), { code: "your-turn", text: "your turn: place the three opening stones (white now, 2 of 3)" });
  assert.deepEqual(say(played("swap2", 2, "h8 h9 j10")), { code: "your-turn", text: "your turn: place two more stones, or choose a colour" });
  assert.equal(say(played("swap2", 2, "h8 h9 j10 two i9")).text, "your turn: place two more stones (black now)");
  assert.equal(say(played("swap2", 1, "h8 h9 j10 two i9 k8")).text, "your turn: choose a colour");
  assert.equal(say(played("soosorv8", 1, "h8")).text, "your turn: put one of the 26 openings (white now, 2 of 3: next to the centre)");
  assert.equal(say(played("soosorv8", 2, "h8 h9 j10")).text, "your turn: take black (swap) or stay white");
  assert.equal(say(played("soosorv8", 2, "h8 h9 j10 white")).text, "your turn: place the 4th stone (white)");
  assert.equal(say(played("soosorv8", 2, "h8 h9 j10 white i7")).text, "your turn: declare how many 5th moves black offers (1 to 8)");
  assert.equal(say(played("soosorv8", 1, "h8 h9 j10 white i7 3")).text, "your turn: take white (swap) or stay black");
  assert.equal(say(played("soosorv8", 1, "h8 h9 j10 white i7 3 black j8")).text, "your turn: offer 3 5th moves for black (2 of 3)");
  assert.equal(say(played("soosorv8", 2, "h8 h9 j10 white i7 1 black j8")).text, "your turn: choose one of black's offered 5th moves");
  assert.deepEqual(say(played("swap2", 2, "")), { code: "thinking", text: "the engine's turn in the opening…" });
  assert.equal(statusOf(state(played("swap2", 2, ""), { engine: { state: "loading", restarts: 0 } })).code, "loading");
  assert.equal(say(Game.goTo(played("swap2", 1, "h8 h9"), 1)).code, "review");
  const line = playerLine(state(played("soosorv8", 1, "h8 h9 j10 white i7 3 black j8")), "your-turn", 15);
  assert.equal(line, "Opening rule: Soosõrv-8. You are the first player; black for now. The faint numbered stones are black's offered 5th moves.");
  assert.match(playerLine(state(played("swap2", 2, "h8 h9 j10 black")), "your-turn", 15), /Game:\s+swap2\./);
  readLanguageFrom(() => "zh");
  assert.equal(say(played("swap2", 2, "h8 h9 j10")).text, "轮到你：再摆两子，或选择颜色");
  assert.equal(playerLine(state(played("swap2", 2, "h8 h9 j10")), "your-turn", 15), "开局规则：交换二。你是后手方，暂时执白棋。");
  assert.equal(playerLine(state(played("soosorv8", 1, "h8 h9 j10 white i7 3 black j8")), "your-turn", 15),
    "开局规则：索索夫-8。你是先手方，暂时执黑棋。带数字的半透明棋子是黑方打出的五手点。");
  const said = openingSentence([{ kind: "black" }, place("j8")], 15, ["second-swap", "offer"]);
  assert.equal(textOf(said), "引擎选择执黑。引擎打出五手点 j8。");
  assert.equal(textOf(said, "en"), "The engine takes black. The engine offers the 5th moves j8."); // a message: said anew in each language
  english();
});

test("the stored game keeps its opening, mid-opening too; one that does not fit is refused", () => {
  for (const g of [played("swap2", 1, "h8 h9"), played("soosorv8", 2, "h8 h9 j10 white i7 2 black j8"), played("swap2", 2, "h8 h9 j10 two i9 k8 black")]) {
    const back = decodeGame(JSON.parse(JSON.stringify(encodeGame(g))));
    assert.deepEqual(back.opening, g.opening);
    assert.equal(back.human, g.human);
    assert.deepEqual(back.moves, g.moves);
  }
  const stored = encodeGame(played("swap2", 2, "h8 h9 j10 black"));
  assert.throws(() => decodeGame({ ...stored, opening: { ...stored.opening, choices: ["black", "white"] } }), /did not use/);
  assert.throws(() => decodeGame({ ...stored, opening: { ...stored.opening, player: 0 } }), /bad opening player/);
  assert.throws(() => decodeGame({ ...stored, opening: "swap2" }), /not an object/);
  // the page loading a broken one: a notice, the game gone, the rest kept
  const items = new Map([[KEYS.game, JSON.stringify({ ...stored, opening: { ...stored.opening, rule: "pro" } })]]);
  const storage = { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => items.set(k, v), removeItem: (k) => items.delete(k) };
  const loaded = loadAll(storage);
  assert.equal(loaded.game, null);
  assert.ok(loaded.notices.includes("corruptGame"));
});

test("finished games keep the opening and the list says it", () => {
  english();
  const g = played("swap2", 2, "h8 h9 j10 black");
  const entry = historyEntry(g, "unfinished", new Date("2026-11-27T14:05:00Z"));
  assert.deepEqual(entry.opening, g.opening);
  assert.match(historyLabel({ ...entry, review: undefined }), /15×15 · freestyle · swap2/);
  const items = new Map([[KEYS.history, JSON.stringify(encodeHistory([entry, { ...entry, opening: { ...entry.opening, choices: ["white", "white"] } }]))]]);
  const storage = { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => items.set(k, v), removeItem: (k) => items.delete(k) };
  const { history, notices } = loadAll(storage);
  assert.equal(history.length, 1); // the one that does not fit is dropped
  assert.deepEqual(history[0].opening, g.opening);
  assert.ok(notices.includes("droppedHistory"));
  // opened again: the same game, the player on the same side
  const back = Game.fromRecord(history[0], { human: BLACK });
  assert.deepEqual(back.opening, g.opening);
  assert.equal(back.human, BLACK);
});

test("links carry the opening and read back; a link mid-opening gives the player the turn", () => {
  const g = played("soosorv8", 1, "h8 h9 j10 white i7 2 black j8 g8 g8");
  const fragment = toFragment({ moves: g.moves, size: 15, rule: "renju", first: BLACK, opening: Game.recordOpening(g) });
  assert.equal(fragment, "moves=h8,h9,j10,i7,g8&rule=renju&size=15&opening=soosorv8&choices=white,2,black&offers=j8,g8");
  const record = parseFragment("#" + fragment);
  assert.deepEqual(record.opening, { rule: "soosorv8", choices: ["white", "2", "black"], offers: [at("j8"), at("g8")] });
  const opened = Game.fromRecord(record);
  assert.deepEqual(opened.opening.offers, g.opening.offers);
  assert.equal(Game.inOpening(opened), false);
  assert.equal(opened.human, WHITE); // the side to move
  const mid = Game.fromRecord(parseFragment("#moves=h8,h9,j10&rule=freestyle&opening=swap2"));
  assert.equal(Game.openingTurn(mid), "human");
  assert.equal(mid.opening.player, 2);
  assert.equal(mid.human, WHITE);
  assert.equal(Game.recordOpening(Game.goTo(g, 2)), null); // browsed into the opening: a plain position
  for (const [hash, key] of [
    ["#moves=h8,h9,j10,k11&opening=swap2", "op_unfinished"],
    ["#moves=h8,h9,j10&opening=swap2&choices=black,white", "op_unused"],
    ["#moves=h8,h9,j10&opening=pro", "op_unknown"],
    ["#moves=h8,h9,j10&opening=swap2&first=white", "op_first"],
    ["#moves=h8,h9,j10,i7,g8&rule=renju&opening=soosorv8&choices=white,2,black&offers=j8,zz", "op_offer_word"],
  ]) {
    assert.throws(() => parseFragment(hash), (err) => err.key === key && errorText(err, "zh") && !errorText(err, "zh").includes("{"), hash);
  }
});

test(".psq files carry the opening on lines of their own and read back", () => {
  const g = played("swap2", 1, "h8 h9 j10 two i9 k8 white");
  const text = toPsq(g.moves, 15, [], "freestyle", g.opening);
  assert.deepEqual(text.split("\r\n").slice(6), ["homo-1", "homo-2", "rule=freestyle", "opening=swap2", "choices=two,white", ""]);
  const record = parsePsq(text);
  assert.deepEqual(record.opening, { rule: "swap2", choices: ["two", "white"], offers: [] });
  assert.equal(toPsq(g.moves, 15, [], "freestyle").includes("opening"), false);
  assert.throws(() => parsePsq(text.replace("choices=two,white", "choices=two,white,black")), (err) => err.key === "op_unused");
  assert.throws(() => parsePsq(text.replace("choices=two,white", "choices=two,3")), (err) => err.key === "op_not_now");
});

test("the engine's opening message and what is said of its actions", () => {
  english();
  const g = played("soosorv8", 2, "h8 h9 j10 white i7 2");
  assert.deepEqual(openingMessage(g), {
    type: "opening", size: 15, rule: "renju", opening: "soosorv8", moves: g.moves, choices: ["white", "2"], offers: [], seed: 0,
  });
  const said = openingSentence([{ kind: "black" }, place("j8"), place("g8")], 15, ["second-swap", "offer", "offer"]);
  assert.equal(textOf(said), "The engine takes black. The engine offers the 5th moves j8 g8.");
  assert.equal(textOf(openingSentence([place("h8"), place("h9"), place("j10")], 15, ["open", "open", "open"])), "The engine places h8 h9 j10.");
  assert.equal(textOf(openingSentence([{ kind: "declare", n: 3 }], 15, ["declare"])), "The engine declares 3 5th moves.");
  assert.equal(textOf(openingSentence([{ kind: "select", at: at("g8") }], 15, ["select"])), "The engine chooses the 5th move g8.");
});

test("a review leaves the opening's stones unjudged: the rule placed them", async () => {
  const { reviewMessage } = await import("../../../web/model/review.js");
  const g = Game.play(played("swap2", 2, "h8 h9 j10 two i9 k8 black"), ...at("a1"));
  assert.equal(reviewMessage(g, 0, 12000).fixed, 5);
  assert.equal("fixed" in reviewMessage(Game.newGame(), 0, 12000), false);
});

test("a game opened in its opening is played, not analysed", async () => {
  const { opened } = await import("../../../web/model/state.js");
  const s = { ...state(Game.newGame()), analysing: true };
  assert.equal(opened(s, played("swap2", 1, "h8"), true).analysing, false);
  assert.equal(opened(s, played("swap2", 2, "h8 h9 j10 black"), true).analysing, true);
});

test("a game kept unfinished in its opening comes back with the same player", () => {
  const g = played("swap2", 1, "h8 h9");
  const entry = historyEntry(g, "unfinished", new Date());
  const back = Game.fromRecord(entry);
  assert.equal(back.opening.player, 1);
  assert.equal(Game.openingTurn(back), "human");
  const engines = Game.fromRecord({ ...entry, opening: { ...entry.opening, player: 2 } });
  assert.equal(Game.openingTurn(engines), "engine");
});
