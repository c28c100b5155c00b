// A browser's record of the puzzles of a set it has shown, as /api/puzzles/next reads it
// (ludoteca/server/study/puzzles.py, Library.shown): a bit a puzzle, puzzle number n at bit
// n % 8 (the lowest first) of byte n / 8, written in base64url without padding, for one edition
// of the set (a record of another edition is started afresh).  No DOM: tested on its own.

/**
 * A record of shown puzzles: the set's edition and the bits, base64url.
 * @typedef {{ edition: string, bits: string }} Seen
 */

/** @param {string} text  base64url, unpadded  @returns {Uint8Array} */
function bytesOf(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** @param {Uint8Array} bytes  @returns {string} base64url, unpadded */
function textOf(bytes) {
  const binary = Array.from(bytes, (b) => String.fromCharCode(b)).join("");
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * Whether `record` marks puzzle `number` of `edition` as shown.
 * @param {Seen | null | undefined} record  @param {string} edition  @param {number} number
 */
export function marks(record, edition, number) {
  if (!record || record.edition !== edition) return false;
  const bytes = bytesOf(record.bits);
  return (number >> 3) < bytes.length && Boolean(bytes[number >> 3] & (1 << (number & 7)));
}

/**
 * `record` with puzzle `number` of `edition` marked too (a record of another edition, or none,
 * is started afresh).
 * @param {Seen | null | undefined} record  @param {string} edition  @param {number} number
 * @returns {Seen}
 */
export function marked(record, edition, number) {
  const old = record && record.edition === edition ? bytesOf(record.bits) : new Uint8Array(0);
  const bytes = new Uint8Array(Math.max(old.length, (number >> 3) + 1));
  bytes.set(old);
  bytes[number >> 3] |= 1 << (number & 7);
  return { edition, bits: textOf(bytes) };
}
