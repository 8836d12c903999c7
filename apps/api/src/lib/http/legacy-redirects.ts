import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';

/**
 * Spec §9: old paths of the store (a partner's quoter, a country site) go to other hosts, configured per environment.
 * LEGACY_REDIRECTS holds a JSON object `{ "/path": "https://absolute.url", … }`, or the path of a file holding one.
 * It is checked once at start-up; each entry is answered with a 301 before the storefront renders anything.
 */
export type LegacyRedirects = ReadonlyMap<string, string>;

export class LegacyRedirectsError extends Error {}

/** `/a/b`: a path, no query, fragment, whitespace or `..`, and never the API's own prefix. */
function pathProblem(path: string): string | null {
  if (!path.startsWith('/')) return 'must start with /';
  if (/[\s?#]/.test(path)) return 'must be a path only (no spaces, ? or #)';
  if (path.split('/').includes('..')) return 'must not contain ..';
  if (path === '/api' || path.startsWith('/api/')) return 'must not be under /api (the API keeps its paths)';
  return null;
}

function urlProblem(target: unknown): string | null {
  if (typeof target !== 'string') return 'must be an absolute http(s) URL in quotes';
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return 'must be an absolute http(s) URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an absolute http(s) URL';
  if (url.username || url.password) return 'must not carry a user or password';
  return null;
}

/**
 * Parses LEGACY_REDIRECTS: unset or empty is no redirects; text starting with `{` (or `[`, to say it is wrong) is JSON; anything else is
 * a file path. Every problem is named in words (which entry, what is wrong) in one LegacyRedirectsError.
 */
export function parseLegacyRedirects(value: string | undefined): LegacyRedirects {
  const text = value?.trim() ?? '';
  if (text === '') return new Map();
  let json = text;
  if (!/^[[{]/.test(text)) {
    try {
      json = readFileSync(text, 'utf8');
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable';
      throw new LegacyRedirectsError(`is not JSON and names no readable file (${JSON.stringify(text)}: ${reason})`);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw new LegacyRedirectsError(`is not valid JSON (${(error as Error).message})`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new LegacyRedirectsError('must be a JSON object of "/old-path": "https://absolute.url" entries');
  }
  const problems: string[] = [];
  const redirects = new Map<string, string>();
  for (const [path, target] of Object.entries(parsed)) {
    const problem = pathProblem(path);
    if (problem) problems.push(`${JSON.stringify(path)} ${problem}`);
    const targetProblem = urlProblem(target);
    if (targetProblem) problems.push(`the target of ${JSON.stringify(path)} ${targetProblem}`);
    if (!problem && !targetProblem) redirects.set(path, target as string);
  }
  if (problems.length > 0) throw new LegacyRedirectsError(`has bad entries: ${problems.join('; ')}`);
  return redirects;
}

/** The path as the visitor asked for it, and percent-decoded (`/ni%C3%B1os` matches an entry `/niños`). */
function candidates(path: string): string[] {
  try {
    const decoded = decodeURIComponent(path);
    return decoded === path ? [path] : [path, decoded];
  } catch {
    return [path];
  }
}

/** The target with the request's query string added (campaign parameters survive the move). */
function withQuery(target: string, query: string): string {
  if (query === '') return target;
  const url = new URL(target);
  for (const [name, value] of new URLSearchParams(query)) url.searchParams.append(name, value);
  return url.toString();
}

/**
 * Answers a GET or HEAD of a configured path (exact match; the query string is not part of the match) with
 * 301 Moved Permanently to its URL, before any route (the storefront included) runs.
 */
export function registerLegacyRedirects(app: FastifyInstance, redirects: LegacyRedirects): void {
  if (redirects.size === 0) return;
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    const [path = '/', query = ''] = request.url.split(/\?(.*)/s);
    const target = candidates(path)
      .map((candidate) => redirects.get(candidate))
      .find((found) => found !== undefined);
    if (target === undefined) return;
    return reply
      .code(301)
      .header('location', withQuery(target, query))
      .header('cache-control', 'public, max-age=3600')
      .send();
  });
}
