// Game records: move lists ("h8 i9 j10"), share-link fragments and Piskvork .psq files.
// Pure functions, no DOM. Every parser throws an Error for the user (record-errors.js: the
// page shows i18n.js errorText(err), in the player's language; a .psq file's names its
// line), and checks the moves (on the board, not taken, none after a five) with rules.js.
//
// Board sizes 15..20 (coords.js). A share link and a .psq file name their size; a move
// list does not, so it is read on the size the caller gives (the current game's).
//
// Piskvork .psq (the Gomocup manager's format), as written and read here:
//
//     Piskvorky 15x15, 11:11, 0        header: board width x height, then two fields
//     8,8,0                            one line per move: x,y,time
//     9,7,312                          x = column from the LEFT, 1-based
//     ...                              y = row from the TOP, 1-based
//                                      time = ms spent on the move (ignored when read)
//
// So a psq line "x,y" is the engine's 0-based (x-1, y-1) (Gomocup puts y = 0 at the top,
// like the engine), and in written coordinates h8 = "8,8", a15 (top left) = "1,1",
// a1 (bottom left) = "1,15" on 15x15 (on 19x19: a1 = "1,19"). The moves end at the first
// line that is not "int,int,int"; whatever follows (Piskvork writes the players' names and
// a result code) is ignored. Export writes the header and the move lines, and for a rule
// other than freestyle three more lines, which the .psq format has no field for:
//
//     homo-1                           the players' names as Piskvork writes them for
//     homo-2                           humans (so Piskvork opens the file as a game
//     rule=renju                       between two people); then the rule, for psqRule
//
// Under renju a record whose black player plays a forbidden point is refused.
//
// A game under an opening rule (opening.js) keeps it beside the moves: in a link
// "opening=swap2&choices=two,white" (and for Soosõrv-8 "offers=j8,g8": black's offered 5th
// moves), in a .psq file the lines "opening=swap2", "choices=two,white", "offers=j8,g8"
// after the rule line. Read back, it is checked against the moves (opening.js fromRecord):
// a record it does not fit is refused, naming why.

import { controlText, parseControl } from "./clock.js";
import { DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, cellText, isSize, parseCell } from "./coords.js";
import { textError } from "./record-errors.js";
import { BLACK, WHITE, blackPlayer, isRule, replay } from "./rules.js";
import * as Opening from "./opening.js";
import { firstForbidden } from "./renju.js";

const RANGE = { min: MIN_SIZE, max: MAX_SIZE };
const badRule = (rule) => textError("rec_rule", { rule: String(rule).slice(0, 20) });

export function formatMoves(moves, size) {
  return moves.map(([x, y]) => cellText(x, y, size)).join(" ");
}

// Checks a record's moves: on the board, not taken, none after a five, and under renju
// no black move on a forbidden point (`first`, the colour of the first move, BLACK or
// WHITE, says who is black). Returns the moves; throws an Error naming the first bad one.
export function checkMoves(moves, size, rule, first = BLACK) {
  if (!isSize(size)) throw textError("rec_size", RANGE);
  if (!isRule(rule)) throw badRule(rule);
  const black = blackPlayer(first);
  replay(moves, size, rule, black); // throws naming the first bad move
  if (rule === "renju") {
    const bad = firstForbidden(moves, size, black);
    if (bad) {
      const [x, y] = moves[bad.index];
      const shape = { key: "shape_" + bad.shape.replaceAll(" ", "_"), en: bad.shape };
      throw textError("rec_forbidden", { n: bad.index + 1, move: cellText(x, y, size), shape });
    }
  }
  return moves;
}

// "h8 i9 j10", also with commas, move numbers ("1. h8 i9 2. j10") or newlines.
// `first` (BLACK or WHITE) is the colour of the first move (renju needs the colours).
export function parseMoves(text, size, rule = "freestyle", first = BLACK) {
  if (typeof text !== "string") throw textError("rec_noList");
  if (text.length > 20000) throw textError("rec_tooLong");
  const tokens = text.split(/[\s,;]+/).filter((t) => t && !/^\d+\.$/.test(t));
  if (tokens.length > size * size) throw textError("rec_tooMany");
  const moves = tokens.map((tok, i) => {
    const word = tok.replace(/^\d+\./, "");
    const cell = parseCell(word, size);
    if (cell) return cell;
    const what = { tok: tok.slice(0, 12), n: i + 1, size };
    throw textError(parseCell(word, MAX_SIZE) ? "rec_offBoard" : "rec_notPoint", what);
  });
  return checkMoves(moves, size, rule, first);
}

