import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Config } from '#app/config.ts';
import { webpayBaseUrl } from '#app/integrations/payments/webpay.ts';

/** The OpenAPI viewer's page loads its own scripts by URL, without a nonce: it keeps a host-based policy. */
const docsViewerPath = '/api/docs/ui';

const nonces = new WeakMap<ServerResponse, string>();

/** Nonce bytes are drawn from the CSPRNG in batches (one call per 256 responses, not one each); each is used once. */
const nonceBytes = 16;
const noncesPerBatch = 256;
let nonceBatch = Buffer.alloc(0);
let nonceOffset = 0;

function freshNonce(): string {
  if (nonceOffset + nonceBytes > nonceBatch.length) {
    nonceBatch = randomBytes(nonceBytes * noncesPerBatch);
    nonceOffset = 0;
  }
  const nonce = nonceBatch.toString('base64', nonceOffset, nonceOffset + nonceBytes);
  nonceOffset += nonceBytes;
  return nonce;
}

/**
 * The nonce of this response's Content-Security-Policy: made on first use and then the same for the header and for
 * every inline script the page renders (React Router's, passed through the load context to entry.server.tsx).
 */
export function cspNonce(response: ServerResponse): string {
  let nonce = nonces.get(response);
  if (nonce === undefined) {
    nonce = freshNonce();
    nonces.set(response, nonce);
  }
  return nonce;
}

/**
 * Scripts run only with this response's nonce, and what those scripts add (the company's marketing snippets, the
 * reCAPTCHA loader, lazily loaded chunks) is trusted through 'strict-dynamic': an injected `<script>` in a page or a
 * stored text never runs. 'self' is ignored by browsers that understand 'strict-dynamic' and is the fallback of
 * those that do not.
 */
function scriptSource(request: IncomingMessage, response: ServerResponse): string {
  if (request.url?.startsWith(docsViewerPath)) return "'self'";
  return `'self' 'nonce-${cspNonce(response)}' 'strict-dynamic'`;
}

/** Where a form may send the browser: the store, and Webpay's pages (a payment posted without JavaScript). */
export function formTargets(config: Config): string[] {
  return ["'self'", new URL(webpayBaseUrl(config.webpay.environment)).origin];
}

/** Stands for the nonce while helmet's headers are recorded; never sent (each response gets its own nonce). */
const nonceMarker = '\u0000nonce\u0000';

type RecordedHeaders = {
  set: [name: string, value: string][];
  removed: string[];
  policy?: [name: string, before: string, after: string];
};

/**
 * What helmet's middleware writes for a request to `url`, recorded once: the headers it sets and removes, with the
 * Content-Security-Policy split around the nonce. Helmet's directives depend on the request only through the
 * nonce and whether the path is the OpenAPI viewer's (scriptSource above), so two recordings cover every request.
 */
function recordHeaders(
  middleware: (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void,
  url: string,
): RecordedHeaders {
  const recorded: RecordedHeaders = { set: [], removed: [] };
  const response = {
    setHeader(name: string, value: unknown) {
      const text = String(value);
      const [before, after, ...more] = text.split(nonceMarker);
      if (after === undefined) recorded.set.push([name, text]);
      else if (more.length === 0 && before !== undefined) recorded.policy = [name, before, after];
      else throw new Error(`${name}: the nonce must appear once`);
    },
    removeHeader(name: string) {
      recorded.removed.push(name);
    },
  } as unknown as ServerResponse;
  nonces.set(response, nonceMarker);
  middleware({ url } as IncomingMessage, response, (error) => {
    if (error) throw error;
  });
  return recorded;
}

/**
 * The headers every answer carries (pages, assets, API), through helmet; see SECURITY.md. Helmet's middleware is
 * built once and what it writes is recorded once (above): @fastify/helmet, used before, called `helmet(options)`
 * again on every request, parsing and checking every directive each time (15 % of the CPU of a kept plan search
 * answer, issue #10). Now a request writes the recorded headers and its policy with its own nonce.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  const production = config.deployment === 'production';
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        scriptSrc: [scriptSource],
        scriptSrcAttr: ["'none'"],
        // Inline style attributes (React's style props, the sandbox page) and the marketing snippets' stylesheets.
        styleSrc: ["'self'", "'unsafe-inline'", 'https:'],
        // The company's images and the marketing snippets' pixels, fonts, beacons and frames (tag managers,
        // reCAPTCHA, embedded videos) come from hosts the company chooses: any https host, never plain http.
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:', 'https:'],
        connectSrc: ["'self'", 'https:'],
        frameSrc: ["'self'", 'https:'],
        mediaSrc: ["'self'", 'https:'],
        workerSrc: ["'self'", 'blob:'],
        manifestSrc: ["'self'"],
        formAction: formTargets(config),
        frameAncestors: ["'self'", ...config.frameAncestors],
        ...(production ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // Frames are governed by frame-ancestors above (which browsers prefer); this is for those that only know XFO.
    xFrameOptions: config.frameAncestors.length === 0 ? { action: 'sameorigin' } : false,
    // A plain-http local store must stay reachable: HSTS only where the store is served over https.
    strictTransportSecurity: production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    // Links leaving the store carry its origin only, never a path (paths hold quotation ids).
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Answers (the API's personal data above all) are for the store's own pages; the static files under
    // build/client (logos that e-mails and partner sites show) say `cross-origin` where they are served (web.ts).
    crossOriginResourcePolicy: { policy: 'same-origin' },
    // The payment flow leaves for Webpay and comes back: a popup-free store loses nothing with same-origin.
    crossOriginOpenerPolicy: { policy: 'same-origin' },
  });
  const everyAnswer = recordHeaders(securityHeaders, '/');
  const docsViewer = recordHeaders(securityHeaders, `${docsViewerPath}/`);
  app.addHook('onRequest', (request, reply, done) => {
    const response = reply.raw;
    const recorded = request.raw.url?.startsWith(docsViewerPath) ? docsViewer : everyAnswer;
    response.setHeader('permissions-policy', permissionsPolicy);
    for (const name of recorded.removed) response.removeHeader(name);
    for (const [name, value] of recorded.set) response.setHeader(name, value);
    if (recorded.policy) {
      const [name, before, after] = recorded.policy;
      response.setHeader(name, `${before}${cspNonce(response)}${after}`);
    }
    done();
  });
}

/** Browser features the store never uses, refused for it and for anything it embeds. */
export const permissionsPolicy =
  'accelerometer=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()';
