import { PassengerType } from '@travesia/domain/ids';
import { eq } from 'drizzle-orm';
import { subscriptions } from '../apps/api/src/db/schema.ts';
import { expect, test } from './support/fixtures.ts';
import { tripDates, typed } from './support/quote.ts';
import { waitForHydration } from './support/shell.ts';
import { expectNoValueIn, recordUrls } from './support/urls.ts';

type StoredQuotation = {
  id: string;
  origin: number;
  modality: number;
  destination: number;
  departureDate: string;
  returnDate: string;
  passangerTypes: { passengerTypeId: number; quantity: number }[];
  discountCode: string | null;
  upgradeCovid: boolean;
};

const uniqueAddress = () => `sin.js.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@ejemplo.cl`;

test.describe('quoter and newsletter without JavaScript', () => {
  for (const width of [390, 1280]) {
    test.describe(`${width} px wide`, () => {
      test.use({ javaScriptEnabled: false, viewport: { width, height: 900 } });

      test('the quoter posts natively, saves the trip as entered and opens its plans', async ({ page, request }) => {
        const urls = recordUrls(page);
        const { departure, back } = tripDates(15, 8);
        await page.goto('/');
        const quoter = page.getByRole('form', { name: 'Cotizador de asistencia en viaje' });
        await quoter.getByLabel('Destino').selectOption({ label: 'Europa' });
        await quoter.getByRole('textbox', { name: 'Fecha de salida' }).fill(typed(departure));
        await quoter.getByRole('textbox', { name: 'Fecha de regreso' }).fill(typed(back));
        await quoter.getByRole('spinbutton', { name: 'Pasajero de 0 a 74 años' }).fill('2');
        await quoter.getByRole('spinbutton', { name: 'Pasajero de 75 a 84 años' }).fill('1');
        await quoter.getByLabel('Código de descuento').fill('bienvenida10');
        await quoter.getByRole('checkbox', { name: 'Agregar upgrade COVID-19' }).check();
        await quoter.getByRole('button', { name: 'Cotizar', exact: true }).click();

        await page.waitForURL(/\/comparador\/[0-9a-f-]{36}$/);
        const id = page.url().split('/comparador/')[1] ?? '';
        await expect(page.getByRole('article').filter({ hasText: 'Travesía Esencial' })).toBeVisible();
        expectNoValueIn(urls, [departure, back, typed(departure), typed(back), 'bienvenida10', 'Europa']);

        const stored = (await (await request.get(`/api/quotations/1/${id}`)).json()) as StoredQuotation;
        expect(stored).toMatchObject({
          origin: 1,
          modality: 1,
          destination: 3,
          departureDate: departure,
          returnDate: back,
          discountCode: 'BIENVENIDA10',
          upgradeCovid: true,
        });
        expect(stored.passangerTypes.map((p) => [p.passengerTypeId, p.quantity]).sort()).toEqual([
          [PassengerType.upTo74, 2],
          [PassengerType.from75To84, 1],
        ]);
      });

      test('a refused trip comes back with its messages beside the fields and the values as typed', async ({
        page,
      }) => {
        const urls = recordUrls(page);
        const { departure } = tripDates(20, 1);
        const earlier = tripDates(10, 1).departure;
        await page.goto('/cotizador');
        const quoter = page.getByRole('form', { name: 'Cotizador de asistencia en viaje' });
        await quoter.getByLabel('Destino').selectOption({ label: 'Asia' });
        await quoter.getByRole('textbox', { name: 'Fecha de salida' }).fill(typed(departure));
        await quoter.getByRole('textbox', { name: 'Fecha de regreso' }).fill(typed(earlier));
        await quoter.getByRole('spinbutton', { name: 'Pasajero de 0 a 74 años' }).fill('0');
        await quoter.getByLabel('Código de descuento').fill('CODIGO77');
        await quoter.getByRole('button', { name: 'Cotizar', exact: true }).click();

        await expect(page.getByText('La fecha de regreso debe ser igual o posterior a la de salida')).toBeVisible();
        const returnField = quoter.getByRole('textbox', { name: 'Fecha de regreso' });
        await expect(returnField).toHaveAttribute('aria-invalid', 'true');
        await expect(returnField).toHaveAccessibleDescription(
          'La fecha de regreso debe ser igual o posterior a la de salida',
        );
        await expect(quoter.getByText('Agrega al menos un pasajero')).toBeVisible();
        // What the visitor typed is still there, rendered by the server.
        await expect(quoter.getByLabel('Destino')).toHaveValue('4');
        await expect(quoter.getByRole('textbox', { name: 'Fecha de salida' })).toHaveValue(typed(departure));
        await expect(returnField).toHaveValue(typed(earlier));
        await expect(quoter.getByLabel('Código de descuento')).toHaveValue('CODIGO77');
        expect(new URL(page.url()).pathname).toBe('/cotizador');
        expectNoValueIn(urls, [departure, earlier, typed(departure), typed(earlier), 'codigo77']);
      });

      test('a destination the chosen modality does not cover is refused in words', async ({ page }) => {
        const { departure } = tripDates(12, 1);
        await page.goto('/');
        const quoter = page.getByRole('form', { name: 'Cotizador de asistencia en viaje' });
        // Without scripts the destination list cannot follow the modality: Europa stays offered for «Anual».
        await quoter.getByLabel('Modalidad').selectOption({ label: 'Anual multiviaje' });
        await quoter.getByLabel('Destino').selectOption({ label: 'Europa' });
        await quoter.getByRole('textbox', { name: 'Fecha de salida' }).fill(typed(departure));
        await quoter.getByRole('button', { name: 'Cotizar', exact: true }).click();

        const destination = quoter.getByLabel('Destino');
        await expect(destination).toHaveAccessibleDescription(
          'Elige un destino disponible para la modalidad Anual multiviaje.',
        );
        await expect(quoter.getByLabel('Modalidad')).toHaveValue('2');
        await expect(destination.getByRole('option', { name: 'Europa' })).toHaveCount(0);
      });

      test('a resumed quotation shows its saved values in the page the server renders', async ({ page, request }) => {
        const { departure, back } = tripDates(30, 6);
        const created = await request.post('/api/quotations/1', {
          data: {
            origin: 1,
            destination: 4,
            modality: 1,
            departureDate: departure,
            returnDate: back,
            passangerTypes: [
              { passengerTypeId: PassengerType.upTo74, quantity: 3 },
              { passengerTypeId: PassengerType.from75To84, quantity: 1 },
            ],
            discountCode: 'BIENVENIDA10',
            upgradeCovid: true,
          },
        });
        expect(created.status()).toBe(201);
        const { id } = (await created.json()) as { id: string };

        await page.goto(`/?cotizacion=${id}`);
        const quoter = page.getByRole('form', { name: 'Cotizador de asistencia en viaje' });
        await expect(quoter.getByLabel('Destino')).toHaveValue('4');
        await expect(quoter.getByRole('textbox', { name: 'Fecha de salida' })).toHaveValue(typed(departure));
        await expect(quoter.getByRole('textbox', { name: 'Fecha de regreso' })).toHaveValue(typed(back));
        await expect(quoter.getByRole('spinbutton', { name: 'Pasajero de 0 a 74 años' })).toHaveValue('3');
        await expect(quoter.getByRole('spinbutton', { name: 'Pasajero de 75 a 84 años' })).toHaveValue('1');
        await expect(quoter.getByLabel('Código de descuento')).toHaveValue('BIENVENIDA10');
        await expect(quoter.getByRole('checkbox', { name: 'Agregar upgrade COVID-19' })).toBeChecked();

        // Changing it without scripts updates the same quotation.
        await quoter.getByRole('spinbutton', { name: 'Pasajero de 0 a 74 años' }).fill('1');
        await quoter.getByRole('button', { name: 'Actualizar cotización' }).click();
        await page.waitForURL(`**/comparador/${id}`);
        const stored = (await (await request.get(`/api/quotations/1/${id}`)).json()) as StoredQuotation;
        expect(stored.passangerTypes.map((p) => [p.passengerTypeId, p.quantity]).sort()).toEqual([
          [PassengerType.upTo74, 1],
          [PassengerType.from75To84, 1],
        ]);
      });

      test('Suscríbete posts natively: the address is saved, the confirmation shows, no URL carries it', async ({
        page,
        storefront,
      }) => {
        const urls = recordUrls(page);
        const address = uniqueAddress();
        await page.goto('/blog');
        const form = page.getByRole('form', { name: 'Suscríbete' });
        await form.getByLabel('Correo electrónico').fill(address);
        await form.getByRole('button', { name: 'Suscribirme' }).click();

        await expect(page.getByText('El email ha sido suscrito')).toBeVisible();
        expect(new URL(page.url()).pathname).toBe('/suscripcion');
        await expect(page.getByRole('link', { name: 'Volver a la página anterior' })).toHaveAttribute('href', '/blog');
        expectNoValueIn(urls, [address]);
        const rows = await storefront.database.db.select().from(subscriptions).where(eq(subscriptions.email, address));
        expect(rows).toHaveLength(1);
      });

      test('a malformed address comes back with «Formato de Email incorrecto», as typed, and is not saved', async ({
        page,
        storefront,
      }) => {
        const urls = recordUrls(page);
        const typedAddress = `correo-malo-${Date.now().toString(36)}`;
        await page.goto('/');
        await page.getByRole('form', { name: 'Suscríbete' }).getByLabel('Correo electrónico').fill(typedAddress);
        await page.getByRole('form', { name: 'Suscríbete' }).getByRole('button', { name: 'Suscribirme' }).click();

        const form = page.getByRole('form', { name: 'Suscríbete' });
        await expect(form.getByRole('alert')).toHaveText('Formato de Email incorrecto');
        await expect(form.getByLabel('Correo electrónico')).toHaveValue(typedAddress);
        await expect(form.getByLabel('Correo electrónico')).toHaveAttribute('aria-invalid', 'true');
        await expect(page.getByText('El email ha sido suscrito')).toHaveCount(0);
        expectNoValueIn(urls, [typedAddress]);
        const rows = await storefront.database.db
          .select()
          .from(subscriptions)
          .where(eq(subscriptions.email, typedAddress));
        expect(rows).toEqual([]);
      });
    });
  }
});

