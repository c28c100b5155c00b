// Every request the pages make to the server goes through here (ESLint forbids fetch()
// elsewhere).  The helpers resolve to the answer's body, or reject with an HttpError whose
// message is a sentence for the user: the server's own (its refusals answer {"error": ...} in
// the page's language; see ludoteca/server/app.py) or, with no network or no JSON answer, one
// translated here.  State-changing requests repeat the session's CSRF token, as the server asks
// of every request made with the session cookie.  A page shows a failure with reported() (in its
// notice line, or a box of its own) or drops it with quiet() (polls that simply try again).
import { notice } from "/static/lib/dom.js";
import { t } from "/static/lib/i18n.js";

// A request that failed: `status` is the HTTP status (0: no network).
export class HttpError extends Error {
  /** @param {string} message  @param {number} status */
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

/** @type {import("/static/lib/types.js").Me | null} */
let me = null;

// The session: {name, csrf}, both null when signed out or offline; asked once per page.
export async function whoAmI() {
  if (!me) me = await quiet(getJSON("/api/me")) || { name: null, csrf: null };
  return me;
}

/**
 * The answer to `method` `path` (with `body` as JSON, if any, and the `extra` headers, such as
 * a seat's token): its Response once it is a success, else an HttpError.
 * @param {string} method  @param {string} path  @param {unknown} [body]
 * @param {Record<string, string>} [extra]
 */
async function send(method, path, body = undefined, extra = {}) {
  /** @type {Record<string, string>} */
  const headers = { ...extra };
  if (method !== "GET") {
    const { csrf } = await whoAmI();
    if (csrf) headers["X-CSRF-Token"] = csrf;
  }
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let answer;
  try {
    answer = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new HttpError(t("Not connected; reload the page."), 0);
  }
  if (answer.ok) return answer;
  const refusal = await answer.json().catch(() => null);
  const sentence = refusal && (refusal.error || (typeof refusal.detail === "string" && refusal.detail));
  // (a server or proxy too busy to answer in time sends no JSON: the request may be sent again)
  throw new HttpError(sentence || t("The server could not answer in time; try again."), answer.status);
}

/**
 * The JSON of a successful answer (one that is not JSON is a failure too).
 * @param {Response} answer
 */
async function json(answer) {
  try {
    return await answer.json();
  } catch {
    throw new HttpError(t("The server could not answer in time; try again."), answer.status);
  }
}

// The typed helpers: `T` is the answer's type (see types.js), given by the caller's JSDoc.
/** @template T  @param {string} path  @param {Record<string, string>} [headers]  @returns {Promise<T>} */
export const getJSON = async (path, headers = {}) => json(await send("GET", path, undefined, headers));
/** @template T  @param {string} path  @param {unknown} [body]  @returns {Promise<T>} */
export const postJSON = async (path, body = undefined) => json(await send("POST", path, body));
/** @template T  @param {string} path  @param {unknown} body  @returns {Promise<T>} */
export const putJSON = async (path, body) => json(await send("PUT", path, body));
/** @template T  @param {string} path  @returns {Promise<T>} */
export const deleteJSON = async (path) => json(await send("DELETE", path));
/** @param {string} path  @returns {Promise<string>} */
export const getText = async (path) => (await send("GET", path)).text();

/**
 * The request's answer, or its failure (returned, not thrown: for a caller that decides itself
 * whether to show it).  Anything but an HttpError is a bug, thrown on.
 * @template T  @param {Promise<T>} request  @returns {Promise<T | HttpError>}
 */
export async function settled(request) {
  try {
    return await request;
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
}

/**
 * The request's answer, or null once its failure is shown to the user: in `box` (shown while
 * it has a text; by default the page's notice line, #notice).
 * @template T  @param {Promise<T>} request  @param {HTMLElement} [box]  @returns {Promise<T | null>}
 */
export async function reported(request, box = undefined) {
  const answer = await settled(request);
  if (!(answer instanceof HttpError)) return answer;
  notice(answer.message, false, box);
  return null;
}

/**
 * The request's answer, or null when it fails (nothing shown: the caller keeps what it shows
 * and asks again later).
 * @template T  @param {Promise<T>} request  @returns {Promise<T | null>}
 */
export async function quiet(request) {
  const answer = await settled(request);
  return answer instanceof HttpError ? null : answer;
}

// Whether the server answers now (its /healthz, never a saved copy).
export async function serverAnswers() {
  try {
    return (await fetch("/healthz", { cache: "no-store" })).ok;
  } catch {
    return false;
  }
}
