// A study's page: its chapters, and the chapter shown on the board with its move tree (the
// analysis board's board and tree, analysis-board.js).  Its websocket (/ws/studies/ID) sends
// the study, each chapter asked for, every change stored (by anyone: the page applies it to
// its tree, and reads the chapter again if it missed one) and where the contributors are; a
// contributor's edits go to the server as changes and come back that way.  A reader who
// follows goes where the contributors go; the others browse freely.
import { TreeBoard } from "/static/lib/analysis-board.js";
import { treeOf } from "/static/lib/board-record.js";
import { $, notice } from "/static/lib/dom.js";
import { ready } from "/static/lib/header.js";
import { deleteJSON, postJSON, reported, whoAmI } from "/static/lib/http.js";
import { list, t, tn } from "/static/lib/i18n.js";
import { Connection } from "/static/lib/socket.js";

const studyId = decodeURIComponent(location.pathname.split("/").pop());
const me = await whoAmI();

const study = {
  view: null,      // the study as the server last sent it (StudyView)
  chapter: null,   // the chapter shown: its id, name, rule set, start, version
  target: null,    // the path to show once the chapter asked for arrives
  pending: null,   // a move this page asked for: its path, to show it once stored
  told: "",        // where this page last told it was (a contributor's)
  drawn: false,
};

const board = new TreeBoard({
  analyse: () => false,
  editable: () => Boolean(study.view && study.view.editor),
  title: (message) => { document.title = `Ludoteca — ${t("study")} · ${message.title}`; },
  shown: () => {
    tellWhere();
    if (!study.drawn) { study.drawn = true; ready(); }
  },
});

const path = (id) => board.tree.path(id);
const change = (body) => {
  if (!socket.send({ type: "change", chapter: study.chapter.id, change: body })) {
    notice(t("Not connected; reload the page."));
  }
};
board.edits = {
  move(parent, notation) {
    study.pending = [...path(parent), notation];
    change({ op: "move", path: path(parent), move: notation });
  },
  promote(id) { change({ op: "promote", path: path(id) }); },
  remove(id) { change({ op: "delete", path: path(id) }); },
  comment(id, text) { change({ op: "comment", path: path(id), comment: text }); },
  mark(id, mark) { change({ op: "mark", path: path(id), mark }); },
  shapes(id, shapes) { change({ op: "shapes", path: path(id), shapes }); },
};

const following = () => $("follow").checked;
const samePath = (a, b) => a.length === b.length && a.every((m, i) => m === b[i]);

// A contributor tells the others where it is (once per place).
function tellWhere() {
  if (!study.view || !study.view.editor || !study.chapter) return;
  const where = JSON.stringify([study.chapter.id, path(board.current)]);
  if (where === study.told) return;
  study.told = where;
  socket.send({ type: "where", chapter: study.chapter.id, path: path(board.current) });
}

// Ask for chapter `id` whole, to show `target` (a path) in it once it arrives.
function open(id, target = []) {
  study.target = target;
  socket.send({ type: "open", chapter: id });
}

// The node of `target` in the tree shown, or the deepest of its beginnings that is there.
function nodeAt(target) {
  for (let n = target.length; n >= 0; n--) {
    const id = board.tree.idOf(target.slice(0, n));
    if (id !== undefined) return id;
  }
  return board.tree.root;
}

function onStudy(view) {
  if (!study.view) $("follow").checked = !view.editor;  // a reader follows, a contributor leads
  study.view = view;
  $("title").textContent = view.title;
  $("about").textContent = view.contributors.length
    ? t("by %(owner)s, with %(names)s", { owner: view.owner, names: list(view.contributors) })
    : t("by %(owner)s", { owner: view.owner });
  /** @type {(selector: string, shown: boolean) => void} */
  const only = (selector, shown) => {
    for (const element of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(selector))) element.hidden = !shown;
  };
  only(".for-editors", view.editor);
  only(".for-owner", view.owned);
  if (view.owned && document.activeElement?.closest("#settings") == null) {
    $("settings-title-input").value = view.title;
    $("settings-visibility").value = view.visibility;
    $("settings-contributors").value = view.contributors.join(", ");
  }
  $("export-study").href = `/api/studies/${encodeURIComponent(studyId)}/record`;
  // (the first chapter is asked for by the socket's greeting)
  const shown = study.chapter && view.chapters.find((c) => c.id === study.chapter.id);
  if (study.chapter && !shown) open(view.chapters[0].id);
  else if (shown && shown.version !== study.chapter.version) open(shown.id, path(board.current));
  showChapters();
}

function showChapters() {
  const chapters = $("chapters");
  chapters.replaceChildren();
  for (const chapter of study.view.chapters) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "link chapter";
    button.textContent = chapter.name;
    button.title = chapter.rules_title;
    button.dataset.chapter = chapter.id;
    if (study.chapter && chapter.id === study.chapter.id) {
      button.classList.add("current");
      button.setAttribute("aria-current", "true");
    }
    button.onclick = () => open(chapter.id);
    item.append(button);
    chapters.append(item);
  }
}

