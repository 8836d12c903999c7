import { z } from 'zod';

/**
 * The store's pages run under a Content-Security-Policy without 'unsafe-eval' (apps/api/src/lib/http/security-headers.ts):
 * in a browser zod must interpret its schemas, neither compiling them with `new Function` nor probing whether it
 * may (a probe the browser reports as a violation). Called by every module of rules that the browser loads; on the
 * server (no `document`) zod keeps its compiled, faster path.
 */
export function interpretSchemasInBrowsers(): void {
  if ('document' in globalThis) z.config({ jitless: true });
}
