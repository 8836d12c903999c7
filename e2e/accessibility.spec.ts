import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Page } from '@playwright/test';
import { demoCompany } from '../apps/api/src/db/seed/demo-company.ts';
import { currentVerificationCode } from '../apps/api/src/modules/certificates/repository.ts';
import { changeStatus } from '../apps/api/src/modules/claims/service.ts';
import { expectNoViolations, viewports } from './support/axe.ts';
import { createQuotation, payAsTheBuyer, savePassengersAndInvoice, startSandboxPayment } from './support/checkout.ts';
import { expect, test } from './support/fixtures.ts';
import { expectVisibleFocus, tabTo, typeInto } from './support/keyboard.ts';
import { apiOutage } from './support/outage.ts';
import { tripDates, typed } from './support/quote.ts';
import { coveredClaim } from './support/refunds.ts';
import { mainNav, openHydrated, seed, waitForHydration } from './support/shell.ts';

// DESIGN: WCAG 2.2 AA. Every route of apps/web/app/routes.ts, with real data where it has some, in the states a
// visitor really sees it (menus and modals open, the calendar open, form errors shown), at 390 px and 1280 px, must
// have no axe violation (rules tagged for WCAG 2.0/2.1/2.2 A and AA). No rule is disabled and no element excluded,
// third-party markup (Radix dialogs and popover, react-day-picker's calendar) included.

const helpButtonLabel = seed.navigation.items.find((item) => item.isButton)?.label ?? '';
const dropdownLabel = seed.navigation.items.find((item) => item.isMenu)?.label ?? '';

/** Follows the sandbox gateway's approval by hand (API) up to the store's /exito address, answered as a path. */
async function approveInSandbox(request: APIRequestContext, gateway: string, decision = 'approve'): Promise<string> {
  const decided = await request.post(gateway, { form: { decision, instalments: '3' }, maxRedirects: 0 });
  expect(decided.status()).toBe(303);
  const back = await request.get(decided.headers().location ?? '', { maxRedirects: 0 });
  expect(back.status()).toBe(303);
  return back.headers().location ?? '';
}

/** The phone's menu opened when the viewport hides the navigation behind it (below 1024 px). */
async function openMenuIfFolded(page: Page) {
  const toggle = mainNav(page).getByRole('button', { name: 'Menú' });
  if (await toggle.isVisible()) {
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  }
}

/** A refund request stored through the API (spec §7), answering its number. */
async function storedRefund(request: APIRequestContext): Promise<string> {
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer\n%%EOF\n');
  const claim = await coveredClaim(request);
  const answer = await request.post('/api/companies/1/refunds', {
    data: {
      nombreTitular: 'Ana María Pérez',
      tipoDocumento: 1,
      numeroDocumento: '12.345.678-5',
      email: 'ana.axe@example.cl',
      telefono: '+56 9 1234 5678',
      numeroCertificado: claim.rutCertificate,
      descripcion: 'Consulta médica en Madrid por una gastroenteritis.',
      fechaIncidente: claim.incident,
      monto: 185000,
      moneda: 'CLP',
      banco: '012',
      tipoCuenta: 'vista',
      numeroCuenta: '12345678',
      documentos: [{ nombre: 'boleta.pdf', contenido: pdf.toString('base64') }],
    },
  });
  expect(answer.status(), await answer.text()).toBe(204);
  return answer.headers()['x-refund-number'] ?? '';
}

// The longest file of the suite; its tests share nothing but the worker's store, so they spread over the workers.
test.describe.configure({ mode: 'parallel' });

