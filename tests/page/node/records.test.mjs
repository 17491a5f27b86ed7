// node --test: web/model/records.js (move lists, share links, .psq files) on every board size.
import assert from "node:assert/strict";
import test from "node:test";

import { SIZES } from "../../../web/model/coords.js";
import { formatMoves, parseFragment, parseMoves, parsePsq, toFragment, toPsq } from "../../../web/model/records.js";
import { BLACK, WHITE } from "../../../web/model/rules.js";

// A game touching the four corners, the centre and the last row and column.
function sampleMoves(size) {
  const c = Math.floor(size / 2), e = size - 1;
  return [[c, c], [0, 0], [e, e], [0, e], [e, 0], [c + 1, c], [c, e], [e, c]];
}

test("move lists round-trip on every size", () => {
  for (const size of SIZES) {
    const moves = sampleMoves(size);
    const text = formatMoves(moves, size);
    assert.deepEqual(parseMoves(text, size), moves, text);
  }
  assert.equal(formatMoves(sampleMoves(15), 15), "h8 a15 o1 a1 o15 i8 h1 o8");
  assert.equal(formatMoves(sampleMoves(20), 20), "k10 a20 t1 a1 t20 l10 k1 t10");
});

test("move lists may carry move numbers, commas and newlines", () => {
  assert.deepEqual(parseMoves("1. h8 i9\n2. j10, k11;", 15), [[7, 7], [8, 6], [9, 5], [10, 4]]);
  assert.deepEqual(parseMoves("1.h8 I9", 15), [[7, 7], [8, 6]]);
  assert.deepEqual(parseMoves("  ", 15), []);
});

test("a malformed move list is refused with a message naming the problem", () => {
  const refuses = (text, size, pattern, rule = "freestyle") => assert.throws(() => parseMoves(text, size, rule), pattern, text);
  refuses("h8 h8", 15, /move 2 is on a taken point/);
  refuses("h8 zz9", 15, /"zz9" \(move 2\) is not a point like h8/);
  refuses("h8 p3", 15, /"p3" \(move 2\) is off the 15x15 board/);
  refuses("h8 a16", 15, /"a16" \(move 2\) is off the 15x15 board/);
  refuses("h8 t20", 19, /off the 19x19 board/);
  refuses("h8 a1 h9 a2 h10 a3 h11 a4 h12 a5", 15, /move 10 comes after the game was won \(move 9\)/);
  refuses("a".repeat(20001), 15, /too long/);
  refuses("a1 ".repeat(226), 15, /more moves than points/);
  assert.throws(() => parseMoves(null, 15), /no move list/);
  // the same line is legal on a bigger board, and six in a row does not win in standard
  assert.equal(parseMoves("h8 p3 a16", 16).length, 3);
  assert.equal(parseMoves("c1 a1 d1 a2 e1 a3 f1 a4 h1 a6 g1 o15", 15, "standard").length, 12);
});

test("share links round-trip on every size, rule and first player", () => {
  for (const size of SIZES) {
    for (const rule of ["freestyle", "standard"]) {
      for (const first of [BLACK, WHITE]) {
        const record = { moves: sampleMoves(size), size, rule, first };
        const hash = "#" + toFragment(record);
        assert.deepEqual(parseFragment(hash), record, hash);
      }
    }
  }
  const link = toFragment({ moves: [[9, 9], [10, 8]], size: 19, rule: "freestyle", first: BLACK });
  assert.equal(link, "moves=j10,k11&rule=freestyle&size=19");
  assert.equal(toFragment({ moves: [], size: 15, rule: "standard", first: WHITE }), "moves=&rule=standard&size=15&first=white");
});

test("links: what is not a game link gives null, old links are 15x15 freestyle", () => {
  assert.equal(parseFragment(""), null);
  assert.equal(parseFragment("#"), null);
  assert.equal(parseFragment("#section-2"), null);
  assert.equal(parseFragment("#rule=standard&size=19"), null);
  assert.deepEqual(parseFragment("#moves=h8,i9"), { moves: [[7, 7], [8, 6]], size: 15, rule: "freestyle", first: BLACK });
  assert.deepEqual(parseFragment("moves=a1&size=20")?.moves, [[0, 19]]);
});

test("a broken link is refused with a message", () => {
  const refuses = (hash, pattern) => assert.throws(() => parseFragment(hash), pattern, hash);
  for (const size of ["14", "21", "abc", "15.0", "1e1", "-15", "0150"]) {
    refuses(`#moves=h8&size=${size}`, /board size must be 15x15 to 20x20/);
  }
  refuses("#moves=h8&rule=gomoku-pro", /unknown rule "gomoku-pro"/);
  refuses("#moves=h8&first=red", /first must be black or white/);
  refuses("#moves=h8,h8", /taken point/);
  refuses("#moves=h8,p16&size=15", /"p16" \(move 2\) is off the 15x15 board/);
  assert.equal(parseFragment("#moves=h8,p16&size=16").size, 16);
});

