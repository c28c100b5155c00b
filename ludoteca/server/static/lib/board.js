// The one board component: draws any game from its board description (points, coordinates,
// lines, cells and their colours) and the pieces on each point.  It knows no rules: the page
// says which points are selected, which are targets and what the last move touched.
import { colourName, svgElement as el } from "/static/lib/dom.js";
import { t } from "/static/lib/i18n.js";

const UNIT = 100;
const MARGIN = 100;

// A piece token's name for people, from the game's styles: "white man", "black King".
export function pieceName(board, token) {
  const style = token && board.styles[token];
  if (!style) return t("empty");
  return t("%(colour)s %(piece)s", { colour: colourName(style.side), piece: style.name });
}

export class Board {
  // svg: an <svg> element; board: the description from the server;
  // onPoint(i): called when a point is touched (click, tap, drag end, Enter or Space).
  constructor(svg, board, onPoint = null) {
    this.svg = svg;
    this.board = board;
    this.onPoint = onPoint;
    this.flipped = false;
    this.current = null;  // the point that holds the board's one Tab stop (roving tabindex)
    const xs = board.coords.map((c) => c[0]);
    const ys = board.coords.map((c) => c[1]);
    this.maxX = Math.max(...xs);
    this.maxY = Math.max(...ys);
    // on a phone a board of cells leaves no margin: coordinates go inside the edge cells,
    // so the cells are as large as the screen allows
    this.inset = Boolean(board.cells) && window.matchMedia("(max-width: 600px)").matches;
    this.margin = this.inset ? UNIT / 2 + 3 : MARGIN;
    const width = this.maxX * UNIT + 2 * this.margin;
    const height = this.maxY * UNIT + 2 * this.margin;
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.classList.add("board", board.cells ? "cells" : "points");
    svg.setAttribute("role", "group");
    if (onPoint) this._listen();
  }

  xy(i) {
    let [x, y] = this.board.coords[i];
    if (this.flipped) { x = this.maxX - x; y = this.maxY - y; }
    return [this.margin + x * UNIT, this.margin + (this.maxY - y) * UNIT];
  }

  // pieces: token per point; marks: {selected: [i], targets: [{point, kind}], last: [[kind, i]],
  // changed: [i] (converted just now: flashes), converted: [i] (converted by a recent move:
  // ringed), removed: [{point, token}] (captured), hint: [[kind, i]],
  // jumped: [i] (pieces a capture chain under way takes), premove: [i] (points of a premove),
  // marked: [i] (empty points where no piece may be put for now: crossed out)}
  draw(pieces, marks = {}) {
    const svg = this.svg;
    // a redraw replaces the points: keep the keyboard focus on the same point
    const active = document.activeElement;
    const focused = active && svg.contains(active) ? active.getAttribute("data-point") : null;
    if (this.current === null) this.current = this._firstStop(pieces, marks);
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const board = this.board;
    const ground = el("g", { class: "ground" }, svg);
    if (board.cells) {
      board.coords.forEach((_, i) => {
        const [cx, cy] = this.xy(i);
        el("rect", { x: cx - UNIT / 2, y: cy - UNIT / 2, width: UNIT, height: UNIT,
                     fill: board.fills[i], class: "cell" }, ground);
      });
    } else {
      for (const [a, b] of board.lines) {
        const [x1, y1] = this.xy(a);
        const [x2, y2] = this.xy(b);
        el("line", { x1, y1, x2, y2, class: "line" }, ground);
      }
    }
    if (!this.inset) this._labels(ground);
    const last = new Set((marks.last || []).map((t) => t[1]));
    const hint = new Set((marks.hint || []).map((t) => t[1]));
    const selected = new Set(marks.selected || []);
    const changed = new Set(marks.changed || []);
    const converted = new Set(marks.converted || []);
    const premove = new Set(marks.premove || []);
    const removed = new Map((marks.removed || []).map((t) => [t.point, t.token]));
    const jumped = new Set(marks.jumped || []);
    const marked = new Set(marks.marked || []);
    const targets = new Map((marks.targets || []).map((t) => [t.point, t.kind]));
    board.points.forEach((name, i) => {
      const [cx, cy] = this.xy(i);
      const token = pieces[i] || "";
      const g = el("g", { class: "pt", "data-point": i, "data-name": name,
                          "data-piece": token }, svg);
      const target = targets.get(i);
      let label = `${name}, ${pieceName(board, token)}`;
      if (target === "take") label += t(", can be taken");
      else if (target) label += t(", possible move");
      if (marked.has(i)) label += t(", marked: no man may be placed here");
      if (selected.has(i)) label += t(", selected");
      if (premove.has(i)) label += t(", in your premove");
      if (token && converted.has(i)) label += t(", converted by a recent move");
      g.setAttribute("aria-label", label);
      if (this.onPoint) {  // one Tab stop for the whole board; the arrows move within it
        g.setAttribute("tabindex", i === this.current ? "0" : "-1");
        g.setAttribute("role", "button");
      } else {
        g.setAttribute("role", "img");  // a picture of the point, read by screen readers
      }
      const r = board.cells ? UNIT / 2 : UNIT * 0.42;
      el(board.cells ? "rect" : "circle", board.cells
        ? { x: cx - r, y: cy - r, width: 2 * r, height: 2 * r, class: "hit" }
        : { cx, cy, r, class: "hit" }, g);
      if (last.has(i)) g.classList.add("last");
      if (hint.has(i)) g.classList.add("hinted");
      if ((last.has(i) || hint.has(i)) && board.cells) {
        // on coloured cells a tint would read as another band: a frame of two contrasting
        // outlines (dark outside, light inside) shows on every band
        for (const [inset, kind] of /** @type {[number, string][]} */ ([[5, "glow outer"], [12, "glow inner"]])) {
          el("rect", { x: cx - r + inset, y: cy - r + inset, width: 2 * (r - inset),
                       height: 2 * (r - inset), class: kind }, g);
        }
      } else if (last.has(i) || hint.has(i)) {
        el("circle", { cx, cy, r: r * 0.95, class: "glow" }, g);
      }
      if (!board.cells) el("circle", { cx, cy, r: 9, class: "spot" }, g);
      if (marked.has(i)) this._cross(g, cx, cy);
      if (token) this._piece(g, token, cx, cy, changed.has(i) ? "changed" : jumped.has(i) ? "jumped" : "");
      else if (removed.has(i)) this._piece(g, removed.get(i), cx, cy, "removed");
      if (token && converted.has(i)) {
        g.classList.add("converted");
        el("circle", { cx, cy, r: UNIT * 0.2, class: "ring converted" }, g);
      }
      if (selected.has(i)) el("circle", { cx, cy, r: UNIT * 0.4, class: "ring selected" }, g);
      if (premove.has(i)) el("circle", { cx, cy, r: UNIT * 0.4, class: "ring premove" }, g);
      if (target === "take") el("circle", { cx, cy, r: UNIT * 0.4, class: "ring take" }, g);
      else if (target) el("circle", { cx, cy, r: UNIT * 0.13, class: "dot" }, g);
    });
    if (this.inset) this._labels(el("g", { class: "coords" }, svg));  // over the pieces
    if (focused !== null) this._rove(Number(focused));
  }

