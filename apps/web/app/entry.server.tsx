import { PassThrough } from 'node:stream';
import { createReadableStreamFromReadable } from '@react-router/node';
import { isbot } from 'isbot';
import type { RenderToPipeableStreamOptions } from 'react-dom/server';
import { renderToPipeableStream } from 'react-dom/server';
import type { AppLoadContext, EntryContext } from 'react-router';
import { ServerRouter } from 'react-router';
import { CspNonce } from '#app/lib/csp-nonce.ts';
import { deferHydration } from '#app/lib/head-priorities.server.ts';

export const streamTimeout = 5_000;

/**
 * React Router's default Node entry (@react-router/dev's entry.server.node.tsx), plus the page's Content-Security-
 * Policy nonce: the server that serves the storefront (apps/api/src/web.ts) puts it in the load context, and every
 * inline script React Router and React write (the router's context, scroll restoration, streamed data) carries it.
 * The company's marketing scripts get it too (CspNonce: features/shell/MarketingScripts.tsx). Without it (the Vite dev server) the scripts carry none, as no policy is sent there. The document goes out
 * through lib/head-priorities.server.ts: stylesheet first, scripts fetched once the first frame is painted.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = loadContext.cspNonce;

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get('user-agent');
    // Crawlers get the whole page at once; browsers get the shell as soon as it is ready.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady';
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <CspNonce value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </CspNonce>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          // React writes into `body`; the response reads the rewritten document. A visitor who leaves cancels the
          // response, which destroys `html` with the reason and stops listening to it: that error is expected (not
          // one to crash the process on), and `body` then closes too, which stops React as it did when the response
          // read `body` itself.
          const html = body.pipe(deferHydration());
          html.on('error', () => {});
          html.once('close', () => body.destroy());
          const stream = createReadableStreamFromReadable(html);
          // The charset in the header too: the browser then never has to look for it in the bytes (or parse again).
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
          pipe(body);
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors while rendering the shell reach handleDocumentRequest, which logs them; later ones only here.
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
