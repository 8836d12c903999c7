import type { APIRequestContext, Page } from '@playwright/test';
import { and, eq, sql } from 'drizzle-orm';
import { auditEntries } from '../apps/api/src/modules/audit/tables.ts';
import { createQuotation } from './support/checkout.ts';
import { enrolByKeyboard, expectAccessible, invitation } from './support/console.ts';
import { expect, test } from './support/fixtures.ts';
import { openHydrated, waitForHydration } from './support/shell.ts';

/**
 * «Precios» (issue 25): a pricing operator raises one plan's prices 10 %, reads the impact table, opens the preview
 * link (the real comparator with the draft's prices and a «Vista previa» banner, kept by no cache), publishes, the
 * storefront's comparator shows the new price, and a rollback restores the old one to the peso. The plan is
 * «Travesía Protección Especial» (418), which no other journey prices; the test leaves it as it found it.
 */

const planId = 418;
const planLabel = 'Travesía Protección Especial';

type ComparatorPlan = { id: number; montoConversion: number; montoConversionFormateado: string };

async function priceOf(request: APIRequestContext, quotationId: string, headers: Record<string, string> = {}) {
  const answer = await request.get(`/api/1/plans-comparador?quotationId=${quotationId}`, { headers });
  expect(answer.status()).toBe(200);
  const plan = ((await answer.json()) as ComparatorPlan[]).find((candidate) => candidate.id === planId);
  if (!plan) throw new Error('plan 418 not in the comparator');
  return plan;
}

const planCard = (page: Page) => page.getByRole('article', { name: planLabel });

test('a pricing operator raises a plan 10 %, previews, publishes, and rolls back to the peso; axe', async ({
  page,
  request,
  storefront,
}) => {
  test.setTimeout(150_000);
  const quotationId = await createQuotation(request, planId);
  const before = await priceOf(request, quotationId);

  const email = `precios-${Date.now()}@travesia.cl`;
  await enrolByKeyboard(page, await invitation(storefront, email, ['pricing']), 'Pía');
  await page.getByRole('link', { name: 'Ir a la consola' }).click();
  await page.getByRole('link', { name: 'Precios', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Precios', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: new RegExp(planLabel) }).click();
  await expect(page.getByRole('heading', { name: `Precios de ${planLabel}`, level: 1 })).toBeVisible();
  await waitForHydration(page);

  // +10 % on every rate, saved as a draft: the store does not change yet.
  await page.getByLabel('Ajustar todos los precios (%)').fill('10');
  await page.getByRole('button', { name: 'Aplicar el ajuste y guardar' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Borrador guardado' })).toBeVisible();
  expect((await priceOf(request, quotationId)).montoConversion).toBe(before.montoConversion);

  // The impact table: sample trips, each about 10 % up.
  const impact = page.getByRole('table', { name: /Impacto del borrador/ });
  await expect(impact.getByRole('row').nth(1)).toBeVisible();
  const changes = await impact.locator('tbody tr td:last-child').allInnerTexts();
  expect(changes.length).toBeGreaterThan(3);
  for (const change of changes) expect(change).toMatch(/^\+(9,[89]|10|10,[0-2]) %$/);
  await expectAccessible(page, '«Precios» with a draft');

  // The preview link opens the real comparator with the draft's prices, a banner, never kept nor indexed.
  await page.getByRole('button', { name: 'Crear enlace de vista previa' }).click();
  const previewLink = page.getByRole('link', { name: 'Abrir la vista previa' });
  await expect(previewLink).toBeVisible();
  const previewUrl = new URL(String(await previewLink.getAttribute('href')));
  const token = previewUrl.searchParams.get('vista-previa') ?? '';
  const draftPrice = await priceOf(request, previewUrl.pathname.split('/').at(-1) ?? '', { 'x-vista-previa': token });
  const consolePage = page.url();
  const previewAnswer = await page.goto(`${previewUrl.pathname}${previewUrl.search}`);
  expect(previewAnswer?.headers()['cache-control']).toBe('no-store');
  expect(previewAnswer?.headers()['x-robots-tag']).toBe('noindex');
  await expect(page.getByRole('status').filter({ hasText: 'Vista previa' })).toBeVisible();
  await expect(planCard(page)).toContainText(draftPrice.montoConversionFormateado);

  // Publish now: the storefront's comparator shows the new price.
  await page.goto(consolePage);
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Publicar', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Precios publicados' })).toBeVisible();
  const after = await priceOf(request, quotationId);
  expect(after.montoConversion / before.montoConversion).toBeCloseTo(1.1, 2);
  await openHydrated(page, `/comparador/${quotationId}`);
  await expect(planCard(page)).toContainText(after.montoConversionFormateado);
  await expect(page.getByRole('status').filter({ hasText: 'Vista previa' })).toHaveCount(0);
  // The quotation was saved before the publication: the comparator says its price changed.
  await expect(
    page.getByRole('note').filter({ hasText: `El precio de ${planLabel} cambió desde que cotizaste` }),
  ).toBeVisible();

  // Rollback: the publication's «before», to the peso, on the storefront too.
  await page.goto(consolePage);
  await waitForHydration(page);
  const history = page.getByRole('region', { name: 'Historial' });
  await history
    .getByRole('button', { name: /Volver a los precios anteriores/ })
    .first()
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'la tienda volvió a esos precios' })).toBeVisible();
  expect((await priceOf(request, quotationId)).montoConversion).toBe(before.montoConversion);
  await openHydrated(page, `/comparador/${quotationId}`);
  await expect(planCard(page)).toContainText(before.montoConversionFormateado);

  // Each step left its audit row, by this operator.
  const trail = await storefront.database.db
    .select({ action: auditEntries.action })
    .from(auditEntries)
    .where(and(eq(auditEntries.actorLabel, email), eq(auditEntries.targetId, String(planId))));
  expect(trail.map((row) => row.action)).toEqual(
    expect.arrayContaining(['publishing.draft_saved', 'publishing.published', 'publishing.rolled_back']),
  );
});

