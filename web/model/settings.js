// The page's settings (the Display panel and the thinking panel's check box): their
// fields, defaults and checks. Pure data and functions, no DOM; storage.js stores them,
// settings-panel.js shows them, parallel-client.js takes the number of threads.
//
//   {theme: "auto" | "light" | "dark", lang: "en" | "zh" | null (the browser's),
//    sound, numbers, coords, showPv: booleans,
//    touchConfirm: on a touch screen a first tap previews the stone, a second on the same
//      point plays it (input.js); false: one tap plays,
//    analysisMoves: the best moves drawn in analysis (analysis.js, 3..5),
//    threads?: search workers, 1..MAX_THREADS (absent: defaultThreads()),
//    coach?: the coach marks the threats (coach.js), the player's choice (absent: on once
//    seen, else by the game's level, levels.js coachByDefault),
//    coachSeen?: true once the coach, on by default, has shown the player a position}

import { TOP_DEFAULT, isTopCount } from "./analysis.js";

export const MAX_THREADS = 4;
export const THEMES = ["auto", "light", "dark"];
export const LANGS = ["en", "zh"];
export const SWITCHES = ["sound", "numbers", "coords", "showPv", "touchConfirm"];

export const DEFAULT_SETTINGS = { theme: "auto", lang: null, sound: false, numbers: false, coords: true, showPv: false,
  analysisMoves: TOP_DEFAULT, touchConfirm: true,
};

// One search worker unless the player asks for more: measured at 1 s per move in CPython
// (BENCHMARKS.md, "Parallel search"), the lazy pair on two cores scored exactly
// 50% against one process (+47 -47 =6, 0 +/- 44 Elo), so a second worker buys no
// measurable strength for its 90 MiB and 10-20 s of start-up CPU.
export function defaultThreads() {
  return 1;
}

export function validThreads(value) {
  return Number.isInteger(value) && value >= 1 && value <= MAX_THREADS;
}

// The search workers wanted: override (?threads=, params.js) if any, else the setting,
// else the default.
export function threadsFor(settings, override = null) {
  return override ?? settings.threads ?? defaultThreads();
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

// Settings from a stored value: each valid field is kept, the others take their default.
// Throws when the value is not an object at all.
export function decodeSettings(v) {
  if (!isObject(v)) throw new Error("the stored settings are not an object");
  const out = { ...DEFAULT_SETTINGS };
  if (THEMES.includes(v.theme)) out.theme = v.theme;
  if (LANGS.includes(v.lang)) out.lang = v.lang;
  for (const k of SWITCHES) if (typeof v[k] === "boolean") out[k] = v[k];
  if (isTopCount(v.analysisMoves)) out.analysisMoves = v.analysisMoves;
  if (validThreads(v.threads)) out.threads = v.threads; // else automatic
  if (typeof v.coach === "boolean") out.coach = v.coach; // else by level
  if (v.coachSeen === true) out.coachSeen = true;
  return out;
}

