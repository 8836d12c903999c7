import { readFile } from 'node:fs/promises';
import { createServer } from 'node:https';
import { fileURLToPath } from 'node:url';

/**
 * A stand-in for Google's reCAPTCHA v2 api.js, served on loopback so browser tests never reach Google: it defines
 * `grecaptcha` (render, reset, getResponse) with a real, labelled «No soy un robot» checkbox and then calls the
 * page's `onload` callback named in the script's URL, as Google's script does. Ticking the box hands the page a
 * token the loopback siteverify accepts (`pass-…`), or `window.fakeRecaptchaToken` when a test sets one.
 */
const fakeApiJs = `(() => {
  const onload = new URL(document.currentScript.src).searchParams.get('onload');
  const widgets = [];
  window.grecaptcha = {
    render(container, parameters) {
      const id = widgets.length;
      const label = document.createElement('label');
      label.style.cssText = 'display:inline-flex;gap:8px;align-items:center;padding:16px;border:1px solid #d3d3d3;border-radius:3px;background:#f9f9f9;color:#000';
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.setAttribute('data-sitekey', parameters.sitekey);
      label.append(box, document.createTextNode('No soy un robot'));
      container.append(label);
      const widget = { box, token: '' };
      box.addEventListener('change', () => {
        widget.token = box.checked ? (window.fakeRecaptchaToken || 'pass-' + Math.random().toString(36).slice(2)) : '';
        if (box.checked) parameters.callback(widget.token);
        else parameters['expired-callback']();
      });
      widgets.push(widget);
      return id;
    },
    reset(id) {
      const widget = widgets[id ?? 0];
      if (widget) { widget.box.checked = false; widget.token = ''; }
    },
    getResponse(id) { return widgets[id ?? 0]?.token ?? ''; },
  };
  if (onload && typeof window[onload] === 'function') window[onload]();
})();`;

/**
 * Google's reCAPTCHA host as the browser suite's Chromium sees it: an HTTPS server on loopback answering the stand-in
 * for every `/recaptcha/…` script, reached through `--host-resolver-rules` (fixtures.ts). Its certificate is
 * self-signed for www.google.com, made for these tests only (tls/, accepted with `--ignore-certificate-errors`).
 * Not `page.route`: routing one address makes Chromium pause every request of the page for the test process to
 * inspect and turns its cache off, about a tenth of the suite's time.
 */
export async function startFakeRecaptchaHost(): Promise<{ port: number; close: () => Promise<void> }> {
  const tls = (name: string) => readFile(fileURLToPath(new URL(`tls/www.google.com.${name}`, import.meta.url)));
  const server = createServer({ key: await tls('key'), cert: await tls('crt') }, (request, response) => {
    if (request.url?.startsWith('/recaptcha/')) {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(fakeApiJs);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('The fake reCAPTCHA host has no port');
  return {
    port: address.port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
