// The New game dialog: the player's colour, who moves first, the rule, the board size and
// the engine's level, filled in from the current game; Start begins the new game.
// Under renju black moves first: the White first choice is off while renju is picked.
// Under the level chooser (and as its accessible description) the chosen level's one-line
// description, its rating and the player's record at that level, and a details line with
// how the rating was measured. The checks are game.js's and rules.js's; the game and
// results are the page's, reached through the functions it passes in.

import { DEFAULT_SIZE, SIZES, isSize } from "../model/coords.js";
import { DEFAULT_LEVEL } from "../model/game.js";
import { chosenLevel, fillLevels } from "./level-chooser.js";
import { levelOf } from "../model/levels.js";
import { recordAt } from "../model/results.js";
import { BLACK, WHITE, isRule } from "../model/rules.js";
import { levelAbout } from "../model/status.js";

const $ = (sel) => document.querySelector(sel);

// getGame(): the current game; getResults(): the results per level (results.js);
// newGame(setup): start a game ({human, first, rule, size, level}).
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
    syncRenjuFirst();
    syncLevelAbout();
    dialog.showModal();
  });
  for (const input of dialog.querySelectorAll('input[name="ng-rule"]')) input.addEventListener("change", syncRenjuFirst);
  $("#ng-cancel").addEventListener("click", () => dialog.close());
  $("#ng-start").addEventListener("click", () => {
    dialog.close();
    const level = chosenLevel(levelSel) ?? DEFAULT_LEVEL;
    const size = Number($("#ng-size").value);
    const rule = isRule(picked("ng-rule")) ? picked("ng-rule") : "freestyle";
    newGame({
      human: picked("ng-side") === "2" ? WHITE : BLACK,
      first: picked("ng-first") === "white" && rule !== "renju" ? WHITE : BLACK,
      rule,
      size: isSize(size) ? size : DEFAULT_SIZE,
      level,
    });
  });
}
