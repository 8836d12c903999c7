import type { FastifyInstance } from 'fastify';

/**
 * An API outage as the storefront's server sees it: its in-process fetch (apps/api/src/web.ts) reaches the API
 * through `app.inject`, so failing that for the API paths `hit` picks makes the API unreachable (`'unreachable'`,
 * the fetch throws) or answer a status with the spec §8 body. The visitor's own requests are untouched. Returns
 * the function that ends the outage.
 */
export function apiOutage(
  app: FastifyInstance,
  hit: (url: string) => boolean,
  answer: 'unreachable' | number,
): () => void {
  const original = app.inject;
  const inject = original.bind(app);
  const failing = (options: { url: string }) => {
    if (!hit(options.url)) return inject(options as never);
    if (answer === 'unreachable') return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:3000'));
    const body = { status: answer, detail: 'An unexpected server error occurred', instance: options.url, errors: [] };
    return Promise.resolve({
      statusCode: answer,
      headers: { 'content-type': 'application/json' },
      rawPayload: Buffer.from(JSON.stringify(body)),
    });
  };
  Object.assign(app, { inject: failing });
  return () => Object.assign(app, { inject: original });
}
