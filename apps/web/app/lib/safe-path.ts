/**
 * The one check for a path that came from a visitor and is used as a link or a redirect target of this site (the
 * subscription page's «volver», any future return link): a path of this site, or `fallback`.
 *
 * A browser does more than it shows: it drops tab, CR and LF anywhere in a URL, reads `\` as `/`, and makes
 * `//host` (so `/\t/host` and `/\host`) another site; a later decoding turns `%2f%2f`, `%5c` or `%09` into those.
 * So the path is refused when, raw or percent-decoded (repeatedly), it does not start with exactly one `/`, or holds
 * a backslash, a control character, an invisible format character (bidi overrides, zero-width) or a line or
 * non-ASCII space separator. What passes is resolved as a browser would against a placeholder origin, must stay on
 * it, and the answer is that resolved path (ASCII, percent-encoded), checked again: `/.//host` resolves to `//host`.
 */
export function safeReturnPath(path: string | null | undefined, fallback = '/'): string {
  if (typeof path !== 'string' || path.length === 0 || path.length > maxPathLength) return fallback;
  const decoded = fullyDecoded(path);
  if (decoded === null || !isPlainPath(path) || !isPlainPath(decoded)) return fallback;
  let resolved: URL;
  try {
    resolved = new URL(path, placeholderOrigin);
  } catch {
    return fallback;
  }
  if (resolved.origin !== placeholderOrigin) return fallback;
  const answer = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  const answerDecoded = fullyDecoded(answer);
  return answerDecoded !== null && isPlainPath(answer) && isPlainPath(answerDecoded) ? answer : fallback;
}

const maxPathLength = 2000;
const placeholderOrigin = 'http://same-origin.invalid';

// Controls (C0, DEL, C1), format characters (bidi, zero-width, BOM), line/paragraph separators, and every space but
// U+0020 (a decoded `%20` in a query is ordinary).
const hiddenCharacter = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/u;

function isPlainPath(value: string): boolean {
  return value.startsWith('/') && !value.startsWith('//') && !value.includes('\\') && !hiddenCharacter.test(value);
}

/** Percent-decoded until nothing changes (at most a few rounds), or null when malformed or still encoded after them. */
function fullyDecoded(value: string): string | null {
  let current = value;
  for (let round = 0; round < 4; round += 1) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (next === current) return current;
    current = next;
  }
  return null;
}
