// The Display settings (settings.js): move numbers, coordinates, move sound, theme,
// language and threads; the best moves in analysis are analysis-view.js's, the best line
// check box think-view.js's. A change goes into the state (state.js: it is stored and the
// page re-rendered); apply() puts the theme and the language on the page. The language
// is the settings' (t() reads it from the state: i18n.js readLanguageFrom, set up here);
// apply() fills in the static texts in it.

import { applyLanguage, currentLanguage, pickLanguage, readLanguageFrom } from "../model/i18n.js";
import { BLACK } from "../model/rules.js";
import { threadsFor, validThreads } from "../model/settings.js";
import { playStone } from "./sound.js";

const $ = (sel) => document.querySelector(sel);

// The browser's preferred languages, for a page whose settings leave the language open.
export function browserLanguages() {
  return navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
}

// store: the state; engine: the engine client (setThreads, workers()); threadsOverride:
// ?threads= (params.js), which wins over the setting for this visit.
export function setupSettingsPanel({ store, engine, threadsOverride }) {
  const set = (key, value) => store.update((s) => ({ ...s, settings: { ...s.settings, [key]: value } }));
  const preferred = browserLanguages();
  readLanguageFrom(() => pickLanguage(store.get().settings.lang, preferred));

  function apply(settings) {
    const root = document.documentElement;
    if (settings.theme === "auto") delete root.dataset.theme;
    else root.dataset.theme = settings.theme;
    applyLanguage(document);
    $("#opt-numbers").checked = settings.numbers;
    $("#opt-coords").checked = settings.coords;
    $("#opt-sound").checked = settings.sound;
    $("#opt-touch").checked = settings.touchConfirm;
    $("#opt-theme").value = settings.theme;
    $("#opt-lang").value = currentLanguage();
    $("#opt-threads").value = String(threadsFor(settings, threadsOverride));
  }

  const switches = [["#opt-numbers", "numbers"], ["#opt-coords", "coords"], ["#opt-sound", "sound"], ["#opt-touch", "touchConfirm"]];
  for (const [id, key] of switches) {
    $(id).addEventListener("change", (ev) => {
      if (key === "sound" && ev.target.checked) playStone(BLACK);
      set(key, ev.target.checked);
    });
  }
  $("#opt-theme").addEventListener("change", (ev) => set("theme", ev.target.value));
  $("#opt-lang").addEventListener("change", (ev) => set("lang", ev.target.value));
  $("#opt-threads").addEventListener("change", (ev) => {
    const n = Number(ev.target.value);
    if (!validThreads(n)) return;
    set("threads", n);
    engine.setThreads(threadsOverride ?? n);
    store.update({ workers: engine.workers() });
  });

  return {
    apply,
    // the subscriber: the theme and language follow the settings
    follow(s, prev) {
      if (s.settings.theme !== prev.settings.theme || s.settings.lang !== prev.settings.lang) apply(s.settings);
    },
  };
}
