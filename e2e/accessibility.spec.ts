import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { demoCompany } from '../apps/api/src/db/seed/demo-company.ts';
import { createQuotation, savePassengersAndInvoice, startSandboxPayment } from './support/checkout.ts';
import { expect, test } from './support/fixtures.ts';
import { apiOutage } from './support/outage.ts';
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

  test('the error page (the API unavailable on a purchase step)', async ({ page, request, storefront }) => {
    const id = await createQuotation(request);
    const end = apiOutage(storefront.app, (url) => url.startsWith(`/api/quotations/1/${id}`), 503);
    try {
      await openHydrated(page, `/compra/411/${id}`);
    } finally {
      end();
    }
    await expect(page.getByRole('heading', { name: 'Esta página no está disponible por el momento' })).toBeVisible();
    await expectNoViolations(page, 'the error page');
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

  test('refund request with errors, and refund tracking with an unknown number', async ({ page }) => {
    test.setTimeout(90_000); // three axe runs over long forms
    await openHydrated(page, '/reembolsos');
    await expectNoViolations(page, '/reembolsos');
    await page.getByRole('button', { name: 'Enviar solicitud' }).click();
    await expect(page.getByText('Ingresa el nombre del titular')).toBeVisible();
    await expectNoViolations(page, '/reembolsos with errors');
    await openHydrated(page, '/reembolsos/seguimiento');
    await page.getByLabel('Número de solicitud').fill('R-ZZZZZZZZ');
    await page.getByLabel('Documento del titular').fill('12.345.678-5');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await expect(page.getByText(/No encontramos una solicitud/)).toBeVisible();
    await expectNoViolations(page, '/reembolsos/seguimiento, not found');
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
    for (const path of ['/faq']) {
      await openHydrated(page, path);
      await expectNoViolations(page, path);
    }
  });

  test('blog list, a category and two articles (with and without an image)', async ({ page }) => {
    test.setTimeout(90_000);
    const article = demoCompany.blog.posts.find((post) => post.id === 4);
    for (const path of [
      '/blog',
      '/blog?categoria=destinos',
      `/blog-interior/4/${article?.slug}`,
      '/blog-interior/9/que-cubre-una-asistencia-en-viaje',
    ]) {
      await openHydrated(page, path);
      await expectNoViolations(page, path);
    }
  });

  test('legal pages', async ({ page }) => {
    test.setTimeout(90_000);
    for (const path of ['/terminos', '/politicas', '/informacion-legal']) {
      await openHydrated(page, path);
      await expectNoViolations(page, path);
    }
  });

  test('contact directory, contact form (empty and with every error) and its confirmation', async ({ page }) => {
    test.slow(); // four axe runs
    await openHydrated(page, '/contactanos');
    await expect(page.getByTestId('contact-large')).toHaveCount(2);
    await expectNoViolations(page, '/contactanos');
    await openHydrated(page, '/contacto');
    await expect(page.getByRole('checkbox', { name: 'No soy un robot' })).toBeVisible();
    await expectNoViolations(page, '/contacto');
    await page.getByRole('button', { name: 'Enviar solicitud' }).click();
    await expect(page.getByText('Debe ingresar su Nombre y Apellido')).toBeVisible();
    await expectNoViolations(page, '/contacto with errors');
    await openHydrated(page, '/confirmacion');
    await expectNoViolations(page, '/confirmacion');
  });

  test('content pages: FAQ (open, searched, no match), about us, purchase mock-up, members and login', async ({
    page,
  }) => {
    test.slow(); // several axe runs
    await openHydrated(page, '/faq');
    await page.getByRole('button', { name: /^Compra y pago/ }).click();
    await page.getByRole('button', { name: '¿Qué medios de pago aceptan?' }).click();
    await expectNoViolations(page, '/faq with a category and an answer open');
    await page.getByRole('searchbox').fill('equipaje');
    await expectNoViolations(page, '/faq searched');
    await page.getByRole('searchbox').fill('submarino');
    await expect(page.getByText('No encontramos preguntas')).toBeVisible();
    await expectNoViolations(page, '/faq with no match');
    for (const path of ['/quienes-somos', '/contratacion', '/europmembers', '/login']) {
      await openHydrated(page, path);
      await expectNoViolations(page, path);
    }
  });

  test('content pages at 360 px @phone', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    for (const path of ['/faq', '/quienes-somos', '/contratacion']) {
      await openHydrated(page, path);
      await expectNoViolations(page, `${path} at 360 px`);
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
    test.slow(); // several axe runs
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
    test.slow(); // several axe runs
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
    // This browser did not start the payment: the approval without the buyer's details.
    await openHydrated(page, success);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Tu pago fue aprobado');
    await expectNoViolations(page, '/exito in another browser');

    // The buyer's own browser: pays from the payment step and lands on the full success page.
    const own = await createQuotation(request);
    await savePassengersAndInvoice(request, own);
    await openHydrated(page, `/pago/411/${own}`);
    await page.getByRole('radio', { name: 'Pago de prueba (sin cargo real)' }).check();
    await page.getByRole('checkbox', { name: /^Autorizo el tratamiento/ }).check();
    await page.getByRole('button', { name: /^Pagar / }).click();
    await page.waitForURL(/\/api\/payments\/sandbox\//);
    await page.getByRole('button', { name: 'Aprobar pago' }).click();
    await page.waitForURL(/\/exito\?venta=\d+&transaccion=\d+/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Gracias');
    await expectNoViolations(page, '/exito');

    await openHydrated(page, '/error?motivo=desconocido');
    await expectNoViolations(page, '/error?motivo=desconocido');
  });

  test('certificate search after an empty search, and the verification page of an unknown code', async ({ page }) => {
    await openHydrated(page, '/certificados');
    await page.getByRole('button', { name: 'Buscar', exact: true }).click();
    await expect(page.getByText('Campo Obligatorio')).toBeVisible();
    await expectNoViolations(page, '/certificados with an error');
    await page.goto('/certificados?tipo=email&valor=nadie%40example.cl');
    await expect(page.getByText('No se encontraron certificados')).toBeVisible();
    await expectNoViolations(page, '/certificados with no result');
    await page.goto('/verificar/ZZZZZZZZZZ');
    await expect(page.getByRole('heading', { level: 1, name: 'Certificado no encontrado' })).toBeVisible();
    await expectNoViolations(page, '/verificar/{unknown code}');
  });
});
