import type { Page } from '@playwright/test';
import { expectNoViolations, viewports } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { waitForHydration } from './support/shell.ts';

/**
 * The operator console's shell as the API process serves it under /backoffice (apps/api/src/backoffice-web.ts), what
 * can be checked before the console's API (/api/backoffice/*) exists: the sign-in page, its headers and keyboard use,
 * the sign-in redirect of a deep URL, and a storefront left as it was. An absent /me (404) counts as «no session».
 * The whole journey (enrol → sign in → …) comes with the API.
 */

type ViolationWindow = Window & { __cspViolations?: string[] };

async function recordViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as ViolationWindow).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`);
    });
  });
}

test.describe('operator console shell', () => {
  test('the sign-in page has its own policy, says noindex, runs its scripts without a violation, axe clean at 390 and 1280 px', async ({
    page,
  }) => {
    await recordViolations(page);
    const response = await page.goto('/backoffice/ingresar');
    expect(response?.status()).toBe(200);
    const headers = response?.headers() ?? {};
    const policy = headers['content-security-policy'] ?? '';
    expect(policy).toMatch(/script-src 'nonce-[^']+' 'strict-dynamic'/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("default-src 'none'");
    // No third-party origin of any kind (the storefront's allows https: for marketing snippets).
    expect(policy).not.toMatch(/https?:/);
    expect(headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(headers['cache-control']).toBe('no-store');
    expect(headers['referrer-policy']).toBe('same-origin');
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
    await expect(page).toHaveTitle('Ingresar · Consola Travesía');
    await waitForHydration(page);
    for (const viewport of viewports) {
      await page.setViewportSize(viewport);
      await expect(page.getByRole('heading', { name: 'Ingresar', level: 1 })).toBeVisible();
      await expectNoViolations(page, `/backoffice/ingresar at ${viewport.width} px`);
    }
    expect(await page.evaluate(() => (window as ViolationWindow).__cspViolations ?? [])).toEqual([]);
  });

  test('the sign-in form is used by keyboard alone and answers a refusal in words', async ({ page }) => {
    await page.goto('/backoffice/ingresar');
    await waitForHydration(page);
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Correo', { exact: true })).toBeFocused();
    await page.keyboard.type('nadie@travesia.cl');
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Contraseña', { exact: true })).toBeFocused();
    await page.keyboard.type('una frase cualquiera');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Continuar' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page.getByLabel('Correo', { exact: true })).toHaveValue('nadie@travesia.cl');
    await expectNoViolations(page, 'the sign-in refusal');
  });

  test('without JavaScript the sign-in form posts and answers too', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const page = await context.newPage();
    await page.goto('/backoffice/ingresar');
    await page.getByLabel('Correo', { exact: true }).fill('nadie@travesia.cl');
    await page.getByLabel('Contraseña', { exact: true }).fill('una frase cualquiera');
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await context.close();
  });

  test('a deep console URL without a session leads to the sign-in page, which remembers it', async ({ page }) => {
    await page.goto('/backoffice/auditoria?actor=ana');
    await expect(page).toHaveURL(/\/backoffice\/ingresar\?volver=%2Fauditoria%3Factor%3Dana$/);
    await expect(page.getByRole('heading', { name: 'Ingresar', level: 1 })).toBeVisible();
  });

  test('the storefront is unaffected: its own policy, indexable, never linking to the console', async ({ page }) => {
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    const headers = response?.headers() ?? {};
    expect(headers['x-robots-tag']).toBeUndefined();
    expect(headers['content-security-policy']).not.toContain("frame-ancestors 'none'");
    expect(await page.content()).not.toContain('/backoffice');
    await waitForHydration(page);
    expect(requested.filter((path) => path.startsWith('/backoffice'))).toEqual([]);
  });
});
