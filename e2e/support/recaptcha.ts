import type { Page } from '@playwright/test';

/**
 * A stand-in for Google's reCAPTCHA v2 api.js, served by `page.route` so browser tests never reach Google: it defines
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

/** Every request for Google's reCAPTCHA script gets the stand-in; the site key it was rendered with stays visible. */
export async function routeFakeRecaptcha(page: Page): Promise<void> {
  await page.route('https://www.google.com/recaptcha/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript', body: fakeApiJs }),
  );
}
