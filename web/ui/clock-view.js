// The game clock on the page: the two clocks under the status (the colour, against the
// engine who plays it, the time left; the running one marked, red under 10 s and once its
// flag fell), a note when the clock waits (for the first stone, for the engine to load),
// and what makes the clock run or stop: after every change of the state (state.js
// syncClock: the engine loading, analysis, the game over, ...) and when the page is
// hidden or left (visibilitychange, pagehide: the clock stops there and its times are
// stored, so the time while the page is hidden or closed is not charged). While a clock
// runs it ticks every TICK_MS and calls onFlag() once its time is gone.

import { LOW_MS, formatTime, remaining } from "../model/clock.js";
import * as Game from "../model/game.js";
import { t } from "../model/i18n.js";
import { BLACK, WHITE } from "../model/rules.js";
import { clockInPlay, flagDue, syncClock } from "../model/state.js";
import { colorWord } from "../model/status.js";

export const TICK_MS = 100;

const $ = (sel) => document.querySelector(sel);

// store: the state; now(): the clock's time source (main.js); onFlag(): the running
// colour's time is gone (actions.js flagFell).
export function setupClockView({ store, now, onFlag }) {
  const box = $("#clocks");
  const note = $("#clock-note");
  let timer = null;
  let left = false; // the page was left (pagehide) and not shown again

  const visible = () => document.visibilityState !== "hidden" && !left;
  const sync = () => store.update((s) => syncClock(s, now(), visible()));

  function renderClock(s, colour, at) {
    const { clock, human, twoPlayers } = s.game;
    const el = $(`#clock-${colour}`);
    const ms = remaining(clock, colour, at);
    const time = formatTime(ms);
    const who = colorWord(colour) + (twoPlayers ? "" : " · " + t(colour === human ? "clockYou" : "clockEngine"));
    el.querySelector(".clock-who").textContent = who;
    el.querySelector(".clock-time").textContent = time;
    const running = clock.running === colour && clockInPlay(s.game);
    el.classList.toggle("running", running);
    el.classList.toggle("ticking", running && clock.since !== null);
    el.classList.toggle("low", ms < LOW_MS);
    el.classList.toggle("flagged", clock.flag === colour);
    el.dataset.ms = String(Math.round(ms));
    const label = t("clockLabel", { color: colorWord(colour), time });
    if (el.getAttribute("aria-label") !== label) el.setAttribute("aria-label", label);
  }

  // What the clock waits for, when it is in play and not running: the first stone (under
  // an opening rule the opening's end), or the engine (its turn, its worker not ready).
  function noteText(s) {
    const { game } = s;
    if (!clockInPlay(game) || s.analysing || game.clock.since !== null) return "";
    if (!game.clock.running) return t(Game.inOpening(game) ? "clockWaitsOpening" : "clockWaits");
    const enginesTurn = !game.twoPlayers && game.clock.running !== game.human && Game.atEnd(game);
    return enginesTurn && (s.engine.state !== "ready" || s.engineError) ? t("clockStopped") : "";
  }

  function render(s = store.get()) {
    const { clock } = s.game;
    box.hidden = !clock;
    if (clock) {
      const at = now();
      renderClock(s, BLACK, at);
      renderClock(s, WHITE, at);
      const text = noteText(s);
      note.hidden = !text;
      note.textContent = text;
    } else {
      // no clock: nothing kept of the last one (its labels would stay in the language of
      // the moment they were written)
      for (const el of box.querySelectorAll(".clock")) el.removeAttribute("aria-label");
    }
    const ticking = !!clock && clock.since !== null;
    if (ticking && !timer) timer = window.setInterval(tick, TICK_MS);
    if (!ticking && timer) {
      window.clearInterval(timer);
      timer = null;
    }
  }

  function tick() {
    const s = store.get();
    if (flagDue(s, now())) onFlag();
    else render(s);
  }

  document.addEventListener("visibilitychange", sync);
  window.addEventListener("pagehide", () => {
    left = true;
    sync(); // stopped and stored as of now
  });
  window.addEventListener("pageshow", () => {
    left = false;
    sync();
  });

  return {
    // a store subscriber: the clock started or stopped as the state now says, then shown
    follow() {
      sync();
      render();
    },
    render,
    // one tick now (the test hook after moving the time source)
    tick,
  };
}
