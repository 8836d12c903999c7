import { and, eq } from 'drizzle-orm';
import { exchangeRates } from '../apps/api/src/db/schema.ts';
import { auditEntries } from '../apps/api/src/modules/audit/tables.ts';
import { createQuotation } from './support/checkout.ts';
import { enrolByKeyboard, expectAccessible, invitation } from './support/console.ts';
import { expect, test } from './support/fixtures.ts';
import { tabTo } from './support/keyboard.ts';
import { openHydrated, waitForHydration } from './support/shell.ts';

/**
 * «Tipo de cambio» (issue 25, item 4): a pricing operator, enrolled by keyboard, enters the rate by hand with its
 * reason; the storefront's comparator shows the plans' prices in pesos at the new rate right after (the catalogue
 * cache and the kept comparator page are cleared by the same hook): Esencial's total becomes its dollars × 1.000. The
 * rate is put back afterwards: the e2e store is shared by the files that run after this one.
 */

test('a pricing operator enters the exchange rate by hand; the comparator’s CLP prices follow; axe', async ({
  page,
  request,
  storefront,
}) => {
  test.setTimeout(90_000);
  const quotation = await createQuotation(request);
  const esencialTotal = () =>
    page.getByRole('article').filter({ hasText: 'Travesía Esencial' }).getByTestId('plan-price-total');
  const esencialUsd = () =>
    page.getByRole('article').filter({ hasText: 'Travesía Esencial' }).getByTestId('plan-price-usd');
  await openHydrated(page, `/comparador/${quotation}`);
  // The dollars the plan costs: at 1.000 pesos per dollar, the CLP total is them × 1.000.
  const usdText = /USD ([\d.]+,\d{2}) total del viaje/.exec(await esencialUsd().innerText())?.[1] ?? '';
  const usd = Number(usdText.replaceAll('.', '').replace(',', '.'));
  expect(usd).toBeGreaterThan(0);
  const atThousand = `$${new Intl.NumberFormat('es-CL', { useGrouping: 'always' }).format(Math.round(usd * 1000))} CLP`;
  await expect(esencialTotal()).not.toContainText(atThousand);

  const email = `precios-${quotation.slice(0, 8)}@travesia.cl`;
  const { db } = storefront.database;
  try {
    await enrolByKeyboard(page, await invitation(storefront, email, ['pricing']), 'Patricia');
    await page.getByRole('link', { name: 'Ir a la consola' }).click();
    await expect(page.getByRole('heading', { name: 'Hoy', level: 1 })).toBeVisible();
    await page.getByRole('link', { name: 'Tipo de cambio' }).first().click();
    await expect(page.getByRole('heading', { name: 'Tipo de cambio', level: 1 })).toBeVisible();
    await waitForHydration(page);
    await expect(page.getByText('Carga inicial, del')).toBeVisible();
    await expectAccessible(page, 'the exchange-rate screen');

    // By keyboard: the value with a decimal comma, the reason, Enter.
    await tabTo(page, page.getByLabel('Pesos por dólar'));
    await page.keyboard.type('1000,00');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Prueba e2e del cambio a mano');
    await page.keyboard.press('Enter');
    await expect(
      page.getByRole('status').filter({ hasText: 'Tipo de cambio guardado: 1.000,00 pesos por dólar' }),
    ).toBeVisible();
    await expect(page.getByText('Ingresado a mano, del')).toBeVisible();
    await expect(page.getByRole('cell', { name: 'Prueba e2e del cambio a mano' })).toBeVisible();
    await expectAccessible(page, 'a rate entered by hand');
    const [row] = await db
      .select()
      .from(exchangeRates)
      .where(and(eq(exchangeRates.createdBy, email), eq(exchangeRates.source, 'manual')));
    expect(row).toMatchObject({ rate: '1000.0000', reason: 'Prueba e2e del cambio a mano' });
    const audit = await db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.action, 'exchange_rate.manual'), eq(auditEntries.targetId, String(row?.id))));
    expect(audit).toHaveLength(1);

    // The storefront, right after: the dollars × 1.000.
    await openHydrated(page, `/comparador/${quotation}`);
    await expect(esencialTotal()).toContainText(atThousand);
  } finally {
    await db.delete(exchangeRates).where(eq(exchangeRates.createdBy, email));
    await storefront.app.invalidateReadCache();
  }
});
