#!/usr/bin/env node
'use strict';
/*
 * Which move lost the game? For games in a `python -m gomoku_lab.match --records` file that
 * the reference engine won, find the first move of the loser after which the reference's
 * threat search (VCF, then VCT) proves a win, and list the loser's candidate moves at
 * that point after which it proves none ("parries"). A parry here means "no VCF/VCT found
 * within the time limit", not a proof of safety.
 *
 *   node tools/ref-engine/losses.js RECORDS.jsonl [--ref engine2] [--every 6] [--max 22] [--ms 600]
 *
 * --ref: which engine of the match is this reference (default engine2); --every N: take
 * every N-th of its wins; --max: at most this many games; --ms: time per threat check.
 */

const fs = require('fs');
const { Board } = require('./engine.js');
const { Searcher } = require('./search.js');

const COLUMNS = 'abcdefghijklmnopqrstuvwxyz';

function arg(name, def) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : def;
}

function parseMoves(text, size) {
  return text
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map((t) => [COLUMNS.indexOf(t[0].toLowerCase()), size - Number(t.slice(1))]);
}

function main() {
  const file = process.argv[2];
  if (!file || file.startsWith('--')) {
    console.error('usage: node losses.js RECORDS.jsonl [--ref engine2] [--every 6] [--max 22] [--ms 600]');
    process.exit(2);
  }
  const ref = arg('--ref', 'engine2');
  const every = Number(arg('--every', '6'));
  const max = Number(arg('--max', '22'));
  const ms = Number(arg('--ms', '600'));
  const records = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l))
    .sort((a, b) => a.game - b.game);
  const wins = records.filter((r) => r.winner === ref).filter((_, i) => i % every === 0).slice(0, max);
  let parryable = 0;
  let hopeless = 0;
  let unlocated = 0;
  for (const r of wins) {
    const size = r.size;
    const moves = parseMoves(r.moves, size);
    const n0 = parseMoves(r.opening, size).length;
    const refColour = r.black === ref ? 1 : 2;
    const loser = 3 - refColour;
    const b = new Board(size);
    const s = new Searcher(b);
    const fmt = ([x, y]) => COLUMNS[x] + (size - y);
    const refWins = () =>
      s.vcx(refColour, true, 12, performance.now() + ms * 0.4) >= 0 ||
      s.vcx(refColour, false, 8, performance.now() + ms * 0.6) >= 0;
    let found = null;
    for (let k = 0; k < moves.length; k++) {
      const colour = k % 2 === 0 ? 1 : 2;
      const c = b.idx(moves[k][0], moves[k][1]);
      if (k >= n0 && colour === loser) {
        b.play(c, loser);
        const lost = refWins();
        b.undo();
        if (lost) {
          const parries = [];
          for (const m of s.genMoves(loser, 30)) {
            b.play(m, loser);
            if (!refWins()) parries.push(fmt(b.xy(m)));
            b.undo();
          }
          found = { k, parries };
          break;
        }
      }
      b.play(c, colour);
    }
    const who = `${r.black === ref ? r.white_name : r.black_name} as ${loser === 1 ? 'black' : 'white'}`;
    if (!found) {
      unlocated++;
      console.log(`game ${r.game} (${who}): no losing move located`);
      continue;
    }
    if (found.parries.length) parryable++;
    else hopeless++;
    console.log(
      `game ${r.game} (${who}): move ${found.k + 1} (${fmt(moves[found.k])}) of ${moves.length} let a forced win through; ` +
        `parries: ${found.parries.join(' ') || 'none found'}`,
    );
  }
  console.log(
    `${wins.length} games: a parry was available at the losing move in ${parryable}, none found in ${hopeless}, ` +
      `not located in ${unlocated}`,
  );
}

main();
