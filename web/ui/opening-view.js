// The opening on the page (a game under an opening rule, opening.js): the panel of the
// player's choices (take black, take white, place two more stones; the number of 5th moves
// declared), shown when the rule asks the player to choose; black's offered 5th moves on
// the board; the canvas's data-opening ("<rule> <phase> <human|engine>", or "<rule> done")
// and data-offers ("j8 g8"). The choices go to actions.openingAction; stones go on the
// board by the usual input (actions.humanPlay).

import { cellText } from "../model/coords.js";
import * as Game from "../model/game.js";
import { MAX_OFFERS, optionsOf } from "../model/opening.js";
import { engineMoving } from "../model/state.js";

const $ = (sel) => document.querySelector(sel);

// actions: actions.js (openingAction)
export function setupOpeningView({ actions }) {
  const panel = $("#opening-panel");
  const buttons = { black: $("#op-black"), white: $("#op-white"), two: $("#op-two") };
  const count = $("#op-count");
  count.replaceChildren(...Array.from({ length: MAX_OFFERS }, (_, i) => new Option(String(i + 1), String(i + 1))));
  // a choice made, the panel goes: the keyboard's focus goes on to the board (where the
  // next stone goes), not to the page's top
  const act = (action) => {
    const focused = panel.contains(document.activeElement); // (hidden, it loses the focus)
    actions.openingAction(action);
    if (panel.hidden && focused) $("#board").focus();
  };
  for (const kind of ["black", "white", "two"]) buttons[kind].addEventListener("click", () => act({ kind }));
  $("#op-declare").addEventListener("click", () => act({ kind: "declare", n: Number(count.value) }));

  return {
    // the panel, the board's offers and the canvas's data for state s
    render(s, board, canvas) {
      const { game } = s;
      const opening = Game.openingOf(game);
      const active = Game.inOpening(game);
      const state = opening ? opening.state : null;
      board.offers = active ? state.offers : [];
      canvas.dataset.opening = !opening ? "" : active ? `${state.rule} ${state.phase} ${Game.openingTurn(game)}` : `${state.rule} done`;
      canvas.dataset.offers = board.offers.map(([x, y]) => cellText(x, y, game.size)).join(" ");
      const kinds = active ? optionsOf(state) : [];
      // (with two players the engine's state is nobody's business: they choose on)
      const engineFine = !engineMoving(s) && (!s.engineError || game.twoPlayers);
      const mine = active && Game.openingTurn(game) === "human" && Game.atEnd(game) && engineFine;
      const choosing = mine && !kinds.includes("place") && !kinds.includes("select");
      panel.hidden = !choosing;
      for (const kind of ["black", "white", "two"]) buttons[kind].hidden = !kinds.includes(kind);
      $("#op-declare-row").hidden = !kinds.includes("declare");
    },
  };
}
