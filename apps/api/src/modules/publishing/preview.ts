import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { ApiError, resourceNotFound } from '#app/errors.ts';

/**
 * Signed, expiring preview links (issue 25): `<payload>.<mac>`, the payload base64url JSON of the item (kind, key)
 * and the expiry, the MAC HMAC-SHA256 under PREVIEW_SECRET. Whoever holds the link sees that item's draft, as it is
 * when the page is opened, until it expires; nothing else.
 */
export type PreviewClaim = {
  kind: string;
  key: string;
  expiresAt: number;
  /** What the link opens (the comparator's sample quotation): the token previews that page only, nothing else. */
  scope: string;
};

/**
 * What a site preview token opens: the storefront's shell (website-parameters) on any page, and the pages of the
 * site's parts (the contacts directory, the quoter's geography); the link opens the page the part shows on. A token
 * for prices (scoped to a quotation) never opens it, nor a site token the comparator.
 */
export const sitePreviewScope = 'sitio';

/** How long a preview link opens the draft. */
export const previewTtlMs = 60 * 60 * 1000;

export const previewMessages = {
  invalid: 'El enlace de vista previa no es válido o ya venció: pide uno nuevo en la consola.',
};

const mac = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');

export function signPreview(secret: string, claim: PreviewClaim): string {
  const payload = Buffer.from(
    JSON.stringify({ k: claim.kind, i: claim.key, e: claim.expiresAt, s: claim.scope }),
  ).toString('base64url');
  return `${payload}.${mac(secret, payload)}`;
}

/** The claim of a genuine, unexpired token; otherwise a 403 in words (a forged, altered or expired link). */
export function verifyPreview(secret: string, token: string, now: Date): PreviewClaim {
  const refused = () => new ApiError(403, previewMessages.invalid);
  const [payload, given, extra] = token.split('.');
  if (!payload || !given || extra !== undefined || token.length > 1_000) throw refused();
  const expected = Buffer.from(mac(secret, payload));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) throw refused();
  let claim: { k?: unknown; i?: unknown; e?: unknown; s?: unknown };
  try {
    claim = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw refused();
  }
  if (typeof claim.k !== 'string' || typeof claim.i !== 'string' || typeof claim.e !== 'number') throw refused();
  if (typeof claim.s !== 'string') throw refused();
  if (claim.e <= now.getTime()) throw refused();
  return { kind: claim.k, key: claim.i, expiresAt: claim.e, scope: claim.s };
}

/**
 * What a request's preview token opens through `open` (a route option app.ts wires to the publishing model), or
 * undefined when it carries none. A route registered without `open` answers a token with a 404.
 */
export async function requestedPreview<T>(
  request: { headers: Record<string, unknown> },
  reply: FastifyReply,
  open: ((token: string) => Promise<T>) | undefined,
): Promise<T | undefined> {
  const token = previewTokenOf(request, reply);
  if (token === undefined) return undefined;
  if (!open) throw resourceNotFound();
  return open(token);
}

/**
 * A previewed draft read with its kind's schema. A draft saved under an older schema (or changed by hand) that no
 * longer fits opens nothing: the same 403 as a stale link, never a 500, and the store shows the live content.
 */
export function previewBody<Body>(schema: z.ZodType<Body>, body: unknown): Body {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError(403, previewMessages.invalid);
  return parsed.data;
}

/** The header the storefront forwards its `vista-previa` link parameter in (comparator, and the shell for the site). */
export const previewHeader = 'x-vista-previa';

export const previewHeaderSchema = z.object({
  [previewHeader]: z
    .string()
    .max(1_000)
    .optional()
    .describe("A signed preview token from the console (issue 25): a draft's content; the answer is never kept"),
});

/**
 * The preview token a request carries, if any: its answer then must not be kept by anyone (no-store) nor indexed,
 * whatever the route's own policy, so both headers are set here before the token is even checked.
 */
export function previewTokenOf(request: { headers: Record<string, unknown> }, reply: FastifyReply) {
  const token = request.headers[previewHeader];
  if (typeof token !== 'string' || token === '') return undefined;
  reply.header('cache-control', 'no-store');
  reply.header('x-robots-tag', 'noindex');
  return token;
}