for (const viewport of viewports) {
  const phone = viewport.width < 1024;
  test.describe(`accessibility at ${viewport.width} px (axe, WCAG 2.2 AA)`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });
    // Each axe run over a long page takes seconds on a busy machine: room for two or three of them per test.
    test.describe.configure({ timeout: 120_000 });
    test('home: the help and upgrade modals, the navigation menus open', async ({ page }) => {
      test.slow(); // five axe runs
      await openHydrated(page, '/');
      await expectNoViolations(page, 'home');

      if (phone) {
        await openMenuIfFolded(page);
        await expectNoViolations(page, 'home, the phone menu open');
      }
      const dropdown = mainNav(page).getByRole('button', { name: dropdownLabel, exact: true });
      await dropdown.click();
      await expect(dropdown).toHaveAttribute('aria-expanded', 'true');
      await expectNoViolations(page, `home, the «${dropdownLabel}» menu open`);
      await dropdown.click();

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

    test('home by its other addresses, the quoter modes, the newsletter page and an unknown path', async ({ page }) => {
      test.slow(); // six axe runs
      for (const path of [
        '/home',
        '/home/PROMO10',
        '/cotizador',
        '/cotizador/partner',
        '/suscripcion',
        '/suscripcion/confirmar?token=desconocido',
      ]) {
        await openHydrated(page, path);
        await expectNoViolations(page, path);
      }
      // Spec §2: any other path lands on home.
      await openHydrated(page, '/no-existe/xyz');
      await expect(page).toHaveURL('/');
      await expectNoViolations(page, 'an unknown path (home)');
    });

    test('the error pages: the API unavailable on a purchase step, a declined payment, an unknown reason', async ({
      page,
      request,
      storefront,
    }) => {
      test.slow(); // four axe runs
      const id = await createQuotation(request);
      const end = apiOutage(storefront.app, (url) => url.startsWith(`/api/quotations/1/${id}`), 503);
      try {
        await openHydrated(page, `/compra/411/${id}`);
      } finally {
        end();
      }
      await expect(page.getByRole('heading', { name: 'Esta página no está disponible por el momento' })).toBeVisible();
      await expectNoViolations(page, 'the error page');

      await savePassengersAndInvoice(request, id);
      const declined = await approveInSandbox(request, await startSandboxPayment(request, id), 'decline');
      expect(declined).toMatch(/^\/error\?venta=\d+&transaccion=\d+$/);
      await openHydrated(page, declined);
      await expect(page.getByText('Tu banco rechazó el pago')).toBeVisible();
      await expectNoViolations(page, '/error of a declined payment');

      for (const path of ['/error', '/error?motivo=desconocido']) {
        await openHydrated(page, path);
        await expectNoViolations(page, path);
      }
    });

    test('refund request (empty, with errors), tracking of a stored request and of an unknown number', async ({
      page,
      request,
      storefront,
    }) => {
      test.slow(); // five axe runs over long forms
      await openHydrated(page, '/reembolsos');
      await expectNoViolations(page, '/reembolsos');
      await page.getByRole('button', { name: 'Enviar solicitud' }).click();
      await expect(page.getByText('Ingresa el nombre del titular')).toBeVisible();
      await expectNoViolations(page, '/reembolsos with errors');

      await openHydrated(page, '/reembolsos/seguimiento');
      await expectNoViolations(page, '/reembolsos/seguimiento');
      await page.getByLabel('Número de solicitud').fill('R-ZZZZZZZZ');
      await page.getByLabel('Documento del titular').fill('12.345.678-5');
      await page.getByRole('button', { name: 'Buscar' }).click();
      await expect(page.getByText(/No encontramos una solicitud/)).toBeVisible();
      await expectNoViolations(page, '/reembolsos/seguimiento, not found');

      const number = await storedRefund(request);
      await changeStatus(storefront.database.db, number, { status: 'faltan_documentos', missing: 'Boleta original' });
      await openHydrated(page, `/reembolsos/seguimiento?numero=${number}`);
      await page.getByLabel('Documento del titular').fill('12.345.678-5');
      await page.getByRole('button', { name: 'Buscar' }).click();
      await expect(page.getByRole('heading', { name: 'Estado: Faltan documentos' })).toBeVisible();
      await expectNoViolations(page, '/reembolsos/seguimiento of a request missing documents');
    });

    test('blog list, a category and two articles', async ({ page }) => {
      test.slow();
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
      test.slow();
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
      await expectNoViolations(page, '/faq');
      await page.getByRole('button', { name: /^Compra y pago/ }).click();
      await page.getByRole('button', { name: '¿Qué medios de pago aceptan?' }).click();
      await expectNoViolations(page, '/faq with a category and an answer open');
      await page.getByRole('searchbox').fill('equipaje');
      await expectNoViolations(page, '/faq searched');
      await page.getByRole('searchbox').fill('submarino');
      await expect(page.getByText('No encontramos preguntas')).toBeVisible();
      await expectNoViolations(page, '/faq with no match');
      for (const path of ['/quienes-somos', '/contratacion', '/europmembers']) {
        await openHydrated(page, path);
        await expectNoViolations(page, path);
      }
    });

    test('plans of a real quotation (cards and table) and its preview', async ({ page, request }) => {
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

    test('purchase steps with data and with errors: passengers, billing (with the invoice) and payment', async ({
      page,
      request,
    }) => {
      test.slow(); // several axe runs
      const id = await createQuotation(request);
      await openHydrated(page, `/compra/411/${id}`);
      await expectNoViolations(page, 'passengers, empty');
      await page.getByRole('button', { name: 'Continuar a facturación' }).click();
      await expect(page.getByRole('alert').first()).toBeVisible();
      await expectNoViolations(page, 'passengers, after a submit with errors');

      await savePassengersAndInvoice(request, id);
      await openHydrated(page, `/compra/411/${id}`);
      await expect(page.getByRole('region', { name: /Pasajero 1/ }).getByLabel('Nombre', { exact: true })).toHaveValue(
        'Pedro',
      );
      await expectNoViolations(page, 'passengers, as saved');
      await openHydrated(page, `/facturacion/411/${id}`);
      await expectNoViolations(page, 'billing');
      await page.getByLabel('Necesito factura').check();
      await page.getByRole('button', { name: 'Continuar al pago' }).click();
      await expect(page.getByRole('group', { name: 'Datos de la empresa' }).getByRole('alert').first()).toBeVisible();
      await expectNoViolations(page, 'billing with the invoice asked for and its errors');

      await openHydrated(page, `/pago/411/${id}`);
      await page.getByRole('button', { name: /^Pagar / }).click();
      await expect(page.getByText('Elige un medio de pago')).toBeVisible();
      await expectNoViolations(page, 'payment, no gateway chosen');
    });

    test('sandbox gateway, and /exito in the buyer’s browser and in another one', async ({ page, request }) => {
      test.slow(); // several axe runs
      const id = await createQuotation(request);
      await savePassengersAndInvoice(request, id);
      const gateway = await startSandboxPayment(request, id);
      await page.goto(gateway);
      await expect(page.getByRole('button', { name: 'Aprobar pago' })).toBeVisible();
      await expectNoViolations(page, 'sandbox gateway page');

      // This browser did not start the payment: the approval without the buyer's details.
      const success = await approveInSandbox(request, gateway);
      expect(success).toMatch(/^\/exito\?venta=\d+&transaccion=\d+$/);
      await openHydrated(page, success);
      await expect(page.getByRole('heading', { level: 1 })).toContainText('Tu pago fue aprobado');
      await expectNoViolations(page, '/exito in another browser');

      // The buyer's own browser: pays from the payment step and lands on the full success page.
      await payAsTheBuyer(page, request);
      await expect(page.getByRole('heading', { level: 1 })).toContainText('Gracias');
      await expectNoViolations(page, '/exito');
    });

    test('certificate search (error, results, none) and the verification page (real and unknown code)', async ({
      page,
      request,
      storefront,
    }) => {
      test.slow(); // five axe runs
      const id = await createQuotation(request);
      await savePassengersAndInvoice(request, id);
      const success = await approveInSandbox(request, await startSandboxPayment(request, id));
      const sale = Number(new URL(success, 'http://x').searchParams.get('venta'));

      await openHydrated(page, '/certificados');
      await page.getByRole('button', { name: 'Buscar', exact: true }).click();
      await expect(page.getByText('Campo Obligatorio')).toBeVisible();
      await expectNoViolations(page, '/certificados with an error');
      await openHydrated(page, '/certificados?tipo=email&valor=pedro%40example.cl');
      await expect(page.getByRole('listitem').filter({ hasText: 'Certificado N°' }).first()).toBeVisible();
      await expectNoViolations(page, '/certificados with results');
      await page.goto('/certificados?tipo=email&valor=nadie%40example.cl');
      await expect(page.getByText('No se encontraron certificados')).toBeVisible();
      await expectNoViolations(page, '/certificados with no result');

      await page.goto(`/verificar/${await currentVerificationCode(storefront.database.db, sale)}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Verificación de certificado' })).toBeVisible();
      await expectNoViolations(page, '/verificar/{code}');
      await page.goto('/verificar/ZZZZZZZZZZ');
      await expect(page.getByRole('heading', { level: 1, name: 'Certificado no encontrado' })).toBeVisible();
      await expectNoViolations(page, '/verificar/{unknown code} (404)');
    });
  });
}

test.describe('the whole purchase with the keyboard alone', () => {
  // A visitor in Chile: the calendar's «today» is the quoter's first day (todayInChile), whatever the machine's zone.
  test.use({ timezoneId: 'America/Santiago' });

  test('quoter → plans → passengers → billing → sandbox gateway → /exito → certificate PDF, by Tab, arrows, Space, Enter and typing', async ({
    page,
  }) => {
    test.setTimeout(300_000); // some hundred key presses, each awaited
    const { departure, back } = tripDates(20, 10);
    await openHydrated(page, '/');

    // The quoter: the destination by typing its name on the focused list, the departure from the calendar by
    // arrows and Enter, the return typed dd-mm-aaaa, a second traveller with the stepper.
    await tabTo(page, page.getByLabel('Destino'));
    await expectVisibleFocus(page, 'home, «Destino»');
    await page.keyboard.type('Europa');
    await expect(page.getByLabel('Destino').locator('option:checked')).toHaveText('Europa');
    const calendarButton = page.getByRole('button', { name: 'Abrir calendario: Fecha de salida' });
    await tabTo(page, calendarButton);
    await expectVisibleFocus(page, 'home, the calendar button');
    await page.keyboard.press('Enter');
    const calendar = page.getByRole('dialog', { name: 'Calendario: Fecha de salida' });
    await expect(calendar.getByRole('grid')).toBeVisible();
    // The calendar opens on today (the first day that can be chosen), focused: 20 days on by arrows.
    await expect(calendar.getByRole('gridcell').locator('button:focus')).toBeVisible();
    await expectVisibleFocus(page, 'the calendar, its day');
    for (let day = 0; day < 20; day += 1) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await expect(calendar).toBeHidden();
    await expect(calendarButton).toBeFocused();
    await expect(page.getByRole('textbox', { name: 'Fecha de salida' })).toHaveValue(typed(departure));
    await typeInto(page, page.getByRole('textbox', { name: 'Fecha de regreso' }), typed(back));
    await expect(page.getByRole('textbox', { name: 'Fecha de regreso' })).toHaveValue(typed(back));
    await tabTo(page, page.getByRole('button', { name: 'Agregar pasajero de 75 a 84 años' }));
    await page.keyboard.press('Space');
    await expect(page.getByRole('status', { name: 'Pasajero de 75 a 84 años: 1' })).toBeVisible();
    await tabTo(page, page.getByRole('button', { name: 'Cotizar', exact: true }));
    await expectVisibleFocus(page, 'home, «Cotizar»');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/comparador\/[0-9a-f-]{36}/);
    const quotationId = page.url().split('/comparador/')[1]?.split(/[?#]/)[0] ?? '';

    // The plans: «Elegir plan» of Travesía Plus.
    await expect(page.getByRole('article').first()).toBeVisible();
    const choose = page.getByRole('button', { name: 'Elegir plan: Travesía Plus' });
    await tabTo(page, choose, { max: 200 });
    await expectVisibleFocus(page, 'plans, «Elegir plan»');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/compra/411/${quotationId}`);

    // Passengers: every field typed after reaching it by Tab; the selects by typing an option's first letters.
    await waitForHydration(page);
    const travellers = [
      { name: 'Camila', lastName: 'Rojas Soto', birth: '15-03-1990', gender: 'Femenino', id: '12.345.678-5' },
      { name: 'Jorge', lastName: 'Fernández', birth: '10-05-1948', gender: 'Masculino', id: '7.654.321-6' },
    ];
    for (const [index, traveller] of travellers.entries()) {
      const block = page.getByRole('region', { name: new RegExp(`Pasajero ${index + 1}`) });
      await typeInto(page, block.getByLabel('Nombre', { exact: true }), traveller.name);
      await typeInto(page, block.getByLabel('Apellido', { exact: true }), traveller.lastName);
      await typeInto(page, block.getByRole('textbox', { name: 'Fecha de nacimiento' }), traveller.birth);
      await tabTo(page, block.getByLabel('Género'));
      await page.keyboard.type(traveller.gender);
      await expect(block.getByLabel('Género')).toHaveValue(traveller.gender[0] ?? '');
      await typeInto(page, block.getByLabel('RUT/DNI'), traveller.id);
      await typeInto(page, block.getByLabel('E-mail'), `${traveller.name.toLowerCase()}@example.cl`);
      await typeInto(page, block.getByLabel('Teléfono'), '+56 9 1234 5678');
    }
    const emergency = page.getByRole('region', { name: 'Contacto de emergencia' });
    await typeInto(page, emergency.getByLabel('Nombre', { exact: true }), 'Ana');
    await typeInto(page, emergency.getByLabel('Apellido', { exact: true }), 'Rojas');
    await typeInto(page, emergency.getByLabel('Teléfono'), '+56 2 2345 6789');
    await tabTo(page, page.getByLabel('País de destino'));
    // A list's type-ahead takes keys: «Espa» (the «ñ» is no key of a US keyboard the test could press).
    await page.keyboard.type('Espa');
    await expect(page.getByLabel('País de destino').locator('option:checked')).toHaveText('España');
    const terms = page.getByRole('checkbox', { name: 'Acepto los términos y condiciones' });
    await tabTo(page, terms);
    await expectVisibleFocus(page, 'passengers, the terms checkbox');
    await page.keyboard.press('Space');
    await expect(terms).toBeChecked();
    await tabTo(page, page.getByRole('button', { name: 'Continuar a facturación' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/facturacion/411/${quotationId}`);

    // Billing: the address, a boleta (no invoice).
    await waitForHydration(page);
    await typeInto(page, page.getByLabel('Dirección', { exact: true }).first(), 'Av. Providencia');
    await typeInto(page, page.getByLabel('Número'), '1234');
    await typeInto(page, page.getByLabel('Localidad / Comuna'), 'Providencia');
    await tabTo(page, page.getByLabel('Provincia / Región'));
    await page.keyboard.type('Metropolitana');
    await expect(page.getByLabel('Provincia / Región')).toHaveValue('Metropolitana de Santiago');
    await tabTo(page, page.getByRole('button', { name: 'Continuar al pago' }));
    await expectVisibleFocus(page, 'billing, «Continuar al pago»');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/pago/411/${quotationId}`);

    // Payment: Tab reaches the gateway group (nothing preselected), the arrows move to the sandbox, Space chooses.
    await waitForHydration(page);
    const sandbox = page.getByRole('radio', { name: 'Pago de prueba (sin cargo real)' });
    await tabTo(page, page.getByRole('radio').first());
    await expectVisibleFocus(page, 'payment, the first gateway');
    for (let i = 0; i < 5 && !(await sandbox.isChecked()); i += 1) await page.keyboard.press('ArrowDown');
    await expect(sandbox).toBeChecked();
    await expect(sandbox).toBeFocused();
    const consent = page.getByRole('checkbox', { name: /^Autorizo el tratamiento/ });
    await tabTo(page, consent);
    await expectVisibleFocus(page, 'payment, the required consent');
    await page.keyboard.press('Space');
    await expect(consent).toBeChecked();
    await tabTo(page, page.getByRole('button', { name: /^Pagar / }));
    await page.keyboard.press('Enter');

    // The sandbox gateway's own page: instalments by arrows, «Aprobar pago» by Enter.
    await page.waitForURL(/\/api\/payments\/sandbox\//);
    await tabTo(page, page.getByLabel('Cuotas'));
    await expectVisibleFocus(page, 'sandbox gateway, «Cuotas»');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(page.getByLabel('Cuotas')).toHaveValue('3');
    await tabTo(page, page.getByRole('button', { name: 'Aprobar pago' }));
    await expectVisibleFocus(page, 'sandbox gateway, «Aprobar pago»');
    await page.keyboard.press('Enter');

    // /exito: the certificate downloads with Enter on its link.
    await page.waitForURL(/\/exito\?venta=\d+&transaccion=\d+/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Gracias');
    await expect(page.getByText('3 cuotas sin interés')).toBeVisible();
    await waitForHydration(page);
    const download = page.getByRole('link', { name: 'Descargar Certificado' });
    await tabTo(page, download);
    await expectVisibleFocus(page, '/exito, «Descargar Certificado»');
    const [file] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(file.suggestedFilename()).toBe('certificado.pdf');
    const pdf = await readFile((await file.path()) ?? '');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
