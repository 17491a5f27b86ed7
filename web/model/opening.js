// Opening rules: who places which stones, and who chooses a colour, before a game goes on
// as usual. Pure; the same state machine as py/gomoku/game/opening_rules.py (its module
// doc has the rules' texts), checked against it on tests/page/node/fixtures/opening.json.
//
//   swap2      freestyle and standard: the first player places three stones (black, white,
//              black); the second takes black, takes white, or places two more (white,
//              black) and the first player then takes a colour
//   soosorv8   renju, 15x15 (RIF's Soosõrv-8): one of the 26 openings; the second player
//              may swap; white places the 4th stone and declares 1..8 fifth moves; black
//              may swap; black offers that many 5th moves, none symmetrical to another;
//              white chooses one
//
// Players: 1 the first player, 2 the other. A state is plain data:
//
//   {rule, size, gameRule, phase, actor, black, stones: [[x, y]], offers: [[x, y]], n}
//
// phase: "open", "choose", "two", "final" (swap2), "open", "swap", "fourth", "declare",
// "second-swap", "offer", "select" (soosorv8), "done"; actor: the player who acts (null
// when done); black: the player holding black (tentative until done); stones in move order
// (black, white, black, ...). When done the stones are the game's first moves, white to
// move. Actions: {kind: "place", at}, {kind: "black"} / {kind: "white"} (take that colour),
// {kind: "two"}, {kind: "declare", n}, {kind: "select", at}. A refused action throws an
// Error with key "op_<code>" and its fields (opening-words.js; i18n.js errorText says it).

import { cellText, onBoard, parseCell } from "./coords.js";
import { OPENING_EN } from "./opening-words.js";

export const OPENING_RULES = ["swap2", "soosorv8"];
export const GAME_RULES = { swap2: ["freestyle", "standard"], soosorv8: ["renju"] };
export const SOOSORV_SIZE = 15; // RIF's board
export const MAX_OFFERS = 8; // the N of Soosõrv-N

export const OPTIONS = {
  open: ["place"], choose: ["black", "white", "two"], two: ["place"], final: ["black", "white"],
  swap: ["black", "white"], fourth: ["place"], declare: ["declare"], "second-swap": ["black", "white"],
  offer: ["place"], select: ["select"], done: [],
};

function english(key, vars = {}) {
  const fill = (v) => (v !== null && typeof v === "object" && typeof v.key === "string"
    ? (OPENING_EN[v.key] ? english(v.key, v.vars) : String(v.en ?? v.key)) : String(v));
  return (OPENING_EN[key] ?? key).replace(/\{(\w+)\}/g, (_, k) => (k in vars ? fill(vars[k]) : "{" + k + "}"));
}

function opError(code, vars = {}) {
  const key = "op_" + code.replaceAll("-", "_");
  return Object.assign(new Error(english(key, vars)), { key, vars, code });
}

// A refusal of the page's own (key "op_<code>"): "over", "browsing", "first",
// "offer-word" ({word}).
export const refusal = (code, vars = {}) => opError(code, vars);

// The opening rules a game under gameRule on a size x size board may have.
export function openingRulesFor(gameRule, size) {
  return OPENING_RULES.filter((r) => GAME_RULES[r].includes(gameRule) && (r !== "soosorv8" || size === SOOSORV_SIZE));
}

export const isOpeningRule = (rule) => OPENING_RULES.includes(rule);

// The state before the first stone (throws for an opening rule not of this game rule or size).
export function start(rule, size, gameRule) {
  if (!isOpeningRule(rule)) throw opError("unknown", { rule: String(rule).slice(0, 20) });
  if (!GAME_RULES[rule].includes(gameRule)) throw opError("rule", { rule: { key: "opr_" + rule }, game: { key: "rule_" + gameRule, en: gameRule } });
  if (rule === "soosorv8" && size !== SOOSORV_SIZE) throw opError("size", { size });
  return { rule, size, gameRule, phase: "open", actor: 1, black: 1, stones: [], offers: [], n: null };
}

