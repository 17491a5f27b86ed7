// The engine's start, shown while it loads: a bar and a percentage under the status (the
// worker's progress messages: a fixed share per stage, worker.js PROGRESS), hidden once
// the engine is ready. Screen readers hear two things only: that the engine is loading
// (at the first start) and that it is ready, not every step.
//
// bar: a <progress>; label: the percentage's element; box: what is shown and hidden;
// announce(message): the page's live region (a message, i18n.js); canvas: the board,
// whose data-engine-start says how the engine worker started ("snapshot" or "fresh", worker.js).

import { msg, t } from "../model/i18n.js";

export function setupLoadProgress({ canvas, box, bar, label, announce }) {
  let announcedStart = false;
  let announcedReady = false;

  function show(percent) {
    const pct = Math.max(0, Math.min(100, Math.round(Number(percent) || 0)));
    box.hidden = false;
    bar.value = pct;
    label.textContent = t("loadPercent", { pct });
    box.dataset.percent = String(pct);
  }

  return {
    // the engine client's state: loading (a start or a restart), ready, failed
    state(state, detail) {
      if (state === "loading") {
        show(0);
        if (!announcedStart) announce(msg("loadStarted"));
        announcedStart = true;
      } else {
        box.hidden = true;
        if (state === "ready") canvas.dataset.engineStart = String(detail.start || "fresh");
        if (state === "ready" && !announcedReady) {
          announce(msg("loadReady", { secs: (detail.pageLoadMs / 1000).toFixed(1) }));
          announcedReady = true;
        }
      }
    },
    // a worker's {type: "progress", stage, percent}
    progress(msg) {
      show(msg.percent);
      box.dataset.stage = String(msg.stage);
    },
  };
}
