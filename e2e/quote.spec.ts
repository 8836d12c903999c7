import { eq } from 'drizzle-orm';
import { quotationPassengers, quotations } from '../apps/api/src/db/schema.ts';
import { expect, test } from './support/fixtures.ts';
import { fillQuoter, submitQuoter, tripDates, typed } from './support/quote.ts';
import { openHydrated } from './support/shell.ts';

test.describe('quote, compare and choose a plan', () => {
  test('a 2-adult + 1-senior trip to Europe shows every plan in USD and CLP, and the comparator lets the visitor choose', async ({
    page,
    storefront,
  }) => {
    const { departure, back } = tripDates(10, 10);
    await fillQuoter(page, { destination: 'Europa', departure, back, adults: 2, seniors: 1 });
    const id = await submitQuoter(page);

    // The quotation is stored as asked.
    const [stored] = await storefront.database.db.select().from(quotations).where(eq(quotations.id, id));
    expect(stored).toMatchObject({ destinationId: 3, modalityId: 1, departureDate: departure, returnDate: back });
    const counts = await storefront.database.db
      .select()
      .from(quotationPassengers)
      .where(eq(quotationPassengers.quotationId, id));
    expect(counts.map((c) => [c.passengerTypeId, c.quantity]).sort()).toEqual([
      [1, 2],
      [2, 1],
    ]);

    // Esencial in Europe: 2 × USD 2.50 × 10 + 1 × USD 5.00 × 10 = USD 100.00, 15 % off → USD 85,00;
    // 85 × 948.53 = 80 625.05 → $80.625.
    const esencial = page.getByRole('article').filter({ hasText: 'Travesía Esencial' });
    await expect(esencial).toContainText('USD 85,00');
    await expect(esencial).toContainText('$80.625');
    await expect(page.getByRole('article').filter({ hasText: 'Travesía Plus' })).toContainText('CLP');
    await expect(page.getByText('Descuentos y promociones ya aplicados')).toBeVisible();
    await expect(page.getByText('Paga en hasta 6 cuotas sin interés')).toBeVisible();
    // Senior-only and annual plans do not fit this trip.
    await expect(page.getByRole('article').filter({ hasText: 'Travesía Senior' })).toHaveCount(0);
    await expect(page.getByRole('article').filter({ hasText: 'Travesía Anual' })).toHaveCount(0);

    // A reload (or a shared link) shows the same quotation and prices.
    await page.reload();
    await expect(page.getByRole('article').filter({ hasText: 'Travesía Esencial' })).toContainText('USD 85,00');

    // Side by side: benefits as rows, plans as columns.
    await page
      .getByRole('link', { name: 'Comparar planes' })
      .or(page.getByRole('button', { name: 'Comparar planes' }))
      .click();
    const table = page.getByRole('table');
    await expect(table).toBeVisible();
    await expect(table.getByRole('rowheader', { name: /Asistencia médica/ })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: /Travesía Premium/ })).toBeVisible();

    // Choosing a plan leads to the purchase step and records the choice.
    await page.goto(`/comparador/${id}`);
    await page
      .getByRole('article')
      .filter({ hasText: 'Travesía Plus' })
      .getByRole('button', { name: /Elegir/ })
      .click();
    await page.waitForURL(`**/compra/411/${id}`);
    const [chosen] = await storefront.database.db.select().from(quotations).where(eq(quotations.id, id));
    expect(chosen?.planId).toBe(411);
  });

  test('a return before the departure shows a message and makes no call', async ({ page }) => {
    const { departure } = tripDates(20, 1);
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() !== 'GET') posts.push(request.url());
    });
    await fillQuoter(page, { destination: 'Europa', departure, back: departure, adults: 1, seniors: 0 });
    await page.getByRole('textbox', { name: 'Fecha de regreso' }).fill(typed(tripDates(10, 1).departure));
    await page.getByRole('button', { name: 'Cotizar', exact: true }).click();
    await expect(page.getByText('La fecha de regreso debe ser igual o posterior a la de salida')).toBeVisible();
    expect(posts).toEqual([]);
    await expect(page).toHaveURL(/\/$/);
  });

  test('the annual modality fixes the return date at a 365-day term', async ({ page }) => {
    const { departure } = tripDates(5, 1);
    await openHydrated(page, '/');
    await page.getByLabel('Modalidad').selectOption({ label: 'Anual multiviaje' });
    await page.getByRole('textbox', { name: 'Fecha de salida' }).fill(typed(departure));
    const back = page.getByRole('textbox', { name: 'Fecha de regreso' });
    await expect(back).toBeDisabled();
    await expect(back).toHaveValue(typed(tripDates(5, 365).back));
  });

  test('an unknown or expired discount code still shows prices and says why in words', async ({ page }) => {
    const { departure, back } = tripDates(12, 5);
    // INVIERNO2025 is a seeded code that ended in 2025: it is refused as expired («vencido»).
    for (const [code, words] of [
      ['NOEXISTE', 'El código de descuento no es válido; te mostramos los precios sin él.'],
      ['INVIERNO2025', 'El código de descuento está vencido; te mostramos los precios sin él.'],
    ] as const) {
      await fillQuoter(page, { destination: 'Sudamérica', departure, back, adults: 1, seniors: 0, code });
      await submitQuoter(page);
      await expect(page.getByRole('status').filter({ hasText: 'código de descuento' })).toHaveText(words);
      await expect(page.getByRole('article').first()).toContainText('USD ');
    }
  });

  test('the covid upgrade option opens the upgrade table', async ({ page }) => {
    await openHydrated(page, '/');
    await page.getByRole('button', { name: 'Ver coberturas' }).click();
    await expect(page.getByRole('dialog', { name: 'Upgrade COVID-19' })).toBeVisible();
  });

  test('the partner quoter hides nav and footer and quotes just the same @phone', async ({ page }) => {
    const { departure, back } = tripDates(15, 7);
    await openHydrated(page, '/cotizador/agencia-sur');
    await expect(page.getByRole('navigation', { name: 'Principal' })).toHaveCount(0);
    await page.getByLabel('Destino').selectOption({ label: 'Europa' });
    await page.getByRole('textbox', { name: 'Fecha de salida' }).fill(typed(departure));
    await page.getByRole('textbox', { name: 'Fecha de regreso' }).fill(typed(back));
    await submitQuoter(page);
    await expect(page.getByRole('article').first()).toBeVisible();
    expect(await page.evaluate(() => document.scrollingElement?.scrollWidth ?? 0)).toBeLessThanOrEqual(
      page.viewportSize()?.width ?? 0,
    );
  });
});
