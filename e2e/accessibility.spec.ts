import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { tripDates } from './support/quote.ts';
import { mainNav, openHydrated, seed } from './support/shell.ts';

// DESIGN: WCAG 2.2 AA. Every visitor page, in the states a visitor really sees it, must have no axe violation
// (rules tagged for WCAG 2.0/2.1/2.2 A and AA). No rule is disabled and no element excluded, third-party markup
// (Radix dialogs and popover, react-day-picker's calendar) included.
const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Runs axe on the page as it is now; a violation fails the test (softly, so one run lists every state's problems)
 * naming the rule and the elements involved.
 */
async function expectNoViolations(page: Page, state: string) {
  const { violations } = await new AxeBuilder({ page }).withTags(wcagTags).analyze();
  const report = violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help}\n${violation.nodes
        .map((node) => `    ${node.target.join(' ')}\n      ${node.failureSummary?.replace(/\n/g, '\n      ')}`)
        .join('\n')}`,
  );
  expect.soft(report, `axe violations on ${state}`).toEqual([]);
}

const helpButtonLabel = seed.navigation.items.find((item) => item.isButton)?.label ?? '';

/** A two-traveller quotation for Europe with a plan chosen, created through the API as the quoter would. */
async function createQuotation(request: APIRequestContext, planId = 411): Promise<string> {
  const { departure, back } = tripDates(15, 8);
  const created = await request.post('/api/quotations/1', {
    data: {
      origin: 1,
      destination: 3,
      modality: 1,
      departureDate: departure,
      returnDate: back,
      passangerTypes: [
        { passengerTypeId: 1, quantity: 1 },
        { passengerTypeId: 2, quantity: 1 },
      ],
      planId,
    },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

/** Steps 1 and 2 saved through the API (the bodies of e2e/checkout.spec.ts). */
async function savePassengersAndInvoice(request: APIRequestContext, id: string) {
  const countries = (await (await request.get('/api/companies/1/destinations/3/countries')).json()) as {
    id: number;
  }[];
  const passenger = (firstName: string, birthDate: string, document: string, email: string) => ({
    firstName,
    lastName: 'Muñoz',
    gender: 'M',
    birthDate,
    nationality: 9,
    document: { type: 1, id: document },
    email,
    phone: '+56911112222',
    emergencyContact: null,
  });
  const saved = await request.put(`/api/quotations/${id}/passangers`, {
    data: {
      shareEmergencyContact: true,
      emergencyContact: { firstName: 'Ana', lastName: 'Rojas', phone: '+56223456789' },
      countryDestination: countries[0]?.id,
      passangers: [
        passenger('Pedro', '1985-07-01', '7.654.321-6', 'pedro@example.cl'),
        passenger('Jorge', '1946-05-10', '12.345.678-5', 'jorge@example.cl'),
      ],
    },
  });
  expect(saved.status(), await saved.text()).toBe(204);
  const invoice = await request.post(`/api/quotations/${id}/invoice-details`, {
    data: {
      personalInformation: {
        address: 'Los Leones',
        streetNumber: '100',
        apartment: null,
        locality: 'Providencia',
        province: 'Metropolitana de Santiago',
      },
      generateInvoice: false,
      companyDetails: null,
    },
  });
  expect(invoice.status()).toBe(204);
}

/** Starts a sandbox payment of the quotation; answers the gateway's page path. */
async function startSandboxPayment(request: APIRequestContext, quotationId: string): Promise<string> {
  const started = await request.post('/api/payments', { data: { quotationId, gatewayId: 'sandbox' } });
  expect(started.status()).toBe(201);
  const { redirectUrl } = (await started.json()) as { redirectUrl: string };
  return new URL(redirectUrl).pathname + new URL(redirectUrl).search;
}

test.describe('accessibility (axe, WCAG 2.2 AA)', () => {
  test('home, with the help and upgrade modals open', async ({ page }) => {
    await openHydrated(page, '/');
    await expectNoViolations(page, 'home');

    await mainNav(page).getByRole('button', { name: helpButtonLabel, exact: true }).click();
    const help = page.getByRole('dialog', { name: '¿Necesitas ayuda o información?' });
    await expect(help).toBeVisible();
    await expectNoViolations(page, 'home with the help modal');
    await page.keyboard.press('Escape');
    await expect(help).toBeHidden();

    await page.getByRole('button', { name: 'Conoce el upgrade COVID-19' }).click();
    const upgrade = page.getByRole('dialog', { name: 'Upgrade COVID-19' });
    await expect(upgrade).toBeVisible();
    await expectNoViolations(page, 'home with the upgrade modal');
    await page.keyboard.press('Escape');
    await expect(upgrade).toBeHidden();
  });

  test('home quoter: errors after an empty submit, and the calendar open', async ({ page }) => {
    await openHydrated(page, '/');
    await page.getByRole('button', { name: 'Cotizar', exact: true }).click();
    await expect(page.getByRole('alert').first()).toBeVisible();
    await expectNoViolations(page, 'home quoter with errors');

    await page.getByRole('button', { name: 'Abrir calendario: Fecha de salida' }).click();
    await expect(page.getByRole('grid')).toBeVisible();
    await expectNoViolations(page, 'home quoter, calendar open');
  });

  test('home at 360 px with the menu open @phone', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await openHydrated(page, '/');
    await mainNav(page).getByRole('button', { name: 'Menú' }).click();
    await expect(mainNav(page).getByRole('button', { name: helpButtonLabel, exact: true })).toBeVisible();
    await expectNoViolations(page, 'home at 360 px, menu open');
  });

  test('quoter mode and placeholder pages', async ({ page }) => {
    await openHydrated(page, '/cotizador');
    await expectNoViolations(page, '/cotizador');
    for (const path of ['/faq', '/contactanos']) {
      await openHydrated(page, path);
      await expectNoViolations(page, path);
    }
  });

  test('comparator (cards and table) and preview', async ({ page, request }) => {
    const id = await createQuotation(request);
    await openHydrated(page, `/comparador/${id}`);
    await expect(page.getByRole('article').first()).toBeVisible();
    await expectNoViolations(page, 'comparator, cards');

    await openHydrated(page, `/comparador/${id}?vista=comparar`);
    await expect(page.getByRole('table')).toBeVisible();
    await expectNoViolations(page, 'comparator, table');

    await page.goto(`/preview/${id}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoViolations(page, 'preview');
  });

  test('purchase steps: passengers (empty and with errors), billing and payment', async ({ page, request }) => {
    const id = await createQuotation(request);
    await openHydrated(page, `/compra/411/${id}`);
    await expectNoViolations(page, 'passengers, empty');
    await page.getByRole('button', { name: 'Continuar a facturación' }).click();
    await expect(page.getByRole('alert').first()).toBeVisible();
    await expectNoViolations(page, 'passengers, after a submit with errors');

    await savePassengersAndInvoice(request, id);
    await openHydrated(page, `/facturacion/411/${id}`);
    await expectNoViolations(page, 'billing');
    await openHydrated(page, `/pago/411/${id}`);
    await expect(page.getByRole('button', { name: /^Pagar / })).toBeVisible();
    await expectNoViolations(page, 'payment');
  });

  test('sandbox gateway, success and error pages', async ({ page, request }) => {
    const id = await createQuotation(request);
    await savePassengersAndInvoice(request, id);
    const gateway = await startSandboxPayment(request, id);
    await page.goto(gateway);
    await expect(page.getByRole('button', { name: 'Aprobar pago' })).toBeVisible();
    await expectNoViolations(page, 'sandbox gateway page');

    // Approve through the API and follow the gateway's redirects by hand up to the store's /exito address.
    const decided = await request.post(gateway, {
      form: { decision: 'approve', instalments: '3' },
      maxRedirects: 0,
    });
    expect(decided.status()).toBe(303);
    const back = await request.get(decided.headers().location ?? '', { maxRedirects: 0 });
    expect(back.status()).toBe(303);
    const success = back.headers().location ?? '';
    expect(success).toMatch(/^\/exito\?venta=\d+&transaccion=\d+$/);
    await openHydrated(page, success);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Gracias');
    await expectNoViolations(page, '/exito');

    await openHydrated(page, '/error?motivo=desconocido');
    await expectNoViolations(page, '/error?motivo=desconocido');
  });
});
