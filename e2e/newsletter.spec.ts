import { eq } from 'drizzle-orm';
import { subscriptions } from '../apps/api/src/db/schema.ts';
import { expectNoViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { openHydrated } from './support/shell.ts';

const subscriptionsPath = '/api/companies/1/subscriptions';

test.describe('newsletter (Suscríbete)', () => {
  test('a malformed address shows «Formato de Email incorrecto» and calls no API', async ({ page }) => {
    const calls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === subscriptionsPath) calls.push(`${request.method()} ${request.url()}`);
    });
    await openHydrated(page, '/');
    const form = page.getByRole('form', { name: 'Suscríbete' });
    const input = form.getByLabel('Correo electrónico');
    await input.fill('correo-malo');
    await form.getByRole('button', { name: 'Suscribirme' }).click();

    await expect(form.getByRole('alert')).toHaveText('Formato de Email incorrecto');
    await expect(input).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByText('El email ha sido suscrito')).toHaveCount(0);
    // Submitting again with Enter still makes no call.
    await input.press('Enter');
    await expect(form.getByRole('alert')).toHaveText('Formato de Email incorrecto');
    expect(calls).toEqual([]);
  });

  test('a valid address is subscribed, the input resets and the address is stored lower-cased', async ({
    page,
    storefront,
  }) => {
    const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const address = `Viajero.${unique}@Ejemplo.CL`;
    const calls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === subscriptionsPath) calls.push(request.method());
    });
    await openHydrated(page, '/');
    const form = page.getByRole('form', { name: 'Suscríbete' });
    const input = form.getByLabel('Correo electrónico');
    await input.fill(address);
    const response = page.waitForResponse((res) => new URL(res.url()).pathname === subscriptionsPath);
    await form.getByRole('button', { name: 'Suscribirme' }).click();
    expect((await response).ok()).toBe(true);

    await expect(form.getByText('El email ha sido suscrito')).toBeVisible();
    await expect(form.getByText('Revisa tu correo para confirmar tu suscripción.')).toBeVisible();
    await expect(input).toHaveValue('');
    await expect(form.getByRole('alert')).toHaveCount(0);
    expect(calls).toEqual(['POST']);

    // Double opt-in: stored pending until the link e-mailed to the address is opened.
    const rows = await storefront.database.db
      .select({
        email: subscriptions.email,
        companyId: subscriptions.companyId,
        confirmedAt: subscriptions.confirmedAt,
      })
      .from(subscriptions)
      .where(eq(subscriptions.email, address.toLowerCase()));
    expect(rows).toEqual([{ email: address.toLowerCase(), companyId: 1, confirmedAt: null }]);
    const asTyped = await storefront.database.db.select().from(subscriptions).where(eq(subscriptions.email, address));
    expect(asTyped).toEqual([]);
  });

  test('the e-mailed link confirms the subscription; an unknown link says so with a 404', async ({
    page,
    storefront,
  }) => {
    // Three page loads and a mail round trip: more than one page's time on a busy machine.
    test.slow();
    const address = `confirma.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@ejemplo.cl`;
    await openHydrated(page, '/');
    const form = page.getByRole('form', { name: 'Suscríbete' });
    await form.getByLabel('Correo electrónico').fill(address);
    await form.getByRole('button', { name: 'Suscribirme' }).click();
    await expect(form.getByText('Revisa tu correo para confirmar tu suscripción.')).toBeVisible();

    await expect
      .poll(() => storefront.smtp.received.filter((mail) => mail.to.includes(address)).length, { timeout: 10_000 })
      .toBe(1);
    const mail = storefront.smtp.received.find((m) => m.to.includes(address));
    const link = new URL(/https?:\/\/\S+\/suscripcion\/confirmar\?token=\S+/.exec(mail?.parsed.text ?? '')?.[0] ?? '');
    const opened = await page.goto(`${link.pathname}${link.search}`);
    expect(opened?.status()).toBe(200);
    await expect(page.getByRole('heading', { name: '¡Listo! Tu suscripción está confirmada.' })).toBeVisible();
    const [row] = await storefront.database.db
      .select({ confirmedAt: subscriptions.confirmedAt })
      .from(subscriptions)
      .where(eq(subscriptions.email, address));
    expect(row?.confirmedAt).toBeInstanceOf(Date);

    const unknown = await page.goto('/suscripcion/confirmar?token=no-existe');
    expect(unknown?.status()).toBe(404);
    await expect(
      page.getByText('Este enlace de confirmación no es válido o ya venció.', { exact: false }),
    ).toBeVisible();
  });

  test('the e-mail’s unsubscribe link asks, then removes the address; a mail client’s one-click post does too; axe', async ({
    page,
    request,
    storefront,
  }) => {
    test.slow(); // two subscriptions, their e-mails and four page loads
    const subscribeAndGetLink = async (address: string) => {
      expect((await request.post(subscriptionsPath, { data: { email: address } })).status()).toBe(204);
      await expect
        .poll(() => storefront.smtp.received.filter((mail) => mail.to.includes(address)).length, { timeout: 10_000 })
        .toBe(1);
      const mail = storefront.smtp.received.find((m) => m.to.includes(address));
      return new URL(/https?:\/\/\S+\/suscripcion\/baja\?token=\S+/.exec(mail?.parsed.text ?? '')?.[0] ?? '');
    };
    const stored = async (address: string) =>
      (await storefront.database.db.select().from(subscriptions).where(eq(subscriptions.email, address))).length;
    const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

    // By the page: opening the link only asks (a scanner following links unsubscribes no one).
    const ana = `baja.${unique()}@ejemplo.cl`;
    const link = await subscribeAndGetLink(ana);
    await openHydrated(page, `${link.pathname}${link.search}`);
    await expect(page.getByRole('heading', { name: '¿Quieres dejar de recibir nuestros correos?' })).toBeVisible();
    expect(await stored(ana)).toBe(1);
    await expectNoViolations(page, 'the unsubscribe page');
    await page.getByRole('button', { name: 'Darme de baja' }).click();
    await expect(page.getByRole('heading', { name: 'Listo: te diste de baja' })).toBeVisible();
    expect(await stored(ana)).toBe(0);

    // By the mail client (RFC 8058): a POST to the link itself, form-encoded, no cookie, no page.
    const bea = `unclic.${unique()}@ejemplo.cl`;
    const beaLink = await subscribeAndGetLink(bea);
    const oneClick = await request.post(`${beaLink.pathname}${beaLink.search}`, {
      form: { 'List-Unsubscribe': 'One-Click' },
    });
    expect(oneClick.status()).toBe(200);
    expect(await stored(bea)).toBe(0);

    // A link the store did not sign.
    const forged = await page.goto(`/suscripcion/baja?token=1.${'A'.repeat(43)}`);
    expect(forged?.status()).toBe(200);
    await page.getByRole('button', { name: 'Darme de baja' }).click();
    await expect(page.getByRole('heading', { name: 'Este enlace de baja no es válido' })).toBeVisible();
  });

  test('a «volver» that a browser would read as another site links back within the store', async ({ page }) => {
    // Each of these made the page's «Volver» link point at http://evil.example (issue 22): a tab, a CR/LF or a
    // backslash is dropped or read as «/» by the browser, turning the path into //evil.example.
    for (const volver of ['/%09/evil.example', '/%0d%0a/evil.example', '/%5Cevil.example', '/.//evil.example']) {
      await page.goto(`/suscripcion?volver=${volver}`);
      const back = page.getByRole('link', { name: 'Volver a la página anterior' });
      await expect(back).toHaveAttribute('href', '/');
      // What the browser itself resolves the link to: this store.
      const resolved = new URL(await back.evaluate((a) => (a as HTMLAnchorElement).href));
      expect(resolved.origin, volver).toBe(new URL(page.url()).origin);
      // The form's own «volver» (posted without scripts) carries the same safe path.
      await expect(page.locator('input[name="volver"]')).toHaveValue('/');
    }
  });
});
