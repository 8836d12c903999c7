import { eq } from 'drizzle-orm';
import { sales } from '../apps/api/src/db/schema.ts';
import { signedLinkToken } from '../apps/api/src/modules/purchases/service.ts';
import { expectNoViolations, viewports } from './support/axe.ts';
import { createQuotation, paidThroughApi, saveBoletaDetails } from './support/checkout.ts';
import { expect, test } from './support/fixtures.ts';
import { openHydrated } from './support/shell.ts';

/**
 * Issue 27 §1: add-ons chosen per traveller on the purchase step (by keyboard), shown with their price in the order
 * summary, charged with the plan. The quotation: one traveller of 0–74 and one of 75–84, plan 411, Europe.
 */

type Totals = { totals: { totalClp: number; formatted: { total: string; addOns: string } } };

for (const viewport of viewports) {
  test(`add-ons per traveller at ${viewport.width} px: chosen by keyboard, in the summary, charged with the plan`, async ({
    page,
    request,
    storefront,
  }, testInfo) => {
    testInfo.setTimeout(90_000);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const quotationId = await createQuotation(request);
    await openHydrated(page, `/compra/411/${quotationId}`);

    const adult = page.getByRole('region', { name: /Pasajero 1/ });
    const senior = page.getByRole('region', { name: /Pasajero 2/ });
    const adultAddOns = adult.getByRole('group', { name: /Adicionales/ });
    const seniorAddOns = senior.getByRole('group', { name: /Adicionales/ });
    // Each traveller sees what their age band may buy: sports are for 0–74 only.
    await expect(adultAddOns.getByRole('checkbox', { name: /Deportes y aventura/ })).toBeVisible();
    await expect(seniorAddOns.getByRole('checkbox', { name: /Deportes y aventura/ })).toHaveCount(0);
    await expect(seniorAddOns.getByRole('checkbox', { name: /Preexistencias ampliadas/ })).toBeVisible();
    // The price for that traveller beside the name, what it covers one click away.
    await expect(adultAddOns.getByRole('checkbox', { name: /Deportes y aventura \+ \$[\d.]+/ })).toBeVisible();
    await adultAddOns.getByText('Qué cubre').first().click();
    await expect(adultAddOns.getByText('Rescate en montaña o en el mar')).toBeVisible();

    await adult.getByLabel('Nombre', { exact: true }).fill('Camila');
    await adult.getByLabel('Apellido', { exact: true }).fill('Rojas');
    await adult.getByLabel('Fecha de nacimiento', { exact: true }).fill('15-03-1990');
    await adult.getByLabel('Género').selectOption('F');
    await adult.getByLabel('RUT/DNI').fill('12.345.678-5');
    await adult.getByLabel('E-mail').fill('camila@example.cl');
    await adult.getByLabel('Teléfono').fill('+56 9 1234 5678');
    // Ticked from the keyboard: focus on the box, Space.
    await adultAddOns.getByRole('checkbox', { name: /Deportes y aventura/ }).focus();
    await page.keyboard.press('Space');
    await expect(adultAddOns.getByRole('checkbox', { name: /Deportes y aventura/ })).toBeChecked();

    await senior.getByLabel('Nombre', { exact: true }).fill('Jorge');
    await senior.getByLabel('Apellido', { exact: true }).fill('Fernández');
    await senior.getByLabel('Fecha de nacimiento', { exact: true }).fill('10-05-1948');
    await senior.getByLabel('Género').selectOption('M');
    await senior.getByLabel('RUT/DNI').fill('7.654.321-6');
    await senior.getByLabel('E-mail').fill('jorge@example.cl');
    await senior.getByLabel('Teléfono').fill('+56 9 8765 4321');
    await seniorAddOns.getByRole('checkbox', { name: /Preexistencias ampliadas/ }).focus();
    await page.keyboard.press('Space');
    // The running total adds the ticked add-ons' prices to the plan's before anything is saved.
    await expect(page.getByText(/^Adicionales: \+ \$[\d.]+ · Total con adicionales: \$[\d.]+$/)).toBeVisible();

    const emergency = page.getByRole('region', { name: 'Contacto de emergencia' });
    await emergency.getByLabel('Nombre', { exact: true }).fill('Ana');
    await emergency.getByLabel('Apellido', { exact: true }).fill('Rojas');
    await emergency.getByLabel('Teléfono').fill('+56 2 2345 6789');
    await page.getByLabel('País de destino').selectOption({ label: 'España' });
    await page.getByLabel('Acepto los términos y condiciones').check();
    await expectNoViolations(page, `purchase step with add-ons at ${viewport.width} px`);
    await page.screenshot({ path: `/tmp/add-ons-compra-${viewport.width}.png`, fullPage: true });
    await page.getByRole('button', { name: /Continuar/ }).click();
    await page.waitForURL(`**/facturacion/411/${quotationId}`);

    // The summary lists each add-on with its traveller and price; its total is the plan plus them, as the API prices it.
    const priced = (await (await request.get(`/api/companies/1/quotations/${quotationId}/add-ons`)).json()) as Totals;
    const summary = page.getByRole('region', { name: 'Resumen de tu compra' });
    const lines = summary
      .getByRole('group', { name: 'Adicionales' })
      .or(summary.locator('dl[aria-label="Adicionales"]'));
    await expect(lines).toContainText('Deportes y aventura');
    await expect(lines).toContainText('Preexistencias ampliadas');
    await expect(summary).toContainText(priced.totals.formatted.total);
    await expectNoViolations(page, `billing step summary with add-ons at ${viewport.width} px`);

    // Billing saved through the API: the payment step charges the same total.
    await saveBoletaDetails(request, quotationId);
    await openHydrated(page, `/pago/411/${quotationId}`);
    await expect(page.getByRole('region', { name: 'Resumen de tu compra' })).toContainText(
      priced.totals.formatted.total,
    );
    await page.screenshot({ path: `/tmp/add-ons-pago-${viewport.width}.png`, fullPage: true });
    await page.getByRole('radio', { name: 'Pago de prueba (sin cargo real)' }).check();
    await page.getByRole('checkbox', { name: /^Autorizo el tratamiento/ }).check();
    await page.getByRole('button', { name: /^Pagar / }).click();
    await page.waitForURL(/\/api\/payments\/sandbox\//);
    await expect(page.getByText(priced.totals.formatted.total).first()).toBeVisible();
    await page.getByRole('button', { name: 'Aprobar pago' }).click();
    await page.waitForURL(/\/exito\?venta=\d+&transaccion=\d+/);
    const [sale] = await storefront.database.db.select().from(sales).where(eq(sales.quotationId, quotationId));
    expect(sale?.status).toBe('paid');
    expect(sale?.amountClp).toBe(priced.totals.totalClp);
  });
}

test('«Mi compra»: the buyer adds an add-on after the purchase by keyboard and pays it; axe at 390 and 1280 px', async ({
  page,
  request,
  storefront,
}, testInfo) => {
  testInfo.setTimeout(90_000);
  const saleId = await paidThroughApi(request);
  const link = await signedLinkToken(storefront.database.db, storefront.app.config.purchases, saleId);
  const [before] = await storefront.database.db.select().from(sales).where(eq(sales.id, saleId));
  const card = page.getByRole('region', { name: 'Agregar adicionales' });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/mi-compra?enlace=${link}`);
    // Pedro (0–74) may add sports or electronics; Jorge (75–84) electronics only.
    await expect(card.getByRole('group', { name: /^Pedro/ }).getByRole('checkbox')).toHaveCount(2);
    await expect(card.getByRole('group', { name: /^Jorge/ }).getByRole('checkbox')).toHaveCount(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await expectNoViolations(page, `«Agregar adicionales» at ${width} px`);
  }
  const sports = card.getByRole('group', { name: /^Pedro/ }).getByRole('checkbox', { name: /Deportes y aventura/ });
  await sports.focus();
  await page.keyboard.press('Space');
  await card.getByRole('button', { name: 'Pagar adicionales' }).click();
  await page.waitForURL(/\/api\/payments\/sandbox\//);
  await page.getByRole('button', { name: 'Aprobar pago' }).click();
  await page.waitForURL(/\/mi-compra\?cambio=pagado/);
  await expect(
    page.getByRole('list', { name: /^Adicionales de Pedro/ }).getByText('Deportes y aventura'),
  ).toBeVisible();
  const [after] = await storefront.database.db.select().from(sales).where(eq(sales.id, saleId));
  expect(after?.amountClp).toBeGreaterThan(before?.amountClp ?? 0);
  expect(after?.purchase?.travellers[0]?.addOns?.map((line) => line.name)).toEqual(['Deportes y aventura']);
  // Bought: no longer offered to Pedro.
  await expect(card.getByRole('group', { name: /^Pedro/ }).getByRole('checkbox')).toHaveCount(1);
});
