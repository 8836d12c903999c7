/** The console's preview link parameter (issue 25): a signed token for a draft (prices, or the site's shell). */
export const previewParameter = 'vista-previa';

/** What a preview page says about itself: never kept by anyone, never indexed (the API says the same of its own). */
export const previewHeaders = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' } as const;

/**
 * The shape of a console preview token (apps/api publishing/preview.ts): a base64url payload, a dot, the 43-character
 * base64url HMAC. Anything else is never forwarded: a header value the fetch API refuses (a line break, a non-Latin
 * character) would otherwise fail the page.
 */
const previewTokenShape = /^[A-Za-z0-9_-]{1,900}\.[A-Za-z0-9_-]{43}$/;

/**
 * A request's preview link: null without one, `{ token }` when it has the shape of a token (the API then says whether
 * it opens anything), `{ token: null }` when it cannot be one (the page says the link did not open).
 */
export function previewLinkOf(request: Request): { token: string | null } | null {
  const value = new URL(request.url).searchParams.get(previewParameter);
  if (value === null) return null;
  return { token: previewTokenShape.test(value) ? value : null };
}

/** Whether a request is a preview (a valid token or not): its page is never kept nor indexed. */
export const isPreviewRequest = (url: string) => new URL(url).searchParams.has(previewParameter);
