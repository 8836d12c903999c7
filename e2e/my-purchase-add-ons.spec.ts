import { formatClp } from '@travesia/domain/money';
import { signedLinkToken } from '../apps/api/src/modules/purchases/service.ts';
import { sampleAddOns, sellAddOns } from '../apps/api/test/support/add-ons.ts';
import { expectNoViolations } from './support/axe.ts';
import { createQuotation, savePassengersAndInvoice } from './support/checkout.ts';
import { expect, test } from './support/fixtures.ts';

/**
 * «Mi compra» of a purchase with add-ons (issue 27 §1): each traveller's add-ons with what they cover and cost, and
 * «Tu pago» split into plan, add-ons and total, on a phone and on a desktop, accessible.
 */

test('«Mi compra» shows each traveller’s add-ons and the price split plan + adicionales = total; axe at 390 and 1280 px', async ({
  page,
  request,
  storefront,
}) => {
  test.setTimeout(120_000);
  const id = await createQuotation(request);
  await savePassengersAndInvoice(request, id);
  const started = await request.post('/api/payments', {
    data: { quotationId: id, gatewayId: 'sandbox', consents: { dataProcessing: true, marketing: false } },
  });
  expect(started.status()).toBe(201);
  const payment = (await started.json()) as { redirectUrl: string; idVenta: number; idTransaction: number };
  // Pedro, the buyer, bought both add-ons, Jorge one (written into the payment's snapshot as the purchase step does).
  const bought = await sellAddOns(storefront.database.db, payment, {
    0: [sampleAddOns.sports, sampleAddOns.electronics],
    1: [sampleAddOns.electronics],
  });
  const gatewayPage = new URL(payment.redirectUrl).pathname + new URL(payment.redirectUrl).search;
  const decided = await request.post(gatewayPage, { form: { decision: 'approve', instalments: '1' }, maxRedirects: 0 });
  expect(decided.status()).toBe(303);
  const back = new URL(decided.headers().location ?? '');
  expect((await request.get(back.pathname + back.search, { maxRedirects: 0 })).status()).toBe(303);

  const link = await signedLinkToken(storefront.database.db, storefront.app.config.purchases, payment.idVenta);
  const split = bought.price;
  const [sports, electronics] = bought.travellers[0]?.addOns ?? [];
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/mi-compra?enlace=${link}`);
    await expect(page.getByText(`Venta N° ${payment.idVenta}`)).toBeVisible();
    const breakdown = page.getByRole('definition').filter({ hasText: formatClp(split.addOns?.totalClp ?? -1) });
    await expect(breakdown).toBeVisible();
    await expect(page.getByRole('definition').filter({ hasText: formatClp(split.plan?.totalClp ?? -1) })).toBeVisible();
    await expect(page.getByRole('list', { name: /^Adicionales de / })).toHaveCount(2);
    const addOns = page.getByRole('list', { name: /^Adicionales de Pedro/ });
    await expect(addOns.getByText('Deportes y aventura')).toBeVisible();
    await expect(addOns.getByText(formatClp(sports?.totalClp ?? -1))).toBeVisible();
    await expect(addOns.getByText(formatClp(electronics?.totalClp ?? -1))).toBeVisible();
    await expect(addOns.getByText('Rescate en montaña:')).toBeVisible();
    const withdrawal = page.getByRole('region', { name: 'Derecho a retracto' });
    await expect(
      withdrawal.getByText(
        `Plan ${formatClp(split.plan?.totalClp ?? -1)} + adicionales ${formatClp(split.addOns?.totalClp ?? -1)} = total devuelto ${formatClp(split.totalClp)}.`,
      ),
    ).toBeVisible();
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await expectNoViolations(page, `«Mi compra» with add-ons at ${width} px`);
  }

  // Jorge, a traveller and not the buyer, opens his own view with a code sent to him: his add-on, no amount.
  await page.context().clearCookies();
  await page.goto('/mi-compra');
  const codesToJorge = () =>
    storefront.smtp.received.filter((m) => m.to.includes('jorge@example.cl') && m.parsed.subject?.includes('código'));
  const before = codesToJorge().length;
  await page.getByLabel('N° de compra o de certificado').fill(String(payment.idVenta));
  await page.getByLabel('Tu documento').fill('12.345.678-5');
  await page.getByRole('button', { name: 'Enviar código' }).click();
  await expect(page.getByRole('textbox', { name: 'Código' })).toBeVisible();
  await expect.poll(() => codesToJorge().length).toBeGreaterThan(before);
  const code = /\b(\d{6})\b/.exec(codesToJorge().at(-1)?.parsed.text ?? '')?.[1] ?? '';
  await page.getByRole('textbox', { name: 'Código' }).fill(code);
  await page.getByRole('button', { name: 'Ver mi compra' }).click();
  const own = page.getByRole('list', { name: 'Tus adicionales' });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(own.getByText('Electrónicos y equipaje')).toBeVisible();
    await expect(own.getByText('Robo de equipos electrónicos:')).toBeVisible();
    await expect(own.getByText(/\$/)).toHaveCount(0);
    await expect(page.getByText('Deportes y aventura')).toHaveCount(0);
    await expectNoViolations(page, `a traveller's «Mi compra» with her add-on at ${width} px`);
  }
});