  // Draw arrows over the board as last drawn (the next draw clears them): each [from, to, kind]
  // (kind: a class, e.g. "best"); from === to rings the point (a man placed there).
  arrows(list) {
    const layer = el("g", { class: "arrows", "aria-hidden": "true" }, this.svg);
    for (const [from, to, kind = "best"] of list) {
      const [x1, y1] = this.xy(from);
      const [x2, y2] = this.xy(to);
      const length = Math.hypot(x2 - x1, y2 - y1);
      if (!length) {
        el("circle", { cx: x1, cy: y1, r: UNIT * 0.45, class: `arrow ${kind}` }, layer);
        continue;
      }
      const [ux, uy] = [(x2 - x1) / length, (y2 - y1) / length];
      const [tx, ty] = [x2 - ux * UNIT * 0.3, y2 - uy * UNIT * 0.3];  // the head's base
      el("line", { x1: x1 + ux * UNIT * 0.2, y1: y1 + uy * UNIT * 0.2, x2: tx, y2: ty,
                   class: `arrow ${kind}` }, layer);
      const [px, py] = [-uy * UNIT * 0.18, ux * UNIT * 0.18];
      el("polygon", { points: `${x2},${y2} ${tx + px},${ty + py} ${tx - px},${ty - py}`,
                      class: `arrow-head ${kind}` }, layer);
    }
  }

  // The point that holds the Tab stop before any is chosen: the first selected, else the first
  // with a piece of the side shown at the bottom, else the first point.
  _firstStop(pieces, marks) {
    if (marks.selected && marks.selected.length) return marks.selected[0];
    const side = this.flipped ? "black" : "white";
    const own = pieces.findIndex((t) => t && this.board.styles[t] && this.board.styles[t].side === side);
    return own >= 0 ? own : 0;
  }

  // Give the Tab stop to point `p` (and the focus, when `focus`).
  _rove(p, focus = true) {
    const svg = this.svg;
    const old = svg.querySelector('.pt[tabindex="0"]');
    if (old) old.setAttribute("tabindex", "-1");
    this.current = p;
    const node = svg.querySelector(`.pt[data-point="${p}"]`);
    if (!node) return;
    node.setAttribute("tabindex", "0");
    if (focus) node.focus();
  }

  // A marked point: a ringed cross in the board's line colour.
  _cross(g, cx, cy) {
    g.classList.add("marked");
    const cross = el("g", { class: "cross" }, g);
    const d = UNIT * 0.2;
    el("circle", { cx, cy, r: UNIT * 0.3 }, cross);
    el("line", { x1: cx - d, y1: cy - d, x2: cx + d, y2: cy + d }, cross);
    el("line", { x1: cx - d, y1: cy + d, x2: cx + d, y2: cy - d }, cross);
  }

