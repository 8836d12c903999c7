import type { APIRequestContext, Page } from '@playwright/test';
import { PassengerType } from '@travesia/domain/ids';
import { eq } from 'drizzle-orm';
import { addOns, productBenefits } from '../apps/api/src/modules/plans/tables.ts';
import { expectNoViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { tripDates } from './support/quote.ts';
import { openHydrated } from './support/shell.ts';

/*
 * Issue #13, prices that lead with what is paid. Expected figures by hand from the seed (see apps/api/test/plans.test.ts):
 * Europe, 10 days, 2 adults + 1 senior; Esencial 100.00 − 15 % = USD 85,00 → $80.625 at 948.53; 80 625 / 6 = 13 437.5
 * → $13.438 (instalments are rounded up); 85.00 / (10 × 3) = USD 2,83 per traveller per day on average.
 */

type Passengers = { passengerTypeId: number; quantity: number }[];

async function createQuotation(
  request: APIRequestContext,
  trip: { passengers: Passengers; modality?: number; destination?: number; days?: number; planId?: number },
): Promise<string> {
  const { departure, back } = tripDates(10, trip.days ?? 10);
  const created = await request.post('/api/quotations/1', {
    data: {
      origin: 1,
      destination: trip.destination ?? 3,
      modality: trip.modality ?? 1,
      departureDate: departure,
      returnDate: back,
      passangerTypes: trip.passengers,
      ...(trip.planId ? { planId: trip.planId } : {}),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

const twoAdultsOneSenior: Passengers = [
  { passengerTypeId: PassengerType.upTo74, quantity: 2 },
  { passengerTypeId: PassengerType.from75To84, quantity: 1 },
];

const card = (page: Page, label: string) => page.getByRole('article').filter({ hasText: label });

async function badgesOf(scope: ReturnType<Page['locator']>) {
  return scope.getByRole('list', { name: 'Distinciones del plan' }).getByRole('listitem').allTextContents();
}

for (const width of [390, 1280]) {
  test.describe(`prices at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('a plan card leads with the CLP total and its 6 instalments, then USD and per traveller per day', async ({
      page,
      request,
    }) => {
      const id = await createQuotation(request, { passengers: twoAdultsOneSenior });
      await openHydrated(page, `/comparador/${id}`);
      const esencial = card(page, 'Travesía Esencial');
      const total = esencial.getByTestId('plan-price-total');
      const instalments = esencial.getByTestId('plan-price-instalments');
      const usd = esencial.getByTestId('plan-price-usd');
      await expect(total).toHaveText(/^Total a pagar\s*\$80\.625 CLP$/);
      await expect(instalments).toHaveText('o hasta 6 cuotas sin interés de $13.438');
      await expect(usd).toContainText('USD 85,00 total del viaje');
      await expect(usd).toContainText('USD 2,83 por día por pasajero en promedio');

      // Read top to bottom: the CLP total, then the instalment, then the dollars; the total is the biggest figure.
      const [totalBox, instalmentsBox, usdBox] = await Promise.all([
        total.boundingBox(),
        instalments.boundingBox(),
        usd.boundingBox(),
      ]);
      expect(totalBox && instalmentsBox && usdBox).toBeTruthy();
      expect(totalBox?.y ?? 0).toBeLessThan(instalmentsBox?.y ?? 0);
      expect(instalmentsBox?.y ?? 0).toBeLessThan(usdBox?.y ?? 0);
      const fontSize = (locator: ReturnType<Page['locator']>) =>
        locator.evaluate((element) => Number.parseFloat(getComputedStyle(element).fontSize));
      const biggest = await fontSize(total.getByText('$80.625'));
      expect(biggest).toBeGreaterThan(await fontSize(usd.getByText('USD 85,00')));
      expect(biggest).toBeGreaterThan(await fontSize(instalments));

      // On a phone the card leads with the name, the total, the instalments and «Elegir»; benefits and image follow.
      // Wider, the image heads the card and the price sits at its foot, level across the row.
      const top = async (locator: ReturnType<Page['locator']>) => (await locator.boundingBox())?.y ?? Number.NaN;
      const choose = await top(esencial.getByRole('button', { name: /^Elegir/ }));
      const benefits = await top(esencial.getByRole('list', { name: /^Principales coberturas/ }));
      const image = await top(esencial.locator('img'));
      const name = await top(esencial.getByRole('heading', { name: 'Travesía Esencial' }));
      if (width < 640) {
        expect(name).toBeLessThan(await top(total));
        expect(choose).toBeLessThan(benefits);
        expect(benefits).toBeLessThan(image);
        expect(choose - name, 'the price and «Elegir» within the first screen of the card').toBeLessThan(400);
      } else {
        expect(image).toBeLessThan(name);
        expect(benefits).toBeLessThan(choose);
      }

      // One currency label: dollars are «USD», never «US$».
      await expect(page.locator('main')).not.toContainText('US$');
    });

    test('every plan states its tax treatment the same way, on the cards and in the table', async ({
      page,
      request,
    }) => {
      const id = await createQuotation(request, { passengers: twoAdultsOneSenior });
      await openHydrated(page, `/comparador/${id}`);
      const wording = /^Precio final, (IVA \d+ % incluido|no afecto a IVA)$/;
      const cards = page.getByRole('article');
      await expect(cards).toHaveCount(4);
      for (const tax of await page.getByTestId('plan-price-tax').allTextContents()) expect(tax).toMatch(wording);
      await expect(page.getByTestId('plan-price-tax')).toHaveCount(4);
      await expect(card(page, 'Travesía Protección Especial').getByTestId('plan-price-tax')).toHaveText(
        'Precio final, IVA 19 % incluido',
      );
      await expect(card(page, 'Travesía Plus').getByTestId('plan-price-tax')).toHaveText(
        'Precio final, no afecto a IVA',
      );
      // Why one carries IVA and another does not, in words, behind «¿Por qué?» (opened by keyboard).
      const why = card(page, 'Travesía Protección Especial').getByTestId('plan-price-tax-reason');
      await why.getByText('¿Por qué?').focus();
      await page.keyboard.press('Enter');
      await expect(why).toContainText('servicios que se prestan en Chile, afectos a IVA');
      await expect(card(page, 'Travesía Plus').getByTestId('plan-price-tax-reason')).toContainText('fuera de Chile', {
        useInnerText: false,
      });

      await openHydrated(page, `/comparador/${id}?vista=comparar`);
      const table = page.getByRole('table');
      await expect(table.getByTestId('plan-price-tax')).toHaveCount(4);
      for (const tax of await table.getByTestId('plan-price-tax').allTextContents()) expect(tax).toMatch(wording);
      await expect(table.getByTestId('plan-price-instalments').first()).toHaveText(
        /^o hasta 6 cuotas sin interés de \$/,
      );
    });

    test('a plan reads the same badges on its card and in the comparison table', async ({ page, request }) => {
      const id = await createQuotation(request, { passengers: twoAdultsOneSenior });
      await openHydrated(page, `/comparador/${id}`);
      const labels = ['Travesía Esencial', 'Travesía Plus', 'Travesía Premium', 'Travesía Protección Especial'];
      const onCards = new Map<string, string[]>();
      for (const label of labels) onCards.set(label, await badgesOf(card(page, label)));
      // Plus is the best seller, Premium the best coverage.
      expect(onCards.get('Travesía Plus')).toContain('Más vendido');
      expect(onCards.get('Travesía Premium')).toContain('Mejor cobertura');

      await openHydrated(page, `/comparador/${id}?vista=comparar`);
      const table = page.getByRole('table');
      for (const label of labels) {
        const header = table.getByRole('columnheader', { name: new RegExp(label) });
        expect(await badgesOf(header), label).toEqual(onCards.get(label));
      }
      await expect(page.locator('main')).not.toContainText('Mejor plan');
    });

    test('the table shows only the rows where the plans differ, and all of them again', async ({
      page,
      request,
      storefront,
    }) => {
      // The demo plans differ in every benefit: give the four plans of the trip one they share, alike (as real
      // plans share «Asistencia en español las 24 horas»), for this test only.
      const shared = 'Asistencia en español las 24 horas';
      const sharedBenefitPlans = [410, 411, 412, 418]; // Esencial, Plus, Premium, Protección Especial
      const db = storefront.database.db;
      await db
        .insert(productBenefits)
        .values(
          sharedBenefitPlans.map((productId) => ({ productId, label: shared, value: 'Incluida', sortOrder: 99 })),
        );
      await storefront.app.invalidateReadCache();
      try {
        await expectOnlyDifferences(page, await createQuotation(request, { passengers: twoAdultsOneSenior }), shared);
      } finally {
        await db.delete(productBenefits).where(eq(productBenefits.label, shared));
        await storefront.app.invalidateReadCache();
      }
    });
  });
}

test.describe('plans an age band rules out', () => {
  for (const width of [390, 1280]) {
    test(`a 75–84 traveller on an annual trip is told why no plan is shown (${width} px)`, async ({
      page,
      request,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      // Anual (414) is the only annual plan and is sold to travellers of 0 to 74 only.
      const id = await createQuotation(request, {
        passengers: [{ passengerTypeId: PassengerType.from75To84, quantity: 1 }],
        modality: 2,
        destination: 1,
        days: 365,
      });
      await openHydrated(page, `/comparador/${id}`);
      await expect(page.getByRole('note')).toHaveText(
        'El plan Travesía Anual no está disponible para pasajeros de 75 a 84 años: no cubre esa edad.',
      );
      await expect(page.getByText('No encontramos planes que se ajusten a este viaje.')).toBeVisible();
    });
  }

  test('a 75–84 traveller with one of 85+: the four general plans are missing and the page says so', async ({
    page,
    request,
  }) => {
    const id = await createQuotation(request, {
      passengers: [
        { passengerTypeId: PassengerType.from75To84, quantity: 1 },
        { passengerTypeId: PassengerType.from85, quantity: 1 },
      ],
    });
    await openHydrated(page, `/comparador/${id}`);
    await expect(page.getByRole('note')).toHaveText(
      '4 planes no están disponibles para pasajeros de 85 años o más: no cubren esa edad (Travesía Esencial, Travesía Plus, Travesía Premium y Travesía Protección Especial).',
    );
    await expect(page.getByRole('article')).toHaveCount(1);
    await expect(page.getByText('1 plan disponible para tu viaje')).toBeVisible();
  });

  test('2 adults + 1 senior of 75–84: the senior-only plan is missing because of the adults', async ({
    page,
    request,
  }) => {
    const id = await createQuotation(request, { passengers: twoAdultsOneSenior });
    await openHydrated(page, `/comparador/${id}`);
    await expect(page.getByRole('note')).toHaveText(
      'El plan Travesía Senior no está disponible para pasajeros de 0 a 74 años: no cubre esa edad.',
    );
    await expect(page.getByRole('article')).toHaveCount(4);
  });
});

/*
 * Issue 27 §1: the add-ons a plan takes, offered where they change the choice. On the reference trip (2 adults + 1
 * senior, Europe, 10 days) Esencial offers all five: «Deportes y aventura» USD 2,50 × 10 = 25.00 → $23.713, for 0–74
 * only; «Preexistencias ampliadas» 30 % of one traveller's plan: adult 21.25 → 6.38 → $6.052, senior 42.50 → $12.094.
 * For this test only, «Cancelación por cualquier motivo» is not sold with Premium (which already covers cancellation).
 */
for (const width of [390, 1280]) {
  test.describe(`add-ons on the plans at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('each card lists its add-ons with a price per traveller; a plan that cannot take one says so', async ({
      page,
      request,
      storefront,
    }) => {
      test.slow(); // two full page loads and two axe runs on a shared machine
      const db = storefront.database.db;
      const cancellation = 'cancelacion-cualquier-motivo';
      await db
        .update(addOns)
        .set({ productIds: [410, 411, 418] })
        .where(eq(addOns.code, cancellation));
      await storefront.app.invalidateReadCache();
      try {
        const id = await createQuotation(request, { passengers: twoAdultsOneSenior });
        await openHydrated(page, `/comparador/${id}`);
        const esencial = card(page, 'Travesía Esencial').getByRole('region', { name: 'Adicionales disponibles' });
        await expect(esencial.getByRole('listitem')).toHaveText([
          /^Deportes y aventura \$23\.713 por viajero/,
          /^Preexistencias ampliadas desde \$6\.052 por viajero/,
          /^Embarazo hasta la semana 32 \$28\.456 por viajero/,
          /^Cancelación por cualquier motivo desde \$8\.063 por viajero/,
          /^Electrónica y equipaje plus \$14\.228 por viajero/,
        ]);
        // What it covers and who cannot take it, behind <details>, opened by keyboard.
        const sports = esencial.getByRole('listitem').first();
        await expect(sports.getByText('No disponible para pasajeros de 75 a 84 años.')).toBeHidden();
        await sports.locator('summary').focus();
        await page.keyboard.press('Enter');
        await expect(sports).toContainText('esquí, snowboard, trekking');
        await expect(sports.getByText('No disponible para pasajeros de 75 a 84 años.')).toBeVisible();
        await expect(card(page, 'Travesía Esencial').getByTestId('plan-add-ons-missing')).toHaveCount(0);

        const premium = card(page, 'Travesía Premium');
        await expect(premium.getByTestId('plan-add-ons-missing')).toHaveText(
          'No disponible con este plan: Cancelación por cualquier motivo.',
        );
        await expect(
          premium.getByRole('region', { name: 'Adicionales disponibles' }).getByRole('listitem'),
        ).toHaveCount(4);

        // The card still leads with the name, the total, the instalments and «Elegir»; the add-ons come after.
        const top = async (locator: ReturnType<Page['locator']>) => (await locator.boundingBox())?.y ?? Number.NaN;
        const plus = card(page, 'Travesía Plus');
        const choose = await top(plus.getByRole('button', { name: /^Elegir/ }));
        expect(await top(plus.getByTestId('plan-price-total'))).toBeLessThan(choose);
        expect(choose).toBeLessThan(await top(plus.getByTestId('plan-add-ons')));
        await expectNoViolations(page, `plan cards with add-ons at ${width} px`);

        await openHydrated(page, `/comparador/${id}?vista=comparar`);
        const table = page.getByRole('table');
        await expect(table.getByRole('rowheader', { name: 'Adicionales por viajero' })).toBeVisible();
        // The add-ons' own row group (a benefit may bear an add-on's name: Premium covers «Cancelación…» itself).
        const addOnRows = table.locator('tbody[data-add-ons]').getByRole('row');
        const row = (name: string) => addOnRows.filter({ has: page.getByRole('rowheader', { name }) });
        // Columns in the page's order (cheapest first): Esencial, Plus, Premium, Protección Especial.
        await expect(row('Cancelación por cualquier motivo').getByRole('cell')).toHaveText([
          'desde $8.063 por viajero',
          /^desde \$/,
          'No disponible con este plan',
          /^desde \$/,
        ]);
        // Protección Especial carries IVA: 25.00 + 19 % = 29.75 → $28.219.
        await expect(row('Deportes y aventura').getByRole('cell')).toHaveText([
          '$23.713 por viajero No disponible para pasajeros de 75 a 84 años',
          /^\$23\.713 por viajero/,
          /^\$23\.713 por viajero/,
          /^\$28\.219 por viajero/,
        ]);
        await expectNoViolations(page, `comparison table with add-ons at ${width} px`);
      } finally {
        await db.update(addOns).set({ productIds: [] }).where(eq(addOns.code, cancellation));
        await storefront.app.invalidateReadCache();
      }
    });
  });
}

for (const width of [390, 1280]) {
  test.describe(`checkout summary at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('the order summary prices each traveller; step 1 leads back to change the plan', async ({ page, request }) => {
      test.slow(); // two full page loads and a form post on a shared machine
      // 1 adult + 1 senior, Europe, 8 days, Plus (380 / 760 ¢ a day, 15 % off):
      // adult 30.40 − 4.56 = 25.84 → $24.510; senior 60.80 − 9.12 = 51.68 → $49.020; total 77.52 → $73.530.
      const id = await createQuotation(request, {
        passengers: [
          { passengerTypeId: PassengerType.upTo74, quantity: 1 },
          { passengerTypeId: PassengerType.from75To84, quantity: 1 },
        ],
        days: 8,
        planId: 411,
      });
      await openHydrated(page, `/compra/411/${id}`);
      const summary = page.getByRole('complementary', { name: 'Resumen de la compra' });
      const perTraveller = summary.getByRole('definition').filter({ hasText: 'USD' });
      await expect(summary.getByRole('heading', { name: 'Precio por pasajero' })).toBeVisible();
      await expect(summary.getByRole('term').filter({ hasText: 'Pasajero de 0 a 74 años' })).toBeVisible();
      await expect(summary.getByRole('term').filter({ hasText: 'Pasajero de 75 a 84 años' })).toBeVisible();
      await expect(perTraveller.filter({ hasText: '$24.510' })).toContainText('USD 25,84');
      await expect(perTraveller.filter({ hasText: '$49.020' })).toContainText('USD 51,68');
      await expect(summary).toContainText('$73.530');
      await expect(summary).toContainText('Hasta 6 cuotas sin interés de $12.255');

      // Back to the plans of this quotation, choose another one, and the purchase goes on with it.
      await page.getByRole('link', { name: 'Cambiar de plan' }).click();
      await page.waitForURL(`**/comparador/${id}`);
      await card(page, 'Travesía Esencial')
        .getByRole('button', { name: /Elegir/ })
        .click();
      await page.waitForURL(`**/compra/410/${id}`);
      await expect(page.getByRole('complementary', { name: 'Resumen de la compra' })).toContainText(
        'Travesía Esencial',
      );
    });
  });
}

/**
 * On the comparison table of quotation `id`: «Ver solo las diferencias» hides the rows alike in every plan (`alike`
 * among them) and keeps only rows whose cells differ; «Ver todas las prestaciones» brings every row back.
 */
async function expectOnlyDifferences(page: Page, id: string, alike: string) {
  await openHydrated(page, `/comparador/${id}?vista=comparar`);
  const table = page.getByRole('table');
  // The benefits' rows; the add-ons' own row group (issue 27 §1) stays whole.
  const benefitRows = table.locator('tbody:not([data-add-ons]) tr');
  const all = await benefitRows.count();
  await expect(table.getByRole('rowheader', { name: alike })).toBeVisible();
  await page.getByRole('link', { name: 'Ver solo las diferencias entre planes' }).click();
  await expect(page).toHaveURL(/diferencias=1/);
  await expect(
    page.getByText(/^Ocultamos (1 prestación igual|\d+ prestaciones iguales) en todos los planes\./),
  ).toBeVisible();
  const differing = await benefitRows.count();
  expect(differing).toBeLessThan(all);
  expect(differing).toBeGreaterThan(0);
  await expect(table.getByRole('rowheader', { name: alike })).toHaveCount(0);
  // Every row left tells the plans apart: its cells are not all the same.
  for (let row = 0; row < differing; row += 1) {
    const cells = (await benefitRows.nth(row).locator('td').allInnerTexts()).map((text) => text.trim());
    expect(new Set(cells).size, cells.join(' | ')).toBeGreaterThan(1);
  }
  // The order kept, the prices and «Elegir» still there.
  await expect(table.getByRole('button', { name: /^Elegir/ }).first()).toBeVisible();
  await page.getByRole('link', { name: 'Ver todas las prestaciones' }).click();
  await expect(page).not.toHaveURL(/diferencias=1/);
  await expect(benefitRows).toHaveCount(all);
}
