// The thinking panel: the engine's last report about the shown position (score, depth,
// speed, source, best line), the evaluation bar, the engine's last move, the check box
// "Show best line on the board", and the best line drawn on the board while the pointer
// or focus is on the panel (or always with the check box). Reads the state (state.js);
// view.js calls render and asks for the line to draw (bestLine).

import { cellText } from "../model/coords.js";
import * as Game from "../model/game.js";
import { t } from "../model/i18n.js";
import { currentInfo, positionKey } from "../model/state.js";
import { scoreLine, speedText } from "../model/status.js";

const $ = (sel) => document.querySelector(sel);
const FIELDS = ["#think-score", "#think-depth", "#think-nps", "#think-source", "#think-pv"];
const LINE_MAX = 12; // stones of the best line drawn

// store: the page's state (state.js); onHover(): the pointer or focus came onto or left
// the panel (the page re-renders: the line on the board comes or goes).
export function setupThinkView({ store, onHover }) {
  const panel = $("#think-panel");
  const bar = $("#eval-bar");
  const fill = $("#eval-fill");
  const showPv = $("#show-pv");
  let hover = false; // pointer or focus on the panel

  function setHover(on) {
    if (hover === on) return;
    hover = on;
    onHover();
  }
  panel.addEventListener("mouseenter", () => setHover(true));
  panel.addEventListener("mouseleave", () => setHover(panel.contains(document.activeElement)));
  panel.addEventListener("focusin", () => setHover(true));
  panel.addEventListener("focusout", () => setHover(false));
  showPv.addEventListener("change", () => {
    store.update((s) => ({ ...s, settings: { ...s.settings, showPv: showPv.checked } }));
  });

  function render(s) {
    const info = currentInfo(s);
    if (!info) {
      for (const id of FIELDS) $(id).textContent = "–";
      fill.style.width = "50%";
      bar.setAttribute("aria-label", t("evalBar", { text: "–" }));
    } else {
      const cell = ([x, y]) => cellText(x, y, s.game.size);
      const sc = scoreLine(info);
      $("#think-score").textContent = sc.text;
      $("#think-depth").textContent = info.depth ? String(info.depth) : "–";
      $("#think-nps").textContent = info.nps ? speedText(info.nps) : "–";
      $("#think-source").textContent = info.source ? t("src_" + info.source) : (s.job ? "…" : "–");
      $("#think-pv").textContent = (info.pv || []).map(cell).join(" ") || "–";
      fill.style.width = `${Math.round(sc.black * 1000) / 10}%`;
      bar.setAttribute("aria-label", t("evalBar", { text: sc.text }));
    }
    $("#think-last").textContent = s.lastEngine ? t("playedIn", s.lastEngine) : "–";
    showPv.checked = s.settings.showPv;
  }

  // The best line from the shown position as board overlay entries ({x, y, color, label}),
  // when it is to be drawn; else [].
  function bestLine(s) {
    const info = currentInfo(s);
    if (!info || !(s.settings.showPv || hover)) return [];
    const offset = info.keys.indexOf(positionKey(s));
    const pv = (info.pv || []).slice(offset);
    const first = Game.sideToMove(s.game);
    return pv.slice(0, LINE_MAX).map(([x, y], i) => ({ x, y, color: i % 2 === 0 ? first : 3 - first, label: i + 1 }));
  }

  return {
    render,
    bestLine,
    // does a new report change the board (a line or marks may be drawn)?
    onBoard: (s) => s.analysing || s.settings.showPv || hover,
  };
}
