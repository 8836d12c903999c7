import { randomInt } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { DocumentType } from '@travesia/domain/ids';
import { formatClp } from '@travesia/domain/money';
import { rutCheckDigit } from '@travesia/domain/rut';
import type { FakeSmtp } from '../apps/api/test/support/smtp.ts';
import { expectNoViolations } from './support/axe.ts';
import { createQuotation, savePassengersAndInvoice } from './support/checkout.ts';
import { expect, test } from './support/fixtures.ts';
import { tripDates, typed } from './support/quote.ts';

/** Date change from «Mi compra» (issue #12): a buyer picks longer dates, sees the new price and pays the difference. */

/** A sale paid in the sandbox by a fresh buyer (the trip of support/checkout.ts: 8 days leaving in 15). */
async function paidSale(request: APIRequestContext) {
  const body = String(randomInt(10_000_000, 25_000_000));
  const buyer = {
    rut: `${body}-${rutCheckDigit(body)}`,
    email: `cambio.${randomInt(1_000_000, 9_999_999)}@example.cl`,
  };
  const id = await createQuotation(request);
  await savePassengersAndInvoice(request, id, [
    {
      firstName: 'Pedro',
      birthDate: '1985-07-01',
      document: { type: DocumentType.rut, id: buyer.rut },
      email: buyer.email,
    },
    {
      firstName: 'Jorge',
      birthDate: '1946-05-10',
      document: { type: DocumentType.dni, id: `PX${randomInt(100_000, 999_999)}` },
      email: `acompanante.${randomInt(1_000_000, 9_999_999)}@example.cl`,
    },
  ]);
  const started = await request.post('/api/payments', {
    data: { quotationId: id, gatewayId: 'sandbox', consents: { dataProcessing: true, marketing: false } },
  });
  expect(started.status()).toBe(201);
  const { redirectUrl, idVenta } = (await started.json()) as { redirectUrl: string; idVenta: number };
  const gatewayPage = new URL(redirectUrl).pathname + new URL(redirectUrl).search;
  const decided = await request.post(gatewayPage, { form: { decision: 'approve', instalments: '1' }, maxRedirects: 0 });
  expect(decided.status()).toBe(303);
  const back = new URL(decided.headers().location ?? '');
  expect((await request.get(back.pathname + back.search, { maxRedirects: 0 })).status()).toBe(303);
  return { idVenta, buyer };
}

/** The «Mi compra» link of the purchase e-mail sent to `address`. */
async function purchaseLink(smtp: FakeSmtp, address: string, idVenta: number): Promise<string> {
  let link = '';
  await expect
    .poll(() => {
      const mail = smtp.received
        .filter((m) => m.to.includes(address) && m.parsed.subject?.includes(`venta N° ${idVenta}`))
        .at(-1);
      link = /(https?:\/\/\S+\/mi-compra\?enlace=[\w.-]+)/.exec(mail?.parsed.text ?? '')?.[1] ?? '';
      return link;
    })
    .not.toBe('');
  return new URL(link).pathname + new URL(link).search;
}

