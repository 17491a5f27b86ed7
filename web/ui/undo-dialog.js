// The undo dialog of two players on one device: "Take back black's move h8? Both players
// should agree." with Take back / Keep playing. ask() opens it and says what they chose
// (Escape or closing it: keep playing).

import { t } from "../model/i18n.js";

const $ = (sel) => document.querySelector(sel);

export function setupUndoDialog() {
  const dialog = $("#undo-dialog");
  let answer = null; // the pending ask's resolve

  function close(agreed) {
    const done = answer;
    answer = null;
    if (dialog.open) dialog.close();
    if (done) done(agreed);
  }
  $("#undo-yes").addEventListener("click", () => close(true));
  $("#undo-no").addEventListener("click", () => close(false));
  dialog.addEventListener("close", () => close(false));

  return {
    // {color: "black" | "white" as a message (status.js colorLowerMsg), move: "h8"} ->
    // Promise<boolean>
    ask({ color, move }) {
      close(false); // an earlier question left open is a no
      $("#undo-ask").textContent = t("undoAsk", { color, move });
      dialog.showModal();
      return new Promise((resolve) => { answer = resolve; });
    },
  };
}
