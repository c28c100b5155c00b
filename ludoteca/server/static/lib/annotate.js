// The annotation panel under a move tree: the mark of the move shown (a button for each of
// ! ? !! ?? !? ?!; the pressed one is its mark, pressing it again takes it off) and its comment
// (saved with its button, or when the text box is left changed), and how shapes are drawn.  The
// start has no mark: its comment is the one before the first move.  The page decides what a
// change does (the analysis board keeps it in its tree, a study sends it to the server).
import { $ } from "/static/lib/dom.js";
import { t } from "/static/lib/i18n.js";

export const MARKS = ["!", "?", "!!", "??", "!?", "?!"];

// The marks' meanings, for their buttons' titles.
function meaning(mark) {
  return {
    "!": t("good move"), "?": t("mistake"), "!!": t("brilliant move"),
    "??": t("blunder"), "!?": t("interesting move"), "?!": t("dubious move"),
  }[mark];
}

export class AnnotationPanel {
  // onMark(mark): the mark chosen ("" to take it off); onComment(text): the comment written.
  constructor(onMark, onComment) {
    this.onMark = onMark;
    this.onComment = onComment;
    this.node = null;
    const box = document.createElement("div");
    box.className = "annotate";
    box.id = "annotate";
    const marks = document.createElement("div");
    marks.className = "marks";
    marks.setAttribute("role", "group");
    marks.setAttribute("aria-label", t("Mark the move"));
    this.marks = MARKS.map((mark) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "mark";
      b.textContent = mark;
      b.title = meaning(mark);
      b.dataset.mark = mark;
      b.setAttribute("aria-pressed", "false");
      b.onclick = () => this.node && this.node.move !== null
        && this.onMark(this.node.mark === mark ? "" : mark);
      marks.append(b);
      return b;
    });
    this.text = document.createElement("textarea");
    this.text.id = "comment-text";
    this.text.rows = 3;
    this.text.maxLength = 2000;
    this.label = document.createElement("label");
    this.label.htmlFor = "comment-text";
    const save = document.createElement("button");
    save.type = "button";
    save.id = "comment-save";
    save.textContent = t("Save the comment");
    save.onclick = () => this.save();
    this.text.addEventListener("change", () => this.save());
    const how = document.createElement("p");
    how.className = "small";
    how.textContent = t("Right-click a point to circle it, right-drag to draw an arrow (Shift: red, Alt: blue, both: yellow); again to remove it.");
    box.append(marks, this.label, this.text, save, how);
    $("tree").after(box);
    this.box = box;
  }

  // Show the annotations of `node` (a Tree node) to edit them; the panel is hidden from those
  // who may not (the tree shows them the marks and comments).
  show(node, editable = true) {
    this.node = node;
    this.box.hidden = !editable;
    const start = node.move === null;
    this.label.textContent = start ? t("Comment before the first move") : t("Comment on this move");
    if (document.activeElement !== this.text) this.text.value = node.comment || "";
    this.text.readOnly = !editable;
    for (const b of this.marks) {
      b.setAttribute("aria-pressed", String(!start && node.mark === b.dataset.mark));
      b.disabled = start || !editable;
    }
  }

  save() {
    if (this.node && !this.text.readOnly && this.text.value !== (this.node.comment || "")) {
      this.onComment(this.text.value);
    }
  }
}