function onChapter(chapter) {
  const same = study.chapter && study.chapter.id === chapter.id;
  study.chapter = chapter;
  study.told = "";
  const target = study.target ?? (same ? path(board.current) : []);
  study.target = null;
  board.game = chapter.game;
  board.rules = chapter.rules;
  board.start = chapter.start;
  board.tree = treeOf(chapter.tree);
  if (document.activeElement !== $("chapter-name")) $("chapter-name").value = chapter.name;
  $("chapter-title").textContent = `${chapter.name} · ${chapter.rules_title}`;
  $("export-chapter").href = `/api/studies/${encodeURIComponent(studyId)}/chapters/${encodeURIComponent(chapter.id)}/record`;
  showChapters();
  board.go(nodeAt(target));
}

function onChange(message) {
  if (!study.chapter || message.chapter !== study.chapter.id) return;
  if (message.version !== study.chapter.version + 1) { open(study.chapter.id, path(board.current)); return; }
  const shownPath = path(board.current);
  const at = board.tree.apply(message.change);
  if (at === undefined) { open(study.chapter.id, shownPath); return; }
  study.chapter.version = message.version;
  const mine = study.pending && message.change.op === "move" && samePath(study.pending, message.path);
  if (mine) study.pending = null;
  if (mine || (following() && message.by !== me.name)) board.go(board.tree.idOf(message.path) ?? at);
  else if (!board.tree.nodes.has(board.current)) board.go(nodeAt(shownPath));
  else board.draw();
}

function onPosition(message) {
  if (!following() || message.by === me.name) return;
  if (!study.chapter || message.chapter !== study.chapter.id) { open(message.chapter, message.path); return; }
  const id = board.tree.idOf(message.path);
  if (id !== undefined && id !== board.current) board.go(id);
}

const socket = new Connection(`/ws/studies/${encodeURIComponent(studyId)}`, {
  // (on each opening, again: the chapter shown, else the first, is read afresh)
  hello: () => ({ type: "open", chapter: study.chapter ? study.chapter.id : "" }),
  onMessage: (message) => {
    if (message.type === "study") onStudy(message.study);
    else if (message.type === "chapter") onChapter(message.chapter);
    else if (message.type === "change") onChange(message);
    else if (message.type === "position") onPosition(message);
    else if (message.type === "error") notice(message.message);
  },
  onClose: (code) => {
    if (code !== 1008) return true;
    $("status").textContent = t("This study is gone or no longer open to you; reload the page.");
    return false;
  },
});

// --- the forms of the editors and the owner ------------------------------------------------
const api = `/api/studies/${encodeURIComponent(studyId)}`;

$("chapter-edit").addEventListener("submit", async (event) => {
  event.preventDefault();
  await reported(postJSON(`${api}/chapters/${encodeURIComponent(study.chapter.id)}`, { name: $("chapter-name").value }));
});

$("chapter-delete").onclick = async () => {
  if (!confirm(t("Delete the chapter “%(name)s”?", { name: study.chapter.name }))) return;
  await reported(deleteJSON(`${api}/chapters/${encodeURIComponent(study.chapter.id)}`));
};

$("new-chapter").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = /** @type {HTMLFormElement} */ ($("new-chapter"));
  const data = new FormData(form);
  const value = (key) => String(data.get(key) || "").trim() || null;
  const made = await reported(postJSON(`${api}/chapters`, {
    name: value("name") || "", game: value("game"), rules: value("rules"),
    position: value("position"), game_id: value("game_id"), record: value("record"),
  }));
  if (made) {
    form.reset();
    $("new-chapter-game").value = $("board-area").dataset.defaultGame;
    open(made.id);
  }
});

$("import").addEventListener("submit", async (event) => {
  event.preventDefault();
  const made = await reported(postJSON(`${api}/import`, { records: $("import-text").value }));
  if (made) {
    $("import-text").value = "";
    notice(tn("%(num)s chapter added.", "%(num)s chapters added.", made.length), true);
    open(made[0].id);
  }
});

$("settings").addEventListener("submit", async (event) => {
  event.preventDefault();
  const names = $("settings-contributors").value.split(",").map((n) => n.trim()).filter(Boolean);
  const saved = await reported(postJSON(api, { title: $("settings-title-input").value, visibility: $("settings-visibility").value }));
  if (saved && await reported(postJSON(`${api}/contributors`, { names }))) notice(t("Saved."), true);
});

board.controls();
// (the analysis socket may open after the chapter arrives: the node shown is asked for then)
board.hooks.opened = () => { if (study.chapter) board.go(board.current); };
board.connect();
