// The level choosers (the toolbar's #level and the New game dialog's #ng-level): a select
// listing every level of levels.js as "N · Name" (with its rating when measured), in the
// current language. The option values are the level numbers.

import { currentLanguage } from "../model/i18n.js";
import { LEVEL_NUMBERS, levelOf } from "../model/levels.js";
import { levelLabel } from "../model/status.js";

// Fill select with the levels, keeping its value; nothing to do when it lists them in the
// current language already.
export function fillLevels(select) {
  const lang = currentLanguage();
  if (select.dataset.lang === lang && select.options.length === LEVEL_NUMBERS.length) return;
  const value = select.value;
  select.replaceChildren(...LEVEL_NUMBERS.map((n) => new Option(levelLabel(levelOf(n)), String(n))));
  select.dataset.lang = lang;
  if (value) select.value = value;
}

// The level number chosen in select, or null when it is not a level.
export function chosenLevel(select) {
  const n = Number(select.value);
  return levelOf(n) ? n : null;
}