test('prices by length of trip: a band from 8 days, cheaper per day, scheduled, reaches the comparator when due; rollback; axe', async ({
  page,
  request,
  storefront,
}) => {
  test.setTimeout(150_000);
  // The comparator's sample: an 8-day trip, one traveller up to 74 and one of 75 to 84.
  const quotationId = await createQuotation(request, planId);
  const before = await priceOf(request, quotationId);

  await enrolByKeyboard(page, await invitation(storefront, `tramos-${Date.now()}@travesia.cl`, ['pricing']), 'Iván');
  await page.goto(`/backoffice/precios/${planId}`);
  await waitForHydration(page);
  await expect(page.getByRole('heading', { name: `Precios de ${planLabel}`, level: 1 })).toBeVisible();
  const bands = page.getByLabel('Tramos por duración (día desde el que cambia el precio)');
  await expect(bands).toHaveValue('1');

  // A band from 8 days: it starts with the prices of the band before it.
  await bands.fill('1, 8');
  await page.getByRole('button', { name: 'Guardar borrador' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Borrador guardado' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'De 1 a 7 días', level: 3 })).toBeVisible();
  await expect(page.getByRole('heading', { name: '8 días o más', level: 3 })).toBeVisible();
  const longer = page.getByLabel('Europa, Pasajero de 0 a 74 años, 8 días o más: USD por día');
  const shorter = page.getByLabel('Europa, Pasajero de 0 a 74 años, De 1 a 7 días: USD por día');
  await expect(longer).toHaveValue(await shorter.inputValue());
  // What the draft changes: the new band in one line, not a line per copied price.
  const changes = page.getByRole('region', { name: 'Qué cambia el borrador' });
  await expect(changes).toContainText('Nuevo tramo por duración: desde 8 días');
  await expect(changes).toContainText(/Desde 8 días: \d+ precios iguales al tramo anterior/);

  // Half the price per day from 8 days for the younger traveller; the impact table shows it from 8 days on only.
  const half = (Number(await shorter.inputValue()) / 2).toFixed(2);
  await longer.fill(half);
  await page.getByRole('button', { name: 'Guardar borrador' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Borrador guardado' })).toBeVisible();
  await expect(page.getByText(/Europa · Pasajero de 0 a 74 años · desde 8 días: .* → USD/)).toBeVisible();
  const impact = page.getByRole('table', { name: /Impacto del borrador/ });
  const europeAdult = (days: number) =>
    impact
      .getByRole('row')
      .filter({ hasText: /^Europa/ })
      .filter({ hasText: 'Pasajero de 0 a 74 años' })
      .filter({
        has: page.getByRole('cell', { name: String(days), exact: true }),
      });
  await expect(europeAdult(7).getByRole('cell').last()).toHaveText('0 %');
  await expect(europeAdult(8).getByRole('cell').last()).toHaveText(/^−(49,\d|50) %$/);
  await expectAccessible(page, '«Precios» with two length bands');

  // Scheduled two minutes ahead (Chile time): nothing changes until the worker's job is due. The test moves the
  // job's due time instead of waiting for the clock (the queue reads the database's own clock).
  const inTwoMinutes = new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'America/Santiago',
    dateStyle: 'short',
    timeStyle: 'short',
  })
    .format(new Date(Date.now() + 2 * 60_000))
    .replace(' ', 'T');
  await page.getByLabel('Publicar el (hora de Chile; vacío: ahora)').fill(inTwoMinutes);
  await page.getByRole('button', { name: 'Publicar', exact: true }).click();
  // The action's notice (the page's own «programada … por <operator>» notice may show beside it).
  await expect(
    page.getByRole('status').filter({ hasText: /^Publicación programada para el .+ \(hora de Chile\)\.$/ }),
  ).toBeVisible();
  expect((await priceOf(request, quotationId)).montoConversion).toBe(before.montoConversion);
  await storefront.database.db.execute(
    sql`update jobs set run_after = now() where kind = 'publishing.publish' and status = 'pending'`,
  );
  await storefront.app.runJobs();
  const after = await priceOf(request, quotationId);
  expect(after.montoConversion).toBeLessThan(before.montoConversion);
  await openHydrated(page, `/comparador/${quotationId}`);
  await expect(planCard(page)).toContainText(after.montoConversionFormateado);

  await page.goto(`/backoffice/precios/${planId}`);
  await waitForHydration(page);
  await page
    .getByRole('region', { name: 'Historial' })
    .getByRole('button', { name: /Volver a los precios anteriores/ })
    .first()
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'la tienda volvió a esos precios' })).toBeVisible();
  expect((await priceOf(request, quotationId)).montoConversion).toBe(before.montoConversion);
  await expect(page.getByLabel('Tramos por duración (día desde el que cambia el precio)')).toHaveValue('1');
});