test("a link that is not valid text is refused quoting what was sent, never with U+FFFD", () => {
  const refused = (hash) => {
    try {
      parseFragment(hash);
    } catch (err) {
      return err;
    }
    assert.fail(`${hash} was read`);
  };
  // a cut UTF-8 sequence, a "%" without two hex digits, bytes that are not UTF-8, in any field
  for (const [hash, sent] of [
    ["#moves=%E0%A4%A", "moves=%E0%A4%A"], ["#moves=h8,%ZZ", "moves=h8,%ZZ"], ["#moves=h8&rule=%FF", "rule=%FF"],
    ["#moves=h8%", "moves=h8%"], ["#mo%E0ves=h8", "mo%E0ves=h8"],
  ]) {
    const err = refused(hash);
    assert.equal(err.key, "rec_badText", hash);
    assert.equal(err.vars.text, sent, hash);
    assert.equal(err.message, `it is not valid text: "${sent}" has a broken %-code`);
    assert.doesNotMatch(err.message, /\uFFFD/u);
  }
  // a long one is cut, anything but printable ASCII shown as its code
  const long = refused("#moves=" + "h8,".repeat(30) + "%E0");
  assert.ok(long.vars.text.endsWith("…") && [...long.vars.text].length === 41, long.vars.text);
  assert.equal(refused("#moves=\u00e9%E0").vars.text, "moves=\\u{e9}%E0");
  // text that is valid stays what it says: a point that is not one is named as it was meant
  assert.throws(() => parseFragment("#moves=h8,%E4%B8%AD"), /"中" \(move 2\) is not a point/);
  // escapes and "+" that decode well are read as before
  assert.deepEqual(parseFragment("#moves=h8%2Ci9+j10&rule=%66reestyle").moves, [[7, 7], [8, 6], [9, 5]]);
});

test(".psq files round-trip on every size, with the size in the header", () => {
  for (const size of SIZES) {
    const moves = sampleMoves(size);
    const text = toPsq(moves, size);
    const lines = text.split("\r\n");
    assert.equal(lines[0], `Piskvorky ${size}x${size}, 11:11, 0`);
    // x from the left, y from the top, both 1-based: a1 (bottom left) is 1,size
    assert.equal(lines[4], `1,${size},0`);
    assert.deepEqual(parsePsq(text), { moves, size, rule: "freestyle" }, `size ${size}`);
  }
  assert.equal(toPsq([[7, 7], [8, 6]], 15, [0, 312.4]), "Piskvorky 15x15, 11:11, 0\r\n8,8,0\r\n9,7,312\r\n");
});

test(".psq: trailing lines, a byte order mark, LF line ends and spaces are fine", () => {
  const text = "\uFEFFpiskvorky 17x17, 11:11, 0\n 9 , 9 , 120\n10,8,0\npbrain-a.zip\npbrain-b.zip\n-1\n";
  assert.deepEqual(parsePsq(text), { moves: [[8, 8], [9, 7]], size: 17, rule: "freestyle" });
  assert.deepEqual(parsePsq("Piskvorky 19x19, 11:11, 0\r\n", "standard"), { moves: [], size: 19, rule: "standard" });
});

test("a malformed .psq file is refused with a message", () => {
  const refuses = (text, pattern, rule) => assert.throws(() => parsePsq(text, rule), pattern, text);
  refuses("", /the file is empty/);
  refuses("hello\n1,1,0\n", /not a Piskvork file/);
  refuses("Piskvorky 21x21, 11:11, 0\n1,1,0\n", /21x21 board; boards from 15x15 to 20x20/);
  refuses("Piskvorky 14x14, 11:11, 0\n1,1,0\n", /14x14 board/);
  refuses("Piskvorky 15x20, 11:11, 0\n1,1,0\n", /15x20 board/);
  refuses("Piskvorky 15x15, 11:11, 0\n8,8,0\n16,1,0\n", /move 2 \(16,1\) is off the board \(1\.\.15\)/);
  refuses("Piskvorky 19x19, 11:11, 0\n8,8,0\n0,3,0\n", /move 2 \(0,3\) is off the board \(1\.\.19\)/);
  refuses("Piskvorky 15x15, 11:11, 0\n8,8,0\n8,8,0\n", /move 2 is on a taken point/);
  refuses("Piskvorky 15x15, 11:11, 0\n8,8,0\n", /unknown rule/, "nonsense");
  refuses("Piskvorky 15x15\n" + "1,1,0\n".repeat(40000), /too large/);
  // a 16x16 point is fine on a 16x16 file
  assert.equal(parsePsq("Piskvorky 16x16, 11:11, 0\n16,16,0\n").moves[0][0], 15);
});