test.describe('the quoter on a slow phone (scripts arrive after the visitor typed)', () => {
  test('what was typed before hydration is kept by the enhanced form and saved', async ({ page, request }) => {
    let releaseScripts = () => {};
    const scriptsReleased = new Promise<void>((resolve) => {
      releaseScripts = resolve;
    });
    await page.route('**/assets/**/*.js', async (route) => {
      await scriptsReleased;
      await route.continue();
    });
    const { departure, back } = tripDates(25, 4);
    await page.goto('/', { waitUntil: 'commit' });
    const quoter = page.getByRole('form', { name: 'Cotizador de asistencia en viaje' });
    await quoter.getByLabel('Destino').selectOption({ label: 'Asia' });
    await quoter.getByRole('textbox', { name: 'Fecha de salida' }).fill(typed(departure));
    await quoter.getByRole('textbox', { name: 'Fecha de regreso' }).fill(typed(back));
    await quoter.getByRole('spinbutton', { name: 'Pasajero de 0 a 74 años' }).fill('3');

    releaseScripts();
    await waitForHydration(page);
    await expect(quoter.getByRole('status', { name: 'Pasajero de 0 a 74 años: 3' })).toHaveText('3');
    await quoter.getByRole('button', { name: 'Cotizar', exact: true }).click();
    await page.waitForURL(/\/comparador\/[0-9a-f-]{36}$/);
    const id = page.url().split('/comparador/')[1] ?? '';
    const stored = (await (await request.get(`/api/quotations/1/${id}`)).json()) as StoredQuotation;
    expect(stored).toMatchObject({ destination: 4, departureDate: departure, returnDate: back });
    expect(stored.passangerTypes.map((p) => [p.passengerTypeId, p.quantity])).toEqual([[PassengerType.upTo74, 3]]);
  });
});