// A move list typed or pasted to be loaded: as parseMoves, and an empty one is refused.
export function parseMoveList(text, size, rule = "freestyle", first = BLACK) {
  if (typeof text === "string" && !text.trim()) throw textError("rec_emptyList");
  return parseMoves(text, size, rule, first);
}

// Share link fragment: "moves=h8,i9&rule=freestyle&size=15" (+ "&first=white", + the
// opening's "&opening=swap2&choices=two,white&offers=...", + a game clock's time control
// "&clock=5+3": minutes + seconds a move).
// record: {moves, size, rule, first: BLACK | WHITE, opening?: {rule, choices, offers},
// clock?: a clock or its control}
export function toFragment({ moves, size, rule, first, opening = null, clock = null }) {
  const p = new URLSearchParams();
  p.set("moves", formatMoves(moves, size).replaceAll(" ", ","));
  p.set("rule", rule);
  p.set("size", String(size));
  if (first === WHITE) p.set("first", "white");
  if (opening) {
    p.set("opening", opening.rule);
    if (opening.choices.length) p.set("choices", opening.choices.join(","));
    if (opening.offers.length) p.set("offers", formatMoves(opening.offers, size).replaceAll(" ", ","));
  }
  if (clock) p.set("clock", controlText(clock));
  return p.toString().replaceAll("%2C", ",").replaceAll("%2B", "+");
}

// The opening of a record's moves ({rule, choices, offers}, texts as written), checked
// (opening.js fromRecord; its refusals name why); null without one.
function readOpening(rule, choicesText, offersText, moves, size, gameRule, first) {
  if (!rule) return null;
  if (first !== BLACK) throw Opening.refusal("first");
  const words = (text) => String(text || "").split(/[\s,]+/).filter(Boolean);
  const offers = words(offersText).map((word) => {
    const cell = parseCell(word, size);
    if (!cell) throw Opening.refusal("offer-word", { word: word.slice(0, 12) });
    return cell;
  });
  const opening = { rule, choices: words(choicesText), offers };
  Opening.fromRecord(opening, moves, size, gameRule);
  return opening;
}

