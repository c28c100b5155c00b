// Drawing the game page from the state: the board with its marks, the status, the players, the
// panels and the move list; and looking back at earlier positions (←/→/Home/End or a click on a
// move), while the game goes on (moves are only made on the position as it stands).
import { showChatOptions } from "/static/lib/chat.js";
import { $ } from "/static/lib/dom.js";
import { effectMarks } from "/static/lib/effects.js";
import { underWay } from "/static/lib/gesture.js";
import { getText, postJSON, reported } from "/static/lib/http.js";
import { afterMove, drawMoves } from "/static/lib/moves.js";
import { showPanels } from "/static/lib/panels.js";
import { showPlayers } from "/static/lib/players.js";
import { showStatus } from "/static/lib/status.js";
import { gameId, mine, state } from "/static/lib/state.js";
import { t } from "/static/lib/i18n.js";

// The marks of the position as it stands: the last move, the points touched and where they can
// go (before any touch, the men a turn that only takes a man may take), the premove, the hint,
// the effects; and the pieces drawn (the move under way shows the man where it went; a capture
// chain under way fades the men it takes: gesture.js's underWay).
function livePosition() {
  const { view, prefix } = state;
  const marks = { last: view.last || [], selected: prefix.slice(), targets: [], premove: state.premove,
                  hint: state.hint ? state.hint.gesture : [], jumped: [], ...effectMarks() };
  if (mine()) return underWay(view, view.board.styles, prefix, marks);
  return { pieces: view.pieces, marks };
}

// Draw everything.  pending: the move just sent, while its answer is awaited.
export function render(pending = null) {
  const { view, board, viewing, positions } = state;
  board.flipped = state.flipped;
  if (viewing !== null && positions) {
    const shown = positions[viewing];
    board.draw(shown.pieces, { last: shown.last || [], marked: shown.marked });
    if (state.arrows && state.arrows.ply === viewing) board.arrows(state.arrows.list);
    const where = afterMove(view.first_ply, viewing, shown.move);
    $("status").textContent = t("Looking back: move %(shown)s of %(ply)s (%(where)s). → or End returns to the game.", { shown: viewing, ply: view.ply, where });
  } else {
    const { pieces, marks } = livePosition();
    board.draw(pieces, marks);
    showStatus(pending);
    showPlayers();
  }
  showPanels();
  showChatOptions();
  renderMoves();
}

function renderMoves() {
  const { view, viewing } = state;
  const list = $("moves");
  const marked = state.report ? state.report.marks() : new Map();
  drawMoves(list, view.moves, view.first_ply, viewing === null ? view.moves.length : viewing, browse,
    (i) => {
      const mistake = marked.get(i);
      return mistake ? { judgement: mistake.judgement, best: state.report.data.plies[i].best } : null;
    });
  if (viewing === null) list.scrollTop = list.scrollHeight;
}

// Show the position after `target` plies (the game as it stands from its last ply on).
export async function browse(target) {
  const view = state.view;
  if (!view) return;
  const ply = Math.max(0, Math.min(view.ply, target));
  if (ply === view.ply) { state.viewing = null; render(); return; }
  if (!state.positions || state.positions.length <= view.ply) {
    const data = await reported(getText(`/api/games/${encodeURIComponent(gameId)}/record`)
      .then((text) => postJSON("/api/records/replay", { text })));
    if (!data) return;
    state.positions = data.positions;
  }
  state.viewing = Math.min(ply, state.positions.length - 1);
  state.prefix = [];
  render();
}
