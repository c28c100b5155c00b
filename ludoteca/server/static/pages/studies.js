// The studies page: the reader's studies and the latest public ones, and the form that makes a
// new one (signed in).
import { $, link } from "/static/lib/dom.js";
import { ready } from "/static/lib/header.js";
import { getJSON, postJSON, reported, whoAmI } from "/static/lib/http.js";
import { moment, t, tn } from "/static/lib/i18n.js";

/** @typedef {{id: string, title: string, visibility: string, owner: string, chapters: number, updated: string}} StudyBrief */

/** The words for who may see a study.  @param {string} visibility */
export function visibilityName(visibility) {
  return visibility === "public" ? t("public") : visibility === "unlisted" ? t("unlisted") : t("private");
}

/** @param {HTMLElement} list  @param {HTMLElement} none  @param {StudyBrief[]} studies */
function show(list, none, studies) {
  list.replaceChildren();
  none.hidden = studies.length > 0;
  for (const study of studies) {
    const item = document.createElement("li");
    const about = document.createElement("span");
    about.className = "small";
    about.textContent = ` — ${t("by %(owner)s", { owner: study.owner })}, ${tn("%(num)s chapter", "%(num)s chapters", study.chapters)}, ${visibilityName(study.visibility)}, ${moment(new Date(study.updated))}`;
    item.append(link(`/study/${encodeURIComponent(study.id)}`, study.title), about);
    list.append(item);
  }
}

const me = await whoAmI();
$("create-panel").hidden = !me.name;
$("sign-in-first").hidden = Boolean(me.name);
const found = await reported(getJSON("/api/studies"));
if (found) {
  show($("mine"), $("mine-none"), found.mine);
  show($("public"), $("public-none"), found.public);
}
ready();

$("create-form").addEventListener("submit", async (/** @type {Event} */ event) => {
  event.preventDefault();
  const body = {
    title: $("study-title").value,
    visibility: $("study-visibility").value,
    chapter: { game: $("study-game").value.trim() || null },
  };
  /** @type {{id: string, url: string} | null} */
  const made = await reported(postJSON("/api/studies", body));
  if (made) location.assign(made.url);
});
