import { gzipSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { homeFirstLoadBudget } from '../bench/js-budget.ts';
import { expect, test } from './support/fixtures.ts';
import { openHydrated } from './support/shell.ts';

// Issue #10: home does not load the validation (zod + the domain's rules, and react-hook-form's resolver), the
// calendar or the dialogs before the visitor uses them. Each is recognised by what its code contains.
const lazyCode = {
  validation: 'ZodError',
  calendar: 'rdp-',
  dialogs: 'DialogContent',
} as const;

type Loaded = { url: string; body: Buffer };

/** Records every script the page fetches from the storefront's own /assets/. */
function recordScripts(page: Page): Loaded[] {
  const loaded: Loaded[] = [];
  page.on('response', async (response) => {
    const url = new URL(response.url());
    if (!url.pathname.startsWith('/assets/') || !url.pathname.endsWith('.js')) return;
    loaded.push({ url: url.pathname, body: await response.body() });
  });
  return loaded;
}

// A script is recorded once its body has been read, a moment after the page got it: checks poll.
const holding = (loaded: Loaded[], code: string) => loaded.filter((script) => script.body.includes(code));

test.describe('client JavaScript on home', () => {
  test('the first load stays within its budget and carries no validation, calendar or dialog code', async ({
    page,
  }) => {
    const loaded = recordScripts(page);
    await openHydrated(page, '/');
    await page.waitForLoadState('networkidle');

    for (const [part, code] of Object.entries(lazyCode)) {
      expect(
        holding(loaded, code).map((script) => script.url),
        `${part} code loaded before use`,
      ).toEqual([]);
    }
    const gzipBytes = loaded.reduce((sum, script) => sum + gzipSync(script.body, { level: 6 }).length, 0);
    expect(gzipBytes).toBeGreaterThan(50_000); // React itself: the scripts were really counted
    expect(gzipBytes).toBeLessThanOrEqual(homeFirstLoadBudget);
  });

  test('each part arrives when it is used, and works', async ({ page }) => {
    const loaded = recordScripts(page);
    await openHydrated(page, '/');

    // An empty submit fetches the rules and shows their messages.
    await page.getByRole('button', { name: 'Cotizar', exact: true }).click();
    await expect(page.getByRole('alert').first()).toBeVisible();
    await expect.poll(() => holding(loaded, lazyCode.validation).length).toBeGreaterThan(0);
    await expect(page.getByRole('textbox', { name: 'Fecha de salida' })).toBeFocused();

    // The calendar button opens the calendar; a chosen day fills the field and gives the focus back.
    const calendarButton = page.getByRole('button', { name: 'Abrir calendario: Fecha de salida' });
    await calendarButton.click();
    const calendar = page.getByRole('dialog', { name: 'Calendario: Fecha de salida' });
    await expect(calendar.getByRole('grid')).toBeVisible();
    await expect.poll(() => holding(loaded, lazyCode.calendar).length).toBeGreaterThan(0);
    // The month's last open day: at the end of a month (in Chile) fewer than four days are left to choose.
    await calendar.getByRole('gridcell').getByRole('button', { disabled: false }).last().click();
    await expect(calendar).toBeHidden();
    await expect(page.getByRole('textbox', { name: 'Fecha de salida' })).toHaveValue(/^\d{2}-\d{2}-\d{4}$/);
    await expect(calendarButton).toBeFocused();
    await expect(calendarButton).toHaveAttribute('aria-expanded', 'false');

    // Pressing the button again closes an open calendar (the button toggles it).
    await calendarButton.click();
    await expect(calendar).toBeVisible();
    await calendarButton.click();
    await expect(calendar).toBeHidden();

    await page.getByRole('button', { name: 'Conoce el upgrade COVID-19' }).click();
    await expect(page.getByRole('dialog', { name: 'Upgrade COVID-19' })).toBeVisible();
    await expect.poll(() => holding(loaded, lazyCode.dialogs).length).toBeGreaterThan(0);
  });

  test('the quoter sits exactly where it does without JavaScript, and nothing shifts as the page loads', async ({
    page,
    browser,
    baseURL,
  }) => {
    const name = 'Cotizador de asistencia en viaje';
    const withoutJs = await browser.newContext({ javaScriptEnabled: false, viewport: page.viewportSize() });
    const serverOnly = await withoutJs.newPage();
    await serverOnly.goto(`${baseURL}/`);
    const serverBox = await serverOnly.getByRole('form', { name }).boundingBox();
    await withoutJs.close();

    await openHydrated(page, '/');
    await page.waitForLoadState('networkidle');
    expect(serverBox).not.toBeNull();
    expect(await page.getByRole('form', { name }).boundingBox()).toEqual(serverBox);
    const layoutShift = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          new PerformanceObserver((list) => {
            resolve(list.getEntries().reduce((sum, entry) => sum + (entry as unknown as { value: number }).value, 0));
          }).observe({ type: 'layout-shift', buffered: true });
          setTimeout(() => resolve(0), 500);
        }),
    );
    expect(layoutShift).toBe(0);
  });
});
