// The coach on the page: asks the engine worker for the shown position's threats (one
// cheap "threats" request per position, queued with the engine's jobs: jobs.js aside),
// keeps the answer in the state (state.coach), and shows it: the marks on the board, the
// sentence in the status area, the Display check box, and the sentence said once per
// position to screen readers (only when there is a threat). The words and checks are
// coach.js's.

import { coachCursor, coachMarks, coachOn, coachSentence, coachText, readThreats, seenBy, threatsMessage } from "../model/coach.js";
import { t } from "../model/i18n.js";
import { positionKey, shownOf } from "../model/state.js";

const $ = (sel) => document.querySelector(sel);

// The worker answers in milliseconds; this only catches a stuck one.
export const COACH_DEADLINE_MS = 15000;

// store: the state; ask(message, deadlineMs): sends a request to the engine worker with
// the engine's jobs (jobs.js aside), resolves with its reply.
export function setupCoachView({ store, ask }) {
  const line = $("#coach-line");
  const legend = $("#coach-legend");
  const live = $("#coach-announce");
  const box = $("#opt-coach");
  let asked = null; // the position key asked about (answered or not)
  let spoken = null; // the position key whose sentence was said

  // The coaching of the shown position, or null (coach off, not yet answered, game over).
  function shown(s) {
    if (!coachOn(s.settings, s.game) || shownOf(s.game).pos.over) return null;
    return s.coach && s.coach.key === positionKey(s) ? s.coach.threats : null;
  }

  // The subscriber: a position without an answer is asked about (once) when the coach is
  // on and the engine ready.
  function follow(s) {
    if (!coachOn(s.settings, s.game) || shownOf(s.game).pos.over || s.engine.state !== "ready") return;
    const key = positionKey(s);
    if (asked === key || (s.coach && s.coach.key === key)) return;
    asked = key;
    const { game } = s;
    ask(threatsMessage(game), COACH_DEADLINE_MS).then(
      (reply) => {
        const threats = readThreats(reply, game.size); // throws on an error reply
        // shown to the player: the coach stays on up the ladder (coach.js seenBy)
        store.update((st) => ({ ...st, coach: { key, threats }, settings: seenBy(st.settings, st.game) }));
        speak(store.get());
      },
      (err) => {
        // the worker was replaced meanwhile: ask again once it is ready
        if (asked === key) asked = null;
        console.warn("coach:", err.message);
      },
    ).catch((err) => console.warn("coach: answer refused:", err.message));
  }

  // The sentence said once per position, when there is a threat.
  function speak(s) {
    const threats = shown(s);
    const key = positionKey(s);
    if (!threats || spoken === key) return;
    spoken = key;
    const { text, urgent } = coachSentence(threats, s.game.size);
    if (urgent) live.textContent = text;
  }

  return {
    follow,
    // the marks for the board ([] when none is shown)
    marks(s) {
      const threats = shown(s);
      return threats ? coachMarks(threats) : [];
    },
    // what the keyboard cursor's label says of [x, y] ("" when not marked)
    describe(s, point) {
      const threats = shown(s);
      return threats ? coachCursor(coachMarks(threats), point) : "";
    },
    // the status area's sentence and the Display check box
    render(s) {
      const on = coachOn(s.settings, s.game);
      box.checked = on;
      const threats = shown(s);
      const marks = threats ? coachMarks(threats) : [];
      line.hidden = !threats;
      line.textContent = threats ? coachSentence(threats, s.game.size).text : "";
      legend.hidden = !marks.length;
      legend.textContent = marks.length ? t("coachLegend") : "";
      const canvas = $("#board");
      canvas.dataset.coach = coachText(marks, s.game.size);
      canvas.dataset.coachOn = String(on);
    },
    // nothing asked, nothing said (the page's test reset: a first visit without a reload)
    reset() {
      asked = null;
      spoken = null;
    },
    // the check box: the player's choice, remembered with the settings
    bind() {
      box.addEventListener("change", () => {
        store.update((s) => ({ ...s, settings: { ...s.settings, coach: box.checked } }));
      });
    },
  };
}
