// The New game dialog: against the engine or two players on this device, the player's
// colour, who moves first, the rule, the board size, the engine's level and the game clock
// (none, a preset, or custom minutes + seconds a move), filled in from the current game;
// Start begins the new game. With two players the colour and the level are not asked.
// Under renju black moves first: the White first choice is off while renju is picked.
// The opening rule: none, or the rule's (opening.js openingRulesFor: swap2 for freestyle and
// standard, Soosõrv-8 for renju on 15x15; off where there is none), and who places the
// opening stones; with one, the colours are the opening's to decide (You play and First
// move are hidden); with two players both make the opening's choices (who opens is not
// asked), and with a clock the clock starts when the opening is over.
// Under the level chooser (and as its accessible description) the chosen level's one-line
// description, its rating and the player's record at that level, and a details line with
// how the rating was measured. The checks are game.js's and rules.js's; the game and
// results are the page's, reached through the functions it passes in.

import { PRESETS, control, controlText } from "../model/clock.js";
import { DEFAULT_SIZE, SIZES, isSize } from "../model/coords.js";
import { DEFAULT_LEVEL } from "../model/game.js";
import { chosenLevel, fillLevels } from "./level-chooser.js";
import { levelOf } from "../model/levels.js";
import { recordAt } from "../model/results.js";
import { BLACK, WHITE, isRule } from "../model/rules.js";
import { t } from "../model/i18n.js";
import { openingRulesFor } from "../model/opening.js";
import { levelAbout } from "../model/status.js";

const $ = (sel) => document.querySelector(sel);