export const isDone = (state) => state.phase === "done";
export const optionsOf = (state) => OPTIONS[state.phase];
export const whiteOf = (state) => 3 - state.black;
// the colour (1 black, 2 white) of the next stone placed; an offer is black's
export const nextColour = (state) => (state.phase === "offer" ? 1 : 1 + (state.stones.length % 2));

const same = (a, b) => a[0] === b[0] && a[1] === b[1];
const has = (list, p) => list.some((q) => same(q, p));
const text = (state, p) => cellText(p[0], p[1], state.size);

// The 8 symmetries of the square board (py/gomoku/core/geometry.py transform).
export function transform(k, x, y, size) {
  const m = size - 1;
  if (k & 4) x = m - x;
  for (let r = 0; r < (k & 3); r++) [x, y] = [m - y, x];
  return [x, y];
}

// The symmetries k that map the stones (black on black, white on white) onto themselves.
export function positionSymmetries(stones, size) {
  const colourAt = new Map(stones.map((p, i) => [p.join(","), i % 2]));
  const out = [];
  for (let k = 0; k < 8; k++) {
    if (stones.every(([x, y], i) => colourAt.get(transform(k, x, y, size).join(",")) === i % 2)) out.push(k);
  }
  return out;
}

const ring = (p, size) => Math.max(Math.abs(p[0] - Math.floor(size / 2)), Math.abs(p[1] - Math.floor(size / 2)));

function checkPoint(state, p) {
  if (!Array.isArray(p) || !onBoard(p[0], p[1], state.size)) throw opError("off", { size: state.size });
  if (has(state.stones, p)) throw opError("taken", { move: text(state, p) });
  return [p[0], p[1]];
}

// the 26 openings: black on the centre, white next to it, black within the central 5x5
function checkSoosorvStone(state, p) {
  const c = Math.floor(state.size / 2);
  const vars = { move: text(state, p), centre: cellText(c, c, state.size) };
  const k = state.stones.length;
  if (k === 0 && ring(p, state.size) !== 0) throw opError("centre", vars);
  if (k === 1 && ring(p, state.size) !== 1) throw opError("near-centre", vars);
  if (k === 2 && ring(p, state.size) > 2) throw opError("central-5x5", vars);
}

// (no offer can be forbidden for black: a forbidden shape needs four black stones beside
// the new one, and black has two)
function checkOffer(state, p) {
  if (has(state.offers, p)) throw opError("offered", { move: text(state, p) });
  for (const k of positionSymmetries(state.stones, state.size)) {
    const image = transform(k, p[0], p[1], state.size);
    if (has(state.offers, image)) throw opError("symmetric", { move: text(state, p), other: text(state, image) });
  }
}

