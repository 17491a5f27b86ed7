// Game records: move lists ("h8 i9 j10"), share-link fragments and Piskvork .psq files.
// Pure functions, no DOM. Every parser throws an Error with a message for the user.
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
// a1 (bottom left) = "1,15". The moves end at the first line that is not "int,int,int";
// whatever follows (Piskvork writes the players' names and a result code) is ignored.
// Export writes the header and the move lines, and for a rule other than freestyle three
// more lines, which the .psq format has no field for:
//
//     homo-1                           the players' names as Piskvork writes them for
//     homo-2                           humans (so Piskvork opens the file as a game
//     rule=renju                       between two people); then the rule, for psqRule
//
// Under renju a record whose black player plays a forbidden point is refused.

import { RULES, replay } from "./rules.js";
import { firstForbidden } from "./renju.js";

export const COLUMNS = "abcdefghijklmnopqrst";

export function cellText(x, y, size) {
  return COLUMNS[x] + String(size - y);
}

export function parseCell(text, size) {
  const m = /^([a-t])(\d{1,2})$/.exec(text.trim().toLowerCase());
  if (!m) return null;
  const x = COLUMNS.indexOf(m[1]);
  const row = Number(m[2]);
  if (x >= size || row < 1 || row > size) return null;
  return [x, size - row];
}

export function formatMoves(moves, size) {
  return moves.map(([x, y]) => cellText(x, y, size)).join(" ");
}

// The player (0 = first mover, 1) who has black.
export const blackPlayer = (first) => (first === "white" ? 1 : 0);

function checked(moves, size, rule, first = "black") {
  const black = blackPlayer(first);
  try {
    replay(moves, size, rule, black);
  } catch (err) {
    throw new Error(err.message);
  }
  if (rule === "renju") {
    const bad = firstForbidden(moves, size, black);
    if (bad) {
      const [x, y] = moves[bad.index];
      throw new Error(`move ${bad.index + 1} (${cellText(x, y, size)}) is forbidden for black: ${bad.shape}`);
    }
  }
  return moves;
}

// "h8 i9 j10", also with commas, move numbers ("1. h8 i9 2. j10") or newlines.
// `first` ("black" or "white") says who played the first move (renju needs the colours).
export function parseMoves(text, size, rule = "freestyle", first = "black") {
  if (typeof text !== "string") throw new Error("no move list");
  if (text.length > 20000) throw new Error("the move list is too long");
  const tokens = text.split(/[\s,;]+/).filter((t) => t && !/^\d+\.$/.test(t));
  if (tokens.length > size * size) throw new Error("more moves than points on the board");
  const moves = tokens.map((tok, i) => {
    const cell = parseCell(tok.replace(/^\d+\./, ""), size);
    if (!cell) throw new Error(`"${tok.slice(0, 12)}" (move ${i + 1}) is not a point like h8`);
    return cell;
  });
  return checked(moves, size, rule, first);
}

// Share link fragment: "moves=h8,i9&rule=freestyle&size=15" (+ "&first=white").
export function toFragment({ moves, size, rule, first }) {
  const p = new URLSearchParams();
  p.set("moves", moves.map(([x, y]) => cellText(x, y, size)).join(","));
  p.set("rule", rule);
  p.set("size", String(size));
  if (first === "white") p.set("first", "white");
  return p.toString().replaceAll("%2C", ",");
}

// Returns null when the fragment is not a game link; throws when it is one but broken.
export function parseFragment(hash, size) {
  const text = (hash || "").replace(/^#/, "");
  if (!text) return null;
  const p = new URLSearchParams(text);
  if (!p.has("moves")) return null;
  const rule = p.get("rule") || "freestyle";
  if (!RULES.includes(rule)) throw new Error(`unknown rule "${rule.slice(0, 20)}"`);
  const linkSize = Number(p.get("size") || size);
  if (linkSize !== size) throw new Error(`only ${size}x${size} boards are supported here`);
  const first = p.get("first") || "black";
  if (first !== "black" && first !== "white") throw new Error("first must be black or white");
  const moves = parseMoves(p.get("moves").replaceAll(",", " "), size, rule, first);
  return { moves, rule, first };
}

export function toPsq(moves, size, times = [], rule = "freestyle") {
  const lines = [`Piskvorky ${size}x${size}, 11:11, 0`];
  moves.forEach(([x, y], i) => lines.push(`${x + 1},${y + 1},${Math.max(0, Math.round(times[i] || 0))}`));
  if (rule !== "freestyle") lines.push("homo-1", "homo-2", `rule=${rule}`);
  return lines.join("\r\n") + "\r\n";
}

// The rule a .psq file names on a "rule=<name>" line after its moves, or null (then the
// caller's current rule applies). Throws on a rule this page does not know.
export function psqRule(text) {
  if (typeof text !== "string") return null;
  for (const line of text.split(/\r\n|\n|\r/)) {
    const m = /^\s*rule\s*=\s*(\S+)\s*$/i.exec(line);
    if (m) {
      const rule = m[1].toLowerCase();
      if (!RULES.includes(rule)) throw new Error(`unknown rule "${rule.slice(0, 20)}"`);
      return rule;
    }
  }
  return null;
}

export function parsePsq(text, size, rule = "freestyle", first = "black") {
  if (typeof text !== "string" || !text.trim()) throw new Error("the file is empty");
  if (text.length > 200000) throw new Error("the file is too large for a game record");
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
  const head = /^\s*Piskvorky\s+(\d+)\s*x\s*(\d+)\b/i.exec(lines[0]);
  if (!head) throw new Error('not a Piskvork file: the first line should look like "Piskvorky 15x15, 11:11, 0"');
  const w = Number(head[1]), h = Number(head[2]);
  if (w !== size || h !== size) throw new Error(`the file is for a ${w}x${h} board; only ${size}x${size} is supported`);
  const moves = [];
  for (const line of lines.slice(1)) {
    const m = /^\s*(-?\d+)\s*,\s*(-?\d+)\s*,\s*(-?\d+)\s*$/.exec(line);
    if (!m) break;
    const x = Number(m[1]), y = Number(m[2]);
    if (x < 1 || y < 1 || x > size || y > size) {
      throw new Error(`move ${moves.length + 1} (${x},${y}) is off the board (1..${size})`);
    }
    moves.push([x - 1, y - 1]);
  }
  return checked(moves, size, rule, first);
}
