// What the puzzles page keeps in the browser's storage (handed in: localStorage, or a
// stand-in in tests): the player's puzzle progress under its own key, and the language,
// a field of the game page's settings (changing it here changes it there too; the rest
// of the settings is left as it is, unreadable settings untouched). Pure otherwise.

import { decodeProgress, newProgress } from "./puzzles.js";
import { KEYS } from "./storage.js";

export const PROGRESS_KEY = "gomoku.puzzles.v1";

// The stored progress: {progress, dropped: null, or the error that made the stored one
// unreadable (it is then removed, and nothing else touched)}.
export function loadProgress(storage) {
  let raw = null;
  try {
    raw = storage.getItem(PROGRESS_KEY);
  } catch {
    return { progress: newProgress(), dropped: null };
  }
  if (raw === null) return { progress: newProgress(), dropped: null };
  try {
    return { progress: decodeProgress(JSON.parse(raw)), dropped: null };
  } catch (err) {
    try { storage.removeItem(PROGRESS_KEY); } catch { /* storage unavailable */ }
    return { progress: newProgress(), dropped: err };
  }
}

export function saveProgress(storage, progress) {
  try { storage.setItem(PROGRESS_KEY, JSON.stringify(progress)); } catch { /* private mode */ }
}

// The game page's settings (an object), or null when there are none or they are unreadable.
export function savedSettings(storage) {
  try {
    const v = JSON.parse(storage.getItem(KEYS.settings) || "null");
    return v && typeof v === "object" && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

export function saveLanguage(storage, lang) {
  const s = savedSettings(storage);
  try { storage.setItem(KEYS.settings, JSON.stringify({ ...(s || {}), lang })); } catch { /* ignore */ }
}