// getGame(): the current game; getResults(): the results per level (results.js);
// newGame(setup): start a game ({human, first, rule, size, level, twoPlayers, clock,
// opening}).
export function setupNewGameDialog({ getGame, getResults, newGame }) {
  const dialog = $("#new-game-dialog");
  const radio = (name, value) => dialog.querySelector(`input[name="${name}"][value="${value}"]`);
  const picked = (name) => dialog.querySelector(`input[name="${name}"]:checked`).value;

  $("#ng-size").replaceChildren(...SIZES.map((n) => new Option(`${n} × ${n}`, String(n))));
  const clockSel = $("#ng-clock");
  clockSel.querySelector('option[value="custom"]').before(...PRESETS.map((c) => new Option(controlText(c), controlText(c))));
  // the presets' words in the page's language ("5 min + 3 s"), on every opening
  function labelPresets() {
    for (const c of PRESETS) {
      clockSel.querySelector(`option[value="${controlText(c)}"]`).textContent = t("ngPreset", { m: c.baseMs / 60_000, s: c.incMs / 1000 });
    }
  }

  // What is asked as the players and the opening rule say: two players choose no colour
  // and no level, and both make the opening's choices (no one to ask who opens); under an
  // opening rule the colours are the opening's, and the clock starts when it is over.
  function syncPlayers() {
    const two = picked("ng-players") === "two";
    const opening = picked("ng-opening") === "rule" && !!openingRule();
    $("#ng-side-set").hidden = two || opening;
    $("#ng-first-set").hidden = opening;
    $("#ng-opener").hidden = two || !opening;
    $("#ng-level-box").hidden = two;
    const note = $("#ng-clock-note");
    note.dataset.i18n = opening ? "ngClockNoteOpening" : "ngClockNote";
    note.textContent = t(note.dataset.i18n);
  }

  function syncClock() {
    const custom = clockSel.value === "custom";
    for (const part of dialog.querySelectorAll(".ng-clock-part")) part.hidden = !custom;
    $("#ng-clock-bad").hidden = true;
  }

  // The chosen control, null for none; throws (and says so in the dialog) on a bad custom one.
  function chosenClock() {
    if (clockSel.value === "none") return null;
    if (clockSel.value !== "custom") return PRESETS.find((c) => controlText(c) === clockSel.value) ?? null;
    const read = (sel) => ($(sel).value.trim() === "" ? NaN : Number($(sel).value));
    try {
      return control(read("#ng-clock-min"), read("#ng-clock-inc"));
    } catch (err) {
      $("#ng-clock-bad").textContent = t("ngClockBad");
      $("#ng-clock-bad").hidden = false;
      throw err;
    }
  }

  // the current game's clock in the chooser (a preset, else custom with its numbers)
  function showClock(clock) {
    const text = clock ? controlText(clock) : "none";
    const preset = [...clockSel.options].some((o) => o.value === text);
    clockSel.value = preset ? text : "custom";
    if (clock && !preset) {
      $("#ng-clock-min").value = String(clock.baseMs / 60_000);
      $("#ng-clock-inc").value = String(clock.incMs / 1000);
    }
    syncClock();
  }

  function syncRenjuFirst() {
    const renju = picked("ng-rule") === "renju";
    const whiteFirst = radio("ng-first", "white");
    if (renju && whiteFirst.checked) radio("ng-first", "black").checked = true;
    whiteFirst.disabled = renju;
    $("#ng-renju-note").hidden = !renju;
  }

  // the opening rule the chosen game rule and size may have (null: none)
  const openingRule = () => openingRulesFor(picked("ng-rule"), Number($("#ng-size").value))[0] ?? null;
  function syncOpening() {
    const rule = openingRule();
    const none = radio("ng-opening", "none");
    const some = radio("ng-opening", "rule");
    if (!rule && some.checked) none.checked = true;
    some.disabled = !rule;
    $("#ng-opening-name").textContent = t("opr_" + (rule ?? "none"));
    const on = !!rule && some.checked;
    $("#ng-opening-about").textContent = t("opa_" + (on ? rule : "none"));
    syncPlayers();
  }

  const levelSel = $("#ng-level");
  function syncLevelAbout() {
    const n = chosenLevel(levelSel) ?? DEFAULT_LEVEL;
    const { description, details, method } = levelAbout(levelOf(n), recordAt(getResults(), n));
    $("#ng-level-desc").textContent = description;
    $("#ng-level-details").textContent = details;
    $("#ng-level-method").textContent = method;
  }
  levelSel.addEventListener("change", syncLevelAbout);

  $("#setup").addEventListener("click", () => {
    const game = getGame();
    radio("ng-side", game.human).checked = true;
    radio("ng-first", game.first === BLACK ? "black" : "white").checked = true;
    radio("ng-rule", game.rule).checked = true;
    fillLevels(levelSel);
    levelSel.value = String(game.level);
    $("#ng-size").value = String(game.size);
    radio("ng-opening", game.opening ? "rule" : "none").checked = true;
    radio("ng-opener", String(game.opening ? game.opening.player : 1)).checked = true;
    radio("ng-players", game.twoPlayers ? "two" : "engine").checked = true;
    labelPresets();
    showClock(game.clock);
    syncRenjuFirst();
    syncOpening(); // (and syncPlayers)
    syncLevelAbout();
    dialog.showModal();
  });
  for (const input of dialog.querySelectorAll('input[name="ng-rule"]')) {
    input.addEventListener("change", () => { syncRenjuFirst(); syncOpening(); });
  }
  for (const input of dialog.querySelectorAll('input[name="ng-opening"]')) input.addEventListener("change", syncOpening);
  $("#ng-size").addEventListener("change", syncOpening);
  for (const input of dialog.querySelectorAll('input[name="ng-players"]')) input.addEventListener("change", syncPlayers);
  clockSel.addEventListener("change", syncClock);
  $("#ng-cancel").addEventListener("click", () => dialog.close());
  $("#ng-start").addEventListener("click", () => {
    let clock;
    try {
      clock = chosenClock();
    } catch {
      return; // said in the dialog; nothing started
    }
    dialog.close();
    const level = chosenLevel(levelSel) ?? DEFAULT_LEVEL;
    const size = Number($("#ng-size").value);
    const rule = isRule(picked("ng-rule")) ? picked("ng-rule") : "freestyle";
    const opening = picked("ng-opening") === "rule" && openingRule()
      ? { rule: openingRule(), player: picked("ng-opener") === "2" ? 2 : 1 } : null;
    newGame({
      human: picked("ng-side") === "2" ? WHITE : BLACK,
      first: picked("ng-first") === "white" && rule !== "renju" && !opening ? WHITE : BLACK,
      rule,
      size: isSize(size) ? size : DEFAULT_SIZE,
      level,
      twoPlayers: picked("ng-players") === "two",
      clock,
      opening,
    });
  });
}