  _piece(g, token, cx, cy, effect) {
    const style = this.board.styles[token];
    const piece = el("g", { class: `piece ${style.side} ${effect}`.trim() }, g);
    if (style.shape === "king") {
      el("circle", { cx, cy, r: UNIT * 0.4, class: "king-disc" }, piece);
      const crown = el("text", { x: cx, y: cy + UNIT * 0.16, class: "crown" }, piece);
      crown.textContent = "♚";
      return;
    }
    el("circle", { cx, cy, r: UNIT * (this.board.cells ? 0.36 : 0.33), class: "stone" }, piece);
    if (style.ring) el("circle", { cx, cy, r: UNIT * 0.2, class: "promoted" }, piece);
  }

  _labels(parent) {
    const files = new Map();
    const ranks = new Map();
    this.board.points.forEach((name, i) => {
      const m = /^([a-zA-Z]+)(\d+)$/.exec(name);
      if (!m) return;
      const [x, y] = this.xy(i);
      files.set(m[1], x);
      ranks.set(m[2], y);
    });
    const bottomRow = this.margin + this.maxY * UNIT;
    if (this.inset) {  // in the corners of the bottom row and the left column
      for (const [text, x] of files) {
        el("text", { x: x + UNIT / 2 - 5, y: bottomRow + UNIT / 2 - 5, class: "coord inset end" },
           parent).textContent = text;
      }
      for (const [text, y] of ranks) {
        el("text", { x: this.margin - UNIT / 2 + 5, y: y - UNIT / 2 + 24, class: "coord inset start" },
           parent).textContent = text;
      }
      return;
    }
    const bottom = bottomRow + (this.board.cells ? UNIT / 2 + 28 : 60);
    const left = this.board.cells ? this.margin - UNIT / 2 - 24 : this.margin - 62;
    for (const [text, x] of files) {
      el("text", { x, y: bottom + 6, class: "coord" }, parent).textContent = text;
    }
    for (const [text, y] of ranks) {
      el("text", { x: left, y: y + 8, class: "coord" }, parent).textContent = text;
    }
  }

  _listen() {
    const svg = this.svg;
    let drag = null;
    const pointOf = (node) => {
      const g = node && node.closest ? node.closest(".pt") : null;
      return g && svg.contains(g) ? Number(g.dataset.point) : null;
    };
    svg.addEventListener("pointerdown", (event) => {
      const p = pointOf(event.target);
      if (p === null || event.button > 0) return;
      event.preventDefault();
      drag = { from: p, x: event.clientX, y: event.clientY, ghost: null };
      this.onPoint(p);
    });
    window.addEventListener("pointermove", (event) => {
      if (!drag) return;
      if (!drag.ghost && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) > 6) {
        const source = svg.querySelector(`.pt[data-point="${drag.from}"] .piece`);
        if (source) {
          drag.ghost = source.cloneNode(true);
          drag.ghost.classList.add("ghost");
          svg.appendChild(drag.ghost);
        }
      }
      if (drag.ghost) {
        const ctm = svg.getScreenCTM().inverse();
        const pt = new DOMPoint(event.clientX, event.clientY).matrixTransform(ctm);
        const [fx, fy] = this.xy(drag.from);
        drag.ghost.setAttribute("transform", `translate(${pt.x - fx} ${pt.y - fy})`);
      }
    });
    window.addEventListener("pointerup", (event) => {
      if (!drag) return;
      const from = drag.from;
      if (drag.ghost) drag.ghost.remove();
      drag = null;
      const p = pointOf(document.elementFromPoint(event.clientX, event.clientY));
      if (p !== null && p !== from) this.onPoint(p);
    });
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    svg.addEventListener("keydown", (event) => {
      const p = pointOf(event.target);
      if (p === null) return;
      if (steps[event.key]) {  // move the focus to the nearest point that way (as drawn)
        event.preventDefault();
        const [dx, dy] = steps[event.key];
        const [x0, y0] = this.xy(p);
        let best = null;
        this.board.points.forEach((_, q) => {
          const [x, y] = this.xy(q);
          const along = (x - x0) * dx + (y - y0) * dy;
          if (along <= 0) return;
          const score = along + 2 * Math.abs((x - x0) * dy) + 2 * Math.abs((y - y0) * dx);
          if (!best || score < best[0]) best = [score, q];
        });
        if (best) this._rove(best[1]);
        return;
      }
      if (event.key !== "Enter" && event.key !== " ") return;
      event.preventDefault();
      this.onPoint(p);
      this._rove(p);
    });
    // a point focused by a click or by the page takes the Tab stop
    svg.addEventListener("focusin", (event) => {
      const p = pointOf(event.target);
      if (p !== null && p !== this.current) this._rove(p, false);
    });
  }
}
