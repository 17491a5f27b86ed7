// The coach: each colour's immediate threats in the shown position, as marks on the board
// and one sentence for the status area. The threats come from the engine worker's
// "threats" message (py/gomoku/engine/coach.py: the engine's own pattern tables, no
// search); this module checks the answer and says it. It shows what is on the board,
// never the engine's choice (a hint is that). Pure functions of plain data and the
// current language (i18n.js); coach-view.js runs it on the page.
//
// A threat is {kind, points: [[x, y], ...], blocks: [[x, y], ...]}: kind "four" (points:
// where its colour makes five), "three" (an open three, straight or split; points: where
// it makes an open four), "double-four", "four-three", "double-three" (points: the cell
// where it would make that); blocks: where the other colour stops it.

import { cellText, onBoard } from "./coords.js";
import * as Game from "./game.js";
import { t } from "./i18n.js";
import { coachByDefault } from "./levels.js";
import { BLACK, WHITE } from "./rules.js";

export const KINDS = ["four", "three", "double-four", "four-three", "double-three"];
const DOUBLES = KINDS.slice(2);
// the label of a point on the board: what the stone there makes
export const LABELS = { four: "5", three: "4", "double-four": "44", "four-three": "43", "double-three": "33" };

// Is the coach on: the player's choice (settings.coach) when made, else on once the player
// has seen it (settings.coachSeen: a player who learnt with the marks keeps them when
// moving up the ladder, rather than losing them without a word), else the default of the
// game's level (levels.js coachByDefault)?
export function coachOn(settings, game) {
  if (typeof settings.coach === "boolean") return settings.coach;
  return settings.coachSeen === true || coachByDefault(game.level);
}

// The settings once the coach has shown the player a position (its answer on the page):
// remembered as seen when it was on without the player's choice; the same object when
// nothing changes.
export function seenBy(settings, game) {
  if (typeof settings.coach === "boolean" || settings.coachSeen === true || !coachOn(settings, game)) return settings;
  return { ...settings, coachSeen: true };
}

// Is the coach kept on for a game at level (a number) only because the player has seen it
// (the level's default is off, the player never chose)? Then the page says so once, with
// how to turn it off, and makes it the player's choice (settings.coach true).
export function keptAt(settings, level) {
  return typeof settings.coach !== "boolean" && settings.coachSeen === true && !coachByDefault(level);
}

// The worker's message for the game's shown position.
export function threatsMessage(game) {
  return {
    type: "threats", size: game.size, rule: game.rule, moves: Game.shownMoves(game),
    first: game.first === WHITE ? "white" : "black",
  };
}

const COLOURS = { black: BLACK, white: WHITE };

function readPoints(list, size, what) {
  if (!Array.isArray(list)) throw new Error(`coach: ${what} is not a list`);
  return list.map((p) => {
    if (!Array.isArray(p) || p.length !== 2 || !p.every(Number.isInteger) || !onBoard(p[0], p[1], size)) {
      throw new Error(`coach: bad point in ${what}: ${JSON.stringify(p)}`);
    }
    return [p[0], p[1]];
  });
}

// The worker's answer checked: {toMove: BLACK | WHITE, threats: {1: [...], 2: [...]}}
// (threats by colour, each as above); throws on anything else (an error reply included).
export function readThreats(reply, size) {
  if (!reply || reply.type !== "threats") throw new Error((reply && reply.message) || "coach: unexpected reply");
  if (!Object.hasOwn(COLOURS, reply.toMove)) throw new Error(`coach: bad toMove ${JSON.stringify(reply.toMove)}`);
  const threats = {};
  for (const [name, colour] of Object.entries(COLOURS)) {
    if (!Array.isArray(reply[name])) throw new Error(`coach: ${name} is not a list`);
    threats[colour] = reply[name].map((th) => {
      if (!th || !KINDS.includes(th.kind)) throw new Error(`coach: bad kind ${JSON.stringify(th && th.kind)}`);
      const points = readPoints(th.points, size, `${name} ${th.kind} points`);
      if (!points.length) throw new Error(`coach: ${name} ${th.kind} has no point`);
      return { kind: th.kind, points, blocks: readPoints(th.blocks, size, `${name} ${th.kind} blocks`) };
    });
  }
  return { toMove: COLOURS[reply.toMove], threats };
}

const key = ([x, y]) => x + "," + y;

