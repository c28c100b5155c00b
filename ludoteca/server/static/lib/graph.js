// The evaluation graph of a game report: White's expected score after each ply (one point a
// position, the start first), White's part filled from the bottom, the marked moves dotted, the
// position shown ringed; a click (or Enter on a point) jumps to that position.
import { svgElement as el } from "/static/lib/dom.js";
import { t } from "/static/lib/i18n.js";
import { judgementName } from "/static/lib/moves.js";

// two to one: the swings of a game read in a side panel's width (a flatter graph was a strip)
const WIDTH = 400;
const HEIGHT = 200;

// svg: an <svg> element; plies: the report's positions ({share, text}); marks: Map index →
// judgement of the move made from that position; current: the position shown (or null);
// pick(index): called with the position clicked.
export function drawGraph(svg, plies, marks, current, pick) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
  svg.setAttribute("role", "group");
  const step = plies.length > 1 ? WIDTH / (plies.length - 1) : 0;
  const at = (i) => [i * step, HEIGHT * (1 - plies[i].share)];
  const line = plies.map((_, i) => at(i).join(",")).join(" ");
  el("polygon", { points: `0,${HEIGHT} ${line} ${WIDTH},${HEIGHT}`, class: "white-part" }, svg);
  el("line", { x1: 0, y1: HEIGHT / 2, x2: WIDTH, y2: HEIGHT / 2, class: "middle" }, svg);
  el("polyline", { points: line, class: "curve" }, svg);
  if (current !== null && plies[current]) {
    const [x] = at(current);
    el("line", { x1: x, y1: 0, x2: x, y2: HEIGHT, class: "now" }, svg);
  }
  plies.forEach((ply, i) => {
    const [x, y] = at(i);
    const mark = marks.get(i);
    const g = el("g", { class: `point ${mark || ""}`.trim(), "data-ply": i, tabindex: "-1",
                        role: "button", "aria-label": mark ? t("position %(ply)s: %(text)s, then a %(mark)s", { ply: i, text: ply.text, mark: judgementName(mark) })
                          : t("position %(ply)s: %(text)s", { ply: i, text: ply.text }) }, svg);
    el("rect", { x: x - step / 2, y: 0, width: Math.max(step, 4), height: HEIGHT, class: "hit" }, g);
    if (mark) el("circle", { cx: x, cy: y, r: 5, class: "dot" }, g);
    g.onclick = () => pick(i);
    g.onkeydown = (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); pick(i); } };
  });
}
