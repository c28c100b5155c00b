// A position of the analysis board made into a puzzle of one's own: the server judges it (the
// solved table, else the engine's search) and keeps it only when its solution is unique; the
// page's notice line then links to it, or says why it is not a puzzle.
import { $, link, notice } from "/static/lib/dom.js";
import { postJSON, reported } from "/static/lib/http.js";
import { t } from "/static/lib/i18n.js";

export async function makePuzzle(game, rules, position) {
  notice(t("Checking that this position has one winning move…"), true);
  const data = await reported(postJSON("/api/puzzles/own", { game, rules, position }));
  if (!data) return;
  notice(t("This position is a puzzle: one winning move, confirmed."), true);
  $("notice").append(" ", link(`/puzzles/${data.id}`, t("Play it (a link to share)")));
}
