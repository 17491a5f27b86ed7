// The Records dialog: the move list (copy, or paste and load), the share link, .psq files
// (download, open) and the finished games (a reviewed one says so; opening it brings its
// review back: review-job.js). The formats are records.js's; the game is the
// page's (state.js), reached through the functions it passes in.

import { recordOpening, shownMoves } from "../model/game.js";
import { errorText, msg, t, textOf } from "../model/i18n.js";
import { formatMoves, parseMoveList, parsePsq, toFragment, toPsq } from "../model/records.js";
import { BLACK } from "../model/rules.js";
import { historyLabel } from "../model/status.js";

const $ = (sel) => document.querySelector(sel);

// getGame(), getHistory(): the current game and finished games; loadRecord(record) opens a
// record ({moves, size, rule, first}) or throws, and returns whether the game it replaced
// was kept in the finished games (unfinished); announce(message) tells screen readers (a
// message, i18n.js).
export function setupRecordsDialog({ getGame, getHistory, loadRecord, announce }) {
  const recDialog = $("#records-dialog");
  const recMsg = $("#record-msg");

  function shareLink() {
    const url = new URL(location.href);
    url.search = "";
    const game = getGame();
    url.hash = toFragment({
      moves: shownMoves(game), size: game.size, rule: game.rule, first: game.first, opening: recordOpening(game), clock: game.clock,
    });
    return url.href;
  }

  function fillRecords() {
    const game = getGame(), history = getHistory();
    $("#record-text").value = formatMoves(game.moves, game.size);
    $("#share-link").value = shareLink();
    recMsg.textContent = "";
    const list = $("#history-list");
    list.textContent = "";
    if (!history.length) {
      const li = document.createElement("li");
      li.className = "empty";
      li.textContent = t("noHistory");
      list.append(li);
    }
    history.slice().reverse().forEach((h) => {
      const li = document.createElement("li");
      const label = document.createElement("span");
      label.textContent = historyLabel(h);
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = t("load");
      b.addEventListener("click", () => {
        try {
          const kept = loadRecord(h);
          recDialog.close();
          if (kept) announce(msg("keptUnfinished"));
        } catch (err) {
          recMsg.textContent = t("importBad", { err: errorText(err) });
        }
      });
      li.append(label, b);
      list.append(li);
    });
  }

  async function copyText(text, input) {
    try {
      await navigator.clipboard.writeText(text);
      recMsg.textContent = t("copied");
    } catch {
      input.focus();
      input.select();
      let ok = false;
      try { ok = document.execCommand("copy"); } catch { ok = false; }
      recMsg.textContent = ok ? t("copied") : t("copyFailed");
    }
  }

  // Load the record parse() returns; a parse error is reported and changes nothing.
  function importRecord(parse) {
    try {
      const record = parse();
      const kept = loadRecord(record);
      fillRecords();
      const said = [msg("imported", { n: record.moves.length }), kept ? msg("keptUnfinished") : ""];
      recMsg.textContent = textOf(said);
      announce(said);
    } catch (err) {
      recMsg.textContent = t("importBad", { err: errorText(err) });
    }
  }

  $("#records").addEventListener("click", () => {
    fillRecords();
    recDialog.showModal();
  });
  $("#records-close").addEventListener("click", () => recDialog.close());
  // a move list is read on the current board, with its rule and first player
  $("#record-load").addEventListener("click", () => importRecord(() => {
    const { size, rule, first } = getGame();
    return { size, rule, first, moves: parseMoveList($("#record-text").value, size, rule, first) };
  }));
  $("#record-copy").addEventListener("click", () => copyText($("#record-text").value, $("#record-text")));
  $("#share-copy").addEventListener("click", () => copyText($("#share-link").value, $("#share-link")));
  $("#psq-export").addEventListener("click", () => {
    const game = getGame();
    const opening = game.opening ? { rule: game.opening.rule, choices: game.opening.choices, offers: game.opening.offers } : null;
    // a game on the clock: each move's time in its line (the format's own field)
    const times = game.clock ? game.clock.used.map((ms) => ms ?? 0) : [];
    const blob = new Blob([toPsq(game.moves, game.size, times, game.rule, opening)], { type: "text/plain" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `gomoku-${new Date().toISOString().slice(0, 16).replace(/[-:T]/g, "")}.psq`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  });
  $("#psq-import").addEventListener("click", () => $("#psq-file").click());
  $("#psq-file").addEventListener("change", async (ev) => {
    const file = ev.target.files && ev.target.files[0];
    ev.target.value = "";
    if (!file) return;
    if (file.size > 200000) { recMsg.textContent = t("importBad", { err: t("fileTooLarge") }); return; }
    const text = await file.text();
    // a .psq file names its board size and (when not freestyle) its rule, else the
    // current game's rule applies; the first player is the current game's (black in renju)
    importRecord(() => {
      const game = getGame();
      const record = parsePsq(text, game.rule, game.first);
      return { ...record, first: record.rule === "renju" ? BLACK : game.first };
    });
  });
}