// The marks on the board: [{x, y, color, kind, label, threat?}] (kind a threat kind for a
// point, "block" for a cell that stops a threat of `color` without being one of its
// points, threat then that threat's kind);
// both colours may mark one cell (the board draws them side by side).
export function coachMarks(coaching) {
  const out = [];
  for (const color of [BLACK, WHITE]) {
    const seen = new Map(); // cell -> mark of this colour (the strongest kind first)
    for (const th of coaching.threats[color]) {
      for (const p of th.points) {
        if (!seen.has(key(p))) seen.set(key(p), { x: p[0], y: p[1], color, kind: th.kind, label: LABELS[th.kind] });
      }
    }
    for (const th of coaching.threats[color]) {
      if (th.kind === "four") continue; // its blocks are its points
      for (const p of th.blocks) {
        if (!seen.has(key(p))) seen.set(key(p), { x: p[0], y: p[1], color, kind: "block", threat: th.kind, label: "" });
      }
    }
    out.push(...seen.values());
  }
  return out;
}

// What the keyboard cursor's label says of a cell the coach marks ("coach: white makes an
// open four here"), or "" (marks: coachMarks).
export function coachCursor(marks, [x, y]) {
  const here = marks.filter((m) => m.x === x && m.y === y);
  return here.map((m) => {
    const color = t(m.color === BLACK ? "blackL" : "whiteL");
    if (m.kind === "block") return t("coachCursorBlock", { color });
    let what = t("coachWhatDouble", { shape: shapeWord(m.kind) });
    if (m.kind === "four") what = t("coachWhatFour");
    if (m.kind === "three") what = t("coachWhatThree");
    return t("coachCursor", { color, what });
  }).join(t("coachSep"));
}

// data-coach: "white-three:e8 white-block:d8 ...", in mark order (tests and tools).
export function coachText(marks, size) {
  return marks.map((m) => `${m.color === BLACK ? "black" : "white"}-${m.kind}:${cellText(m.x, m.y, size)}`).join(" ");
}

// "g9", "g9 or c5", "g9, c5 or d4" in the current language
export function orList(points, size) {
  const cells = points.map(([x, y]) => cellText(x, y, size));
  if (cells.length <= 1) return cells.join("");
  return cells.slice(0, -1).join(t("coachSep")) + t("coachOr") + cells[cells.length - 1];
}

const colourWord = (c) => t(c === BLACK ? "black" : "white");
function shapeWord(kind) {
  if (kind === "double-four") return t("coachDoubleFour");
  if (kind === "four-three") return t("coachFourThree");
  return t("coachDoubleThree");
}
const allPoints = (list) => {
  const seen = new Map();
  for (const th of list) for (const p of th.points) seen.set(key(p), p);
  return [...seen.values()];
};

// The sentence for the status area: {text, urgent} (urgent: a threat is on the board;
// else text says there is none). The most pressing fact first: the colour to move can make
// five; the other threatens five; the colour to move can make an open four; the other
// threatens one; the colour to move can make a double threat; the other threatens one.
export function coachSentence(coaching, size) {
  const mover = coaching.toMove;
  const other = 3 - mover;
  const mine = coaching.threats[mover];
  const theirs = coaching.threats[other];
  const of = (list, kinds) => list.filter((th) => kinds.includes(th.kind));
  const say = (k, vars) => ({ text: t(k, vars), urgent: true });
  if (of(mine, ["four"]).length) {
    return say("coachWin", { color: colourWord(mover), points: orList(allPoints(of(mine, ["four"])), size) });
  }
  const fours = of(theirs, ["four"]);
  if (fours.length) {
    const pts = allPoints(fours);
    const vars = { color: colourWord(other), points: orList(pts, size) };
    if (pts.length > 1) return say("coachFours", vars);
    return fours[0].blocks.length ? say("coachFour", vars) : say("coachFourNoBlock", vars);
  }
  if (of(mine, ["three"]).length) {
    return say("coachOwnThree", { color: colourWord(mover), points: orList(allPoints(of(mine, ["three"])), size) });
  }
  const three = of(theirs, ["three"])[0];
  if (three) {
    const vars = { color: colourWord(other), points: orList(three.points, size), blocks: orList(three.blocks, size) };
    return say(three.blocks.length ? "coachThree" : "coachThreeNoBlock", vars);
  }
  const own = of(mine, DOUBLES)[0];
  if (own) {
    return say("coachOwnDouble", { color: colourWord(mover), shape: shapeWord(own.kind), points: orList(own.points, size) });
  }
  const double = of(theirs, DOUBLES)[0];
  if (double) {
    const vars = {
      color: colourWord(other), shape: shapeWord(double.kind), points: orList(double.points, size), blocks: orList(double.blocks, size),
    };
    return say(double.blocks.length ? "coachDouble" : "coachDoubleNoBlock", vars);
  }
  return { text: t("coachNone"), urgent: false };
}