// The record of a link's fragment ("#moves=..."): {moves, size, rule, first}, with the
// opening when the link names an opening rule (opening: {rule, choices, offers}) and, when
// it names a time control, control (clock.js {baseMs, incMs}). Null when
// the fragment is not a game link; throws when it is one but broken. A link without
// size= is for 15x15 (links written before sizes had it), without rule= freestyle. A link
// without a move ("#moves=") is broken too: it would wipe the board and say it opened.
export function parseFragment(hash) {
  const text = String(hash || "").replace(/^#/, "");
  if (!text) return null;
  const p = fragmentFields(text);
  if (!p.has("moves")) return null;
  const rule = p.get("rule") || "freestyle";
  if (!isRule(rule)) throw badRule(rule);
  const sizeText = p.get("size") || String(DEFAULT_SIZE);
  const size = /^\d{1,3}$/.test(sizeText) ? Number(sizeText) : NaN;
  if (!isSize(size)) throw textError("rec_sizeNot", { ...RANGE, got: sizeText.slice(0, 10) });
  const firstText = p.get("first") || "black";
  if (firstText !== "black" && firstText !== "white") throw textError("rec_first");
  const first = firstText === "white" ? WHITE : BLACK;
  if (rule === "renju" && first !== BLACK) throw textError("rec_renjuFirst");
  if (!p.get("moves").replaceAll(",", " ").trim()) throw textError("rec_emptyLink");
  const moves = parseMoves(p.get("moves").replaceAll(",", " "), size, rule, first);
  const opening = readOpening(p.get("opening"), p.get("choices"), p.get("offers"), moves, size, rule, first);
  const record = { moves, size, rule, first, ...(opening ? { opening } : {}) };
  if (!p.has("clock")) return record;
  let control;
  try {
    // a "+" left unescaped in a link reads as a space
    control = parseControl(p.get("clock").replace(" ", "+"));
  } catch {
    throw textError("rec_clock");
  }
  return { ...record, control };
}

// The fields of a fragment ("a=1&b=2") as a Map (the first of a name wins, as
// URLSearchParams.get), each name and value decoded from its %-escapes (and "+" as a
// space). A broken escape (a "%" not followed by two hex digits, or bytes that are not
// UTF-8) throws rec_badText quoting the field as it was sent, where URLSearchParams would
// put U+FFFD in its place.
export function fragmentFields(text) {
  const fields = new Map();
  for (const part of text.split("&")) {
    if (!part) continue;
    const at = part.indexOf("=");
    const [name, value] = at < 0 ? [part, ""] : [part.slice(0, at), part.slice(at + 1)];
    const key = decodeField(name, part);
    if (!fields.has(key)) fields.set(key, decodeField(value, part));
  }
  return fields;
}

function decodeField(raw, part) {
  try {
    return decodeURIComponent(raw.replaceAll("+", " "));
  } catch {
    throw textError("rec_badText", { text: quoted(part) });
  }
}

// What the player sent, safe to show: at most 40 characters, anything but printable
// ASCII as its \u{...} code.
function quoted(text) {
  const cut = [...text].slice(0, 40);
  const shown = cut.map((c) => (/^[\x20-\x7e]$/.test(c) ? c : `\\u{${c.codePointAt(0).toString(16)}}`)).join("");
  return [...text].length > cut.length ? shown + "…" : shown;
}

export function toPsq(moves, size, times = [], rule = "freestyle", opening = null) {
  const lines = [`Piskvorky ${size}x${size}, 11:11, 0`];
  moves.forEach(([x, y], i) => lines.push(`${x + 1},${y + 1},${Math.max(0, Math.round(times[i] || 0))}`));
  if (rule !== "freestyle" || opening) lines.push("homo-1", "homo-2", `rule=${rule}`);
  if (opening) {
    lines.push(`opening=${opening.rule}`);
    if (opening.choices.length) lines.push(`choices=${opening.choices.join(",")}`);
    if (opening.offers.length) lines.push(`offers=${formatMoves(opening.offers, size).replaceAll(" ", ",")}`);
  }
  return lines.join("\r\n") + "\r\n";
}

// The value of a "key=value" line of a .psq file's text (after its moves), or null.
function psqField(text, key) {
  for (const line of String(text).split(/\r\n|\n|\r/)) {
    const m = /^\s*(\w+)\s*=\s*(\S*)\s*$/.exec(line);
    if (m && m[1].toLowerCase() === key) return m[2];
  }
  return null;
}

// The rule a .psq file names on a "rule=<name>" line after its moves, or null (then the
// caller's current rule applies). Throws on a rule this page does not know.
export function psqRule(text) {
  if (typeof text !== "string") return null;
  for (const line of text.split(/\r\n|\n|\r/)) {
    const m = /^\s*rule\s*=\s*(\S+)\s*$/i.exec(line);
    if (m) {
      const rule = m[1].toLowerCase();
      if (!isRule(rule)) throw badRule(rule);
      return rule;
    }
  }
  return null;
}

// The record of a .psq file's text: {moves, size, rule}. The rule is the one the file
// names (psqRule), else `rule` (the caller's current one); `first` is the colour of the
// first move (the format has no field for it; under renju black moves first).
export function parsePsq(text, rule = "freestyle", first = BLACK) {
  const named = psqRule(text);
  if (named) rule = named;
  if (rule === "renju") first = BLACK;
  if (typeof text !== "string" || !text.trim()) throw textError("rec_fileEmpty");
  if (text.length > 200000) throw textError("rec_fileLarge");
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
  const head = /^\s*Piskvorky\s+(\d+)\s*x\s*(\d+)\b/i.exec(lines[0]);
  if (!head) throw textError("rec_psqHead");
  const w = Number(head[1]), h = Number(head[2]);
  if (w !== h || !isSize(w)) throw textError("rec_psqSize", { w, h, ...RANGE });
  const size = w;
  const moves = [];
  for (const line of lines.slice(1)) {
    const m = /^\s*(-?\d+)\s*,\s*(-?\d+)\s*,\s*(-?\d+)\s*$/.exec(line);
    if (!m) break;
    const x = Number(m[1]), y = Number(m[2]);
    if (x < 1 || y < 1 || x > size || y > size) {
      throw textError("rec_psqOff", { line: moves.length + 2, n: moves.length + 1, x, y, size });
    }
    moves.push([x - 1, y - 1]);
  }
  try {
    checkMoves(moves, size, rule, first);
  } catch (err) {
    // move n is on line n + 1 (the header is line 1)
    if (!err.key || !Number.isInteger(err.vars.n)) throw err;
    throw textError("rec_atLine", { line: err.vars.n + 1, err: { key: err.key, vars: err.vars } });
  }
  const opening = readOpening(psqField(text, "opening"), psqField(text, "choices"), psqField(text, "offers"), moves, size, rule, first);
  return { moves, size, rule, ...(opening ? { opening } : {}) };
}