// The state after action; throws (the state unchanged) when the rule does not allow it now.
export function apply(state, action) {
  const kind = action && action.kind;
  if (!optionsOf(state).includes(kind)) {
    if (isDone(state)) throw opError("over");
    throw opError("not-now", { asks: { key: "op_asks_" + state.phase.replace("-", "_") } });
  }
  const { phase } = state;
  if (kind === "place") {
    const p = checkPoint(state, action.at);
    if (phase === "offer") {
      checkOffer(state, p);
      const offers = [...state.offers, p];
      if (offers.length === state.n) return { ...state, offers, phase: "select", actor: whiteOf(state) };
      return { ...state, offers };
    }
    if (state.rule === "soosorv8" && phase === "open") checkSoosorvStone(state, p);
    const stones = [...state.stones, p];
    const placed = { ...state, stones };
    if (phase === "open" && stones.length === 3) return { ...placed, phase: state.rule === "swap2" ? "choose" : "swap", actor: 2 };
    if (phase === "two" && stones.length === 5) return { ...placed, phase: "final", actor: 1 };
    if (phase === "fourth") return { ...placed, phase: "declare" };
    return placed;
  }
  if (kind === "black" || kind === "white") {
    const black = kind === "black" ? state.actor : 3 - state.actor;
    if (phase === "swap") return { ...state, black, phase: "fourth", actor: 3 - black };
    if (phase === "second-swap") return { ...state, black, phase: "offer", actor: black };
    return { ...state, black, phase: "done", actor: null }; // choose, final
  }
  if (kind === "two") return { ...state, phase: "two" };
  if (kind === "declare") {
    const { n } = action;
    if (!Number.isInteger(n) || n < 1 || n > MAX_OFFERS) throw opError("count", { max: MAX_OFFERS, n: String(n).slice(0, 10) });
    return { ...state, n, phase: "second-swap", actor: state.black };
  }
  // select
  const p = action.at;
  if (!Array.isArray(p) || !has(state.offers, p)) {
    const shown = Array.isArray(p) && onBoard(p[0], p[1], state.size) ? text(state, p) : JSON.stringify(p);
    throw opError("not-offered", { move: shown });
  }
  return { ...state, stones: [...state.stones, [p[0], p[1]]], phase: "done", actor: null };
}

// The state after each action in turn (throws at the first refused one).
export function replay(state, actions) {
  return actions.reduce(apply, state);
}

// The action a record's word means in this state: a point places a stone (in "select":
// chooses that offer), "black" / "white" / "two" as said, a number declares.
export function actionFromText(state, token) {
  const word = String(token).trim().toLowerCase();
  if (word === "black" || word === "white" || word === "two") return { kind: word };
  if (/^\d+$/.test(word)) return { kind: "declare", n: Number(word) };
  const at = parseCell(word, state.size);
  if (!at) throw opError("word", { word: String(token).slice(0, 12) });
  return { kind: state.phase === "select" ? "select" : "place", at };
}

// The action as a record writes it ("h8", "black", "two", "3").
export function actionText(action, size) {
  if (action.kind === "place" || action.kind === "select") return cellText(action.at[0], action.at[1], size);
  if (action.kind === "declare") return String(action.n);
  return action.kind;
}

// What a record keeps beside the game's moves: {rule, choices: ["two", "white", "3", ...],
// offers: [[x, y], ...]} (the colours taken, "two", the number declared; the 5th moves
// offered).
export function recordOf(state, actions) {
  const choices = actions.filter((a) => ["black", "white", "two", "declare"].includes(a.kind)).map((a) => actionText(a, state.size));
  return { rule: state.rule, choices, offers: state.offers.map(([x, y]) => [x, y]) };
}

// The opening of a game's moves with its record ({rule, choices, offers}): each phase takes
// what it needs (a placement the next move, a choice the next choice, an offer the next
// offer, the selection the next move) until the opening is over or the record runs out.
// Returns {state, actions}; throws when something is refused, when choices or offers are
// left over, or when moves go on past an opening that is not over.
export function fromRecord(record, moves, size, gameRule) {
  let state = start(record.rule, size, gameRule);
  const choices = [...(record.choices || [])];
  const offers = [...(record.offers || [])];
  let used = 0;
  const actions = [];
  while (!isDone(state)) {
    const kinds = optionsOf(state);
    let action;
    if (state.phase === "offer") {
      if (!offers.length) break;
      action = { kind: "place", at: offers.shift() };
    } else if (kinds.length === 1 && (kinds[0] === "place" || kinds[0] === "select")) {
      if (used >= moves.length) break;
      action = { kind: kinds[0], at: moves[used] };
      used += 1;
    } else {
      if (!choices.length) break;
      action = actionFromText(state, choices.shift());
    }
    state = apply(state, action);
    actions.push(action);
  }
  if (choices.length || offers.length) throw opError("unused");
  if (!isDone(state) && used < moves.length) throw opError("unfinished", { asks: { key: "op_asks_" + state.phase.replace("-", "_") } });
  return { state, actions };
}
