// The errors of game records (records.js, rules.js) for the player: each is a key of
// RECORD_ERRORS_EN with its fields, so that the page shows it in the player's language
// (i18n.js errorText: these English texts are part of i18n.js's English table, the
// Chinese ones are there). Pure: no DOM, no i18n.js (the pure modules throw these).
//
// err.key is the text's key and err.vars its fields; a field's value may itself be
// {key, vars?, en?} (a shape's name, with its English word; the error a .psq file's line
// wraps), translated with the rest. err.message is the English text.

export const RECORD_ERRORS_EN = {
  rec_size: "the board size must be {min}x{min} to {max}x{max}",
  rec_sizeNot: "the board size must be {min}x{min} to {max}x{max}, not \"{got}\"",
  rec_rule: "unknown rule \"{rule}\"", rec_first: "first must be black or white",
  rec_renjuFirst: "under renju black moves first",
  rec_forbidden: "move {n} ({move}) is forbidden for black: {shape}",
  rec_noList: "no move list", rec_tooLong: "the move list is too long",
  rec_tooMany: "more moves than points on the board",
  rec_offBoard: "\"{tok}\" (move {n}) is off the {size}x{size} board",
  rec_notPoint: "\"{tok}\" (move {n}) is not a point like h8",
  rec_emptyList: "the move list is empty", rec_emptyLink: "the link has no moves",
  rec_badText: "it is not valid text: \"{text}\" has a broken %-code",
  rec_fileEmpty: "the file is empty", rec_fileLarge: "the file is too large for a game record",
  rec_psqHead: "not a Piskvork file: the first line should look like \"Piskvorky 15x15, 11:11, 0\"",
  rec_psqSize: "the file is for a {w}x{h} board; boards from {min}x{min} to {max}x{max} are supported",
  rec_psqOff: "line {line}: move {n} ({x},{y}) is off the board (1..{size})",
  rec_atLine: "line {line}: {err}",
  rec_moveOff: "move {n} is not on the {size}x{size} board",
  rec_afterWin: "move {n} comes after the game was won (move {won})",
  rec_taken: "move {n} is on a taken point",
  rec_clock: "the time control must look like 5+3 (minutes + seconds)",
};

function english(key, vars = {}) {
  const fill = (v) => (v !== null && typeof v === "object" && typeof v.key === "string"
    ? (RECORD_ERRORS_EN[v.key] ? english(v.key, v.vars) : String(v.en ?? v.key)) : String(v));
  return (RECORD_ERRORS_EN[key] ?? key).replace(/\{(\w+)\}/g, (_, k) => (k in vars ? fill(vars[k]) : "{" + k + "}"));
}

export function textError(key, vars = {}) {
  return Object.assign(new Error(english(key, vars)), { key, vars });
}
