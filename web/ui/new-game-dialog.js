// The New game dialog: the player's colour, who moves first, the rule, the board size and
// the engine's level, filled in from the current game; Start begins the new game.
// Under renju black moves first: the White first choice is off while renju is picked.
// The opening rule: none, or the rule's (opening.js openingRulesFor: swap2 for freestyle and
// standard, Soosõrv-8 for renju on 15x15; off where there is none), and who places the
// opening stones; with one, the colours are the opening's to decide (You play and First
// move are hidden).
// Under the level chooser (and as its accessible description) the chosen level's one-line
// description, its rating and the player's record at that level. The checks are game.js's
// and rules.js's; the game and results are the page's, reached through the functions it
// passes in.

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
// newGame(setup): start a game ({human, first, rule, size, level, opening}).
export function setupNewGameDialog({ getGame, getResults, newGame }) {
  const dialog = $("#new-game-dialog");
  const radio = (name, value) => dialog.querySelector(`input[name="${name}"][value="${value}"]`);
  const picked = (name) => dialog.querySelector(`input[name="${name}"]:checked`).value;

  $("#ng-size").replaceChildren(...SIZES.map((n) => new Option(`${n} × ${n}`, String(n))));

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
    $("#ng-opener").hidden = !on;
    $("#ng-side-set").hidden = on;
    $("#ng-first-set").hidden = on;
  }

  const levelSel = $("#ng-level");
  function syncLevelAbout() {
    const n = chosenLevel(levelSel) ?? DEFAULT_LEVEL;
    const { description, details } = levelAbout(levelOf(n), recordAt(getResults(), n));
    $("#ng-level-desc").textContent = description;
    $("#ng-level-details").textContent = details;
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
    syncRenjuFirst();
    syncOpening();
    syncLevelAbout();
    dialog.showModal();
  });
  for (const input of dialog.querySelectorAll('input[name="ng-rule"]')) {
    input.addEventListener("change", () => { syncRenjuFirst(); syncOpening(); });
  }
  for (const input of dialog.querySelectorAll('input[name="ng-opening"]')) input.addEventListener("change", syncOpening);
  $("#ng-size").addEventListener("change", syncOpening);
  $("#ng-cancel").addEventListener("click", () => dialog.close());
  $("#ng-start").addEventListener("click", () => {
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
      opening,
    });
  });
}