test.describe('date change', () => {
  test('a buyer changes the dates of the trip, pays the difference and gets new certificates; axe', async ({
    page,
    request,
    storefront,
  }) => {
    test.setTimeout(120_000); // two payments and three axe runs
    const sale = await paidSale(request);
    await page.goto(await purchaseLink(storefront.smtp, sale.buyer.email, sale.idVenta));
    await expect(page.getByText(`Venta N° ${sale.idVenta}`)).toBeVisible();
    const oldCertificate =
      (await page
        .getByText(/Certificado N° TRV-/)
        .first()
        .textContent()) ?? '';

    const longer = tripDates(15, 12);
    const card = page.getByRole('region', { name: 'Cambiar fechas' });
    // The store's own date field, as in the quoter: dd-mm-aaaa whatever the browser's language, and a calendar.
    await expect(card.getByLabel('Nueva fecha de salida', { exact: true })).toHaveValue(/^\d{2}-\d{2}-\d{4}$/);
    await expect(card.getByRole('button', { name: 'Abrir calendario: Nueva fecha de regreso' })).toBeVisible();
    await card.getByLabel('Nueva fecha de salida', { exact: true }).fill(typed(longer.departure));
    await card.getByLabel('Nueva fecha de regreso', { exact: true }).fill(typed(longer.back));
    await card.getByRole('button', { name: 'Ver nuevo precio' }).click();
    await expect(card.getByText(/Debes pagar la diferencia de \$/)).toBeVisible();
    await expect(card.getByText('Nuevo precio', { exact: true })).toBeVisible();
    await expectNoViolations(page, 'the date change preview');

    await card.getByRole('button', { name: /Pagar diferencia de \$/ }).click();
    await expect(page.getByText('PAGO DE PRUEBA')).toBeVisible();
    await page.getByRole('button', { name: 'Aprobar pago' }).click();

    await expect(page).toHaveURL(/\/mi-compra\?cambio=pagado$/);
    await expect(page.getByRole('status').filter({ hasText: 'Pagaste la diferencia' })).toBeVisible();
    await expect(page.getByText(/Certificado N° TRV-.*-C\d+/).first()).toBeVisible();
    await expect(page.getByText(oldCertificate.trim(), { exact: true })).toHaveCount(0);
    await expect(page.getByText(/Cambiado el .* pagaste \$/)).toBeVisible();
    // «Tu pago» lists both payments, each with its own instalments, and the total they make (issue 22, item 3).
    const payment = page.getByRole('region', { name: 'Tu pago' });
    const entries = payment
      .getByRole('list', { name: 'Pagos y devoluciones' })
      .getByRole('listitem')
      .filter({
        hasText: /^Pago de/,
      });
    await expect(entries).toHaveCount(2);
    await expect(entries.nth(0)).toContainText('Pago de la compra');
    await expect(entries.nth(1)).toContainText('Pago de la diferencia (cambio de fechas)');
    // Each entry's amount is the last item of its first line («Pago de la compra … $30.638»).
    const amounts = await entries.evaluateAll((items) =>
      items.map((item) => Number((item.querySelector('div > span:last-child')?.textContent ?? '').replace(/\D/g, ''))),
    );
    const total = amounts.reduce((sum, amount) => sum + amount, 0);
    await expect(payment.getByText('Total pagado')).toBeVisible();
    await expect(payment.getByText(`${formatClp(total)} (`)).toBeVisible();
    await expectNoViolations(page, 'the purchase after a date change');
  });

  test('a buyer moves the trip to another country of the region by keyboard (same dates): new certificates at once; axe; full-width card', async ({
    page,
    request,
    storefront,
  }) => {
    test.slow(); // a payment first
    const sale = await paidSale(request);
    const region = (await (await request.get('/api/companies/1/destinations/3/countries')).json()) as {
      id: number;
      label: string;
    }[];
    const [bought, other] = region;
    if (!bought || !other) throw new Error('the region needs two countries');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(await purchaseLink(storefront.smtp, sale.buyer.email, sale.idVenta));
    const card = page.getByRole('region', { name: 'Cambiar fechas' });
    // Beside nothing: as wide as «Derecho a retracto» above it, not half the page with empty space beside it.
    const width = async (name: string) => (await page.getByRole('region', { name }).boundingBox())?.width ?? 0;
    expect(Math.abs((await width('Cambiar fechas')) - (await width('Derecho a retracto')))).toBeLessThan(2);
    const country = card.getByLabel('País de destino');
    await expect(country).toHaveValue(String(bought.id));

    // Keyboard only: the next country in the list, then Tab to «Ver nuevo precio» and Enter.
    await country.focus();
    await page.keyboard.press('ArrowDown');
    await expect(country).toHaveValue(String(other.id));
    await page.keyboard.press('Tab');
    await expect(card.getByRole('button', { name: 'Ver nuevo precio' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(card.getByText('El precio no cambia: no hay nada que pagar.')).toBeVisible();
    await expect(card.getByRole('status').getByText(other.label, { exact: true })).toBeVisible();
    await expectNoViolations(page, 'the country change preview');

    const confirm = card.getByRole('button', { name: 'Confirmar cambio de país de destino' });
    await confirm.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText(/Cambiamos el país de destino de tu viaje sin costo adicional/)).toBeVisible();
    await expect(page.getByRole('region', { name: 'Tu viaje' }).getByText(other.label, { exact: true })).toBeVisible();
    await expect(card.getByText(`país de destino: ${bought.label} → ${other.label}`, { exact: false })).toBeVisible();
    await expect(page.getByText(/Certificado N° TRV-.*-C\d+/).first()).toBeVisible();
    await expect(card.getByLabel('País de destino')).toHaveValue(String(other.id));
    await expectNoViolations(page, 'the purchase after a country change');

    // A 360 px phone: nothing wider than the screen.
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });

  test('invalid dates are said beside the field; after the preview nothing has changed', async ({
    page,
    request,
    storefront,
  }) => {
    test.slow(); // a payment first
    const sale = await paidSale(request);
    await page.goto(await purchaseLink(storefront.smtp, sale.buyer.email, sale.idVenta));
    const card = page.getByRole('region', { name: 'Cambiar fechas' });
    const wrong = tripDates(20, 1);
    await card.getByLabel('Nueva fecha de salida', { exact: true }).fill(typed(wrong.departure));
    await card.getByLabel('Nueva fecha de regreso', { exact: true }).fill(typed(tripDates(18, 1).departure));
    await card.getByRole('button', { name: 'Ver nuevo precio' }).click();
    await expect(card.getByText('La fecha de regreso debe ser igual o posterior a la de salida')).toBeVisible();
    await expectNoViolations(page, 'the date change errors');
  });
});

test.describe('date change without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('moving the trip a day (same price) is two plain form posts and is applied at once', async ({
    page,
    request,
    storefront,
  }) => {
    test.slow(); // a payment first
    const sale = await paidSale(request);
    await page.goto(await purchaseLink(storefront.smtp, sale.buyer.email, sale.idVenta));
    const card = page.getByRole('region', { name: 'Cambiar fechas' });
    const moved = tripDates(16, 8);
    await card.getByLabel('Nueva fecha de salida', { exact: true }).fill(typed(moved.departure));
    await card.getByLabel('Nueva fecha de regreso', { exact: true }).fill(typed(moved.back));
    await card.getByRole('button', { name: 'Ver nuevo precio' }).click();
    await expect(card.getByText('El precio no cambia: no hay nada que pagar.')).toBeVisible();
    await card.getByRole('button', { name: 'Confirmar cambio de fechas' }).click();
    await expect(page.getByText(/Cambiamos las fechas de tu viaje sin costo adicional/)).toBeVisible();
    await expect(page.getByText(/Certificado N° TRV-.*-C\d+/).first()).toBeVisible();
  });

  test('another country of the region (same dates) is two plain form posts and is applied at once', async ({
    page,
    request,
    storefront,
  }) => {
    test.slow(); // a payment first
    const sale = await paidSale(request);
    const region = (await (await request.get('/api/companies/1/destinations/3/countries')).json()) as {
      id: number;
      label: string;
    }[];
    const other = region[1];
    if (!other) throw new Error('the region needs two countries');
    await page.goto(await purchaseLink(storefront.smtp, sale.buyer.email, sale.idVenta));
    const card = page.getByRole('region', { name: 'Cambiar fechas' });
    await card.getByLabel('País de destino').selectOption(String(other.id));
    await card.getByRole('button', { name: 'Ver nuevo precio' }).click();
    await expect(card.getByText('El precio no cambia: no hay nada que pagar.')).toBeVisible();
    await card.getByRole('button', { name: 'Confirmar cambio de país de destino' }).click();
    await expect(page.getByText(/Cambiamos el país de destino de tu viaje sin costo adicional/)).toBeVisible();
    await expect(page.getByRole('region', { name: 'Tu viaje' }).getByText(other.label, { exact: true })).toBeVisible();
    await expect(page.getByText(/Certificado N° TRV-.*-C\d+/).first()).toBeVisible();
  });
});
