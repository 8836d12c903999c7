import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { ReceivedMail } from '../apps/api/test/support/smtp.ts';
import { expectNoViolations } from './support/axe.ts';
import { paidThroughApi } from './support/checkout.ts';
import { expect, test } from './support/fixtures.ts';

/**
 * The e-mails as a reader's client shows them (issue 27 §4, docs/email.md): each HTML part the store sent, opened in
 * Chromium at a phone's 375 px and at 800 px, in the light and the dark scheme. Nothing is wider than the screen,
 * axe finds nothing, and the screenshots go to test-results/emails/ (not committed) to be looked at.
 */
const shots = join(import.meta.dirname, '../test-results/emails');
const widths = [375, 800] as const;

async function expectReadable(page: Page, mail: ReceivedMail | undefined, name: string) {
  expect(mail, name).toBeDefined();
  const html = String(mail?.parsed.html || '');
  expect(html).not.toMatch(/<img\b/i);
  await mkdir(shots, { recursive: true });
  for (const width of widths) {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme });
      // Offline, as a client that blocks remote content: nothing in the e-mail may need the network.
      await page.route('**/*', (route) => route.abort());
      await page.setContent(html, { waitUntil: 'load' });
      await page.unrouteAll();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${name} at ${width} px is wider than the screen`).toBeLessThanOrEqual(0);
      // The button and the links sit inside the screen too (a long link breaks instead of running off).
      const outside = await page.evaluate(
        () =>
          [...document.querySelectorAll('a, p, td, th')].filter((element) => {
            const box = element.getBoundingClientRect();
            return box.width > 0 && (box.right > window.innerWidth + 0.5 || box.left < -0.5);
          }).length,
      );
      expect(outside, `${name} at ${width} px: elements past the edge`).toBe(0);
      await page.screenshot({ path: join(shots, `${name}-${width}-${colorScheme}.png`), fullPage: true });
      if (colorScheme === 'light' || width === 375) await expectNoViolations(page, `${name} ${width} ${colorScheme}`);
    }
  }
}

test('every e-mail reads at 375 and 800 px, light and dark, with nothing off the screen', async ({
  page,
  request,
  storefront,
}) => {
  test.setTimeout(180_000);
  const received = () => storefront.smtp.received;
  const saleId = await paidThroughApi(request);
  const ofSale = () => received().filter((m) => m.parsed.subject?.includes(`venta N° ${saleId}`));
  await expect.poll(() => ofSale().length).toBe(2);
  const [buyer, traveller] = ofSale();
  await expectReadable(page, buyer, 'certificados-comprador');
  await expectReadable(page, traveller, 'certificado-pasajero');

  const asked = await request.post('/api/purchases/access', {
    data: { number: String(saleId), documentType: 'rut', document: '12345678-5' },
  });
  expect(asked.status()).toBe(202);
  const codeMail = () => received().find((m) => m.parsed.subject?.startsWith('Tu código para ver tu compra'));
  await expect.poll(() => codeMail()).toBeDefined();
  await expectReadable(page, codeMail(), 'codigo-mi-compra');

  // The boleta (the local tax-document adapter issues one for each paid sale).
  const boleta = () => received().find((m) => m.parsed.subject?.endsWith(`· compra N° ${saleId}`));
  await expect.poll(() => boleta()).toBeDefined();
  await expectReadable(page, boleta(), 'documento-tributario');

  // The withdrawal, asked from «Mi compra» through the e-mailed link: the buyer's e-mail and a traveller's.
  const enlace = /\/mi-compra\?enlace=([\w.-]+)/.exec(buyer?.parsed.text ?? '')?.[1] ?? '';
  const opened = await request.post('/api/purchases/access/link', { data: { link: enlace } });
  expect(opened.status()).toBe(200);
  const { token } = (await opened.json()) as { token: string };
  const withdrawn = await request.post('/api/purchases/mine/withdrawal', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(withdrawn.status()).toBeLessThan(300);
  const retracto = () =>
    received().find((m) => m.parsed.subject?.startsWith(`Recibimos tu retracto – compra N° ${saleId}`));
  await expect.poll(() => retracto()).toBeDefined();
  await expectReadable(page, retracto(), 'retracto-comprador');
  const anulado = () => received().find((m) => /Tu certificado \S+ fue anulado/.test(m.parsed.subject ?? ''));
  await expect.poll(() => anulado()).toBeDefined();
  await expectReadable(page, anulado(), 'retracto-pasajero');

  const email = `diseno.${saleId}@example.cl`;
  expect((await request.post('/api/companies/1/subscriptions', { data: { email } })).status()).toBe(204);
  await expect.poll(() => received().find((m) => m.to.includes(email))).toBeDefined();
  await expectReadable(
    page,
    received().find((m) => m.to.includes(email)),
    'confirmar-suscripcion',
  );
});
