import { readFile } from 'node:fs/promises';
import { Nationality } from '@travesia/domain/ids';
import { eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { certificates, sales } from '../apps/api/src/db/schema.ts';
import { pdfStrings } from '../apps/api/test/support/pdf-text.ts';
import { createQuotation, savePassengersAndInvoice } from './support/checkout.ts';
import { expect, test } from './support/fixtures.ts';
import { fillQuoter, submitQuoter, tripDates } from './support/quote.ts';

test.describe('checkout, payment and certificate', () => {
  test('quote → plan → passengers (RUT and DNI) → company invoice → sandbox in 3 instalments → éxito → PDF and e-mail', async ({
    page,
    storefront,
  }, testInfo) => {
    testInfo.setTimeout(90_000);
    const { departure, back } = tripDates(10, 10);
    await fillQuoter(page, { destination: 'Europa', departure, back, adults: 1, seniors: 1 });
    const quotationId = await submitQuoter(page);
    await page
      .getByRole('article')
      .filter({ hasText: 'Travesía Plus' })
      .getByRole('button', { name: /Elegir/ })
      .click();
    await page.waitForURL(`**/compra/411/${quotationId}`);

    // Passengers: a Chilean adult with a RUT, a senior with a DNI, one shared emergency contact.
    const first = page.getByRole('region', { name: /Pasajero 1/ });
    await first.getByLabel('Nombre', { exact: true }).fill('Camila');
    await first.getByLabel('Apellido', { exact: true }).fill('Rojas Soto');
    await first.getByLabel('Fecha de nacimiento', { exact: true }).fill('15-03-1990');
    await first.getByLabel('Género').selectOption('F');
    await first.getByLabel('RUT/DNI').fill('12.345.678-5');
    await first.getByLabel('E-mail').fill('camila@example.cl');
    await first.getByLabel('Teléfono').fill('+56 9 1234 5678');
    const second = page.getByRole('region', { name: /Pasajero 2/ });
    await second.getByLabel('Nombre', { exact: true }).fill('Jorge');
    await second.getByLabel('Apellido', { exact: true }).fill('Fernández');
    await second.getByLabel('Fecha de nacimiento', { exact: true }).fill('10-05-1948');
    await second.getByLabel('Género').selectOption('M');
    await second.getByLabel('Nacionalidad').selectOption(String(Nationality.other));
    await second.getByLabel('Tipo de documento').selectOption({ label: 'DNI' });
    await second.getByLabel('RUT/DNI').fill('AB123456');
    await second.getByLabel('E-mail').fill('jorge@example.com');
    await second.getByLabel('Teléfono').fill('+54 11 5555 1234');
    const emergency = page.getByRole('region', { name: 'Contacto de emergencia' });
    await emergency.getByLabel('Nombre', { exact: true }).fill('Ana');
    await emergency.getByLabel('Apellido', { exact: true }).fill('Rojas');
    await emergency.getByLabel('Teléfono').fill('+56 2 2345 6789');
    await page.getByLabel('País de destino').selectOption({ label: 'España' });
    await page.getByLabel('Acepto los términos y condiciones').check();
    await page.getByRole('button', { name: 'Continuar a facturación' }).click();
    await page.waitForURL(`**/facturacion/411/${quotationId}`);

    // Billing with a company invoice.
    await page.getByLabel('Dirección', { exact: true }).first().fill('Av. Providencia');
    await page.getByLabel('Número').fill('1234');
    await page.getByLabel('Localidad / Comuna').fill('Providencia');
    await page.getByLabel('Provincia / Región').selectOption('Metropolitana de Santiago');
    await page.getByLabel('Necesito factura').check();
    const company = page.getByRole('group', { name: 'Datos de la empresa' });
    await company.getByLabel('Razón social').fill('Viajes Andinos SpA');
    await company.getByLabel('RUT').fill('76.086.428-5');
    await company.getByLabel('Giro').fill('Agencia de viajes');
    await company.getByLabel('Dirección').fill('Av. Apoquindo 4500, Las Condes');
    await company.getByLabel('E-mail').fill('facturas@viajesandinos.cl');
    await page.getByRole('button', { name: 'Continuar al pago' }).click();
    await page.waitForURL(`**/pago/411/${quotationId}`);

    // Pay through the sandbox gateway in 3 interest-free instalments: the visitor is told it is a test payment,
    // where it is chosen and on the gateway's own page.
    await expect(page.getByText('Hasta 6 cuotas sin interés').first()).toBeVisible();
    // Every way to split the total, with what each instalment is; 6 of them is the summary's figure.
    const options = page.getByRole('list', { name: 'Cuotas sin interés' }).getByRole('listitem');
    await expect(options).toHaveCount(6);
    await expect(options.first()).toHaveText(/^1 cuota de \$[\d.]+$/);
    const sixth = (await options.last().textContent())?.match(/\$[\d.]+$/)?.[0];
    await expect(page.getByText(`Hasta 6 cuotas sin interés de ${sixth}`)).toBeVisible();
    const third = (await options.nth(2).textContent())?.match(/\$[\d.]+$/)?.[0];
    const testGateway = page.getByRole('radio', { name: 'Pago de prueba (sin cargo real)' });
    await expect(testGateway).toBeVisible();
    // The real gateway is listed first and nothing is preselected: the buyer chooses.
    const gateways = page.getByRole('radio');
    await expect(gateways.first()).toHaveAccessibleName('Webpay Plus');
    await expect(gateways.last()).toHaveAccessibleName('Pago de prueba (sin cargo real)');
    await expect(testGateway).not.toBeChecked();
    // This store runs Webpay on Transbank's integration environment: its option says, beside its name, that it takes
    // test payments (issue 22), as the sandbox's does.
    // (The badge is a box of its own: accessible-name rules put a space around its text.)
    await expect(gateways.first()).toHaveAccessibleDescription(
      /^Pago de prueba ?\. Ambiente de integración de Transbank: no se cobra dinero real\.$/,
    );
    await expect(page.getByText('Ambiente de integración de Transbank: no se cobra dinero real.')).toBeVisible();
    // The general conditions, next to the withdrawal notice and the consent boxes, open as a real PDF.
    const conditions = page.getByRole('link', { name: /^Condiciones generales \(PDF\)/ });
    await expect(conditions).toBeVisible();
    const conditionsPdf = await page.request.get((await conditions.getAttribute('href')) ?? '');
    expect(conditionsPdf.headers()['content-type']).toBe('application/pdf');
    expect((await conditionsPdf.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfStrings(await conditionsPdf.body()).join(' ')).toContain('Términos y condiciones');
    await expect(page.getByRole('radio', { name: 'Webpay Plus' })).not.toBeChecked();
    await testGateway.check();
    await page.getByRole('checkbox', { name: /^Autorizo el tratamiento/ }).check();
    await page.getByRole('button', { name: /^Pagar / }).click();
    await page.waitForURL(/\/api\/payments\/sandbox\//);
    await expect(page.getByRole('banner')).toHaveText('PAGO DE PRUEBA — SIN VALOR');
    await expect(page).toHaveTitle(/^PAGO DE PRUEBA — SIN VALOR/);
    await page.getByLabel('Cuotas').selectOption('3');
    await page.getByRole('button', { name: 'Aprobar pago' }).click();
    await page.waitForURL(/\/exito\?venta=\d+&transaccion=\d+/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Gracias');
    // The payment type and what each of the 3 instalments is, as Transbank asks commerces to show them.
    await expect(page.getByText(`3 cuotas sin interés de ${third}`)).toBeVisible();
    await expect(page.getByText('Crédito, cuotas sin interés')).toBeVisible();
    // The buyer's page is never cached, and its address never leaves for another site as a Referer.
    const own = await page.request.get(page.url());
    expect(own.headers()['cache-control']).toBe('private, no-store');
    expect(own.headers()['referrer-policy']).toBe('same-origin');
    // Paid through the test gateway: the page says the certificate has no value.
    await expect(page.getByRole('note')).toContainText('SIN VALOR — PAGO DE PRUEBA');

    const [sale] = await storefront.database.db.select().from(sales).where(eq(sales.quotationId, quotationId));
    expect(sale?.status).toBe('paid');
    const issued = await storefront.database.db
      .select()
      .from(certificates)
      .where(eq(certificates.saleId, sale?.id ?? 0));
    expect(issued).toHaveLength(2);
    for (const certificate of issued) await expect(page.getByText(certificate.number)).toBeVisible();
    // Each traveller's own certificate: a link per traveller, whose PDF names that traveller only.
    const ownLinks = page.getByRole('link', { name: /^Descargar el certificado de / });
    await expect(ownLinks).toHaveCount(2);
    const [jorgeDownload] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: /^Descargar el certificado de Jorge/ }).click(),
    ]);
    expect(jorgeDownload.suggestedFilename()).toMatch(/^certificado-TRV-.+-\d\.pdf$/);
    const jorgeText = pdfStrings(await readFile((await jorgeDownload.path()) ?? '')).join(' ');
    expect(jorgeText).toContain('Jorge Fernández');
    expect(jorgeText).not.toContain('Camila');

    // The downloaded file is a valid PDF naming the passengers.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Descargar Certificado' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('certificado.pdf');
    const pdf = await readFile((await download.path()) ?? '');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await PDFDocument.load(pdf)).getPageCount()).toBeGreaterThanOrEqual(1);
    const text = pdfStrings(pdf).join(' ');
    expect(text).toContain('Camila Rojas Soto');
    expect(text).toContain('Jorge Fernández');
    expect(text).toContain('SIN VALOR');

    // The same success address in another browser (a forwarded link): approved, but no names and no certificate.
    const stranger = await page.context().browser()?.newContext();
    if (!stranger) throw new Error('no second browser context');
    const strangerPage = await stranger.newPage();
    await strangerPage.goto(page.url());
    await expect(strangerPage.getByRole('heading', { name: 'Tu pago fue aprobado' })).toBeVisible();
    await expect(strangerPage.getByText('Camila')).toHaveCount(0);
    await expect(strangerPage.getByRole('link', { name: 'Descargar Certificado' })).toHaveCount(0);
    await stranger.close();

    // The automatic certificate e-mails («venta N°») reach the SMTP server: the buyer (the first traveller: the quote
    // step asks no e-mail) with both PDFs, Jorge with his own only, each addressed alone; «Enviar Certificado» sends
    // them again.
    await expect
      .poll(() => storefront.smtp.received.filter((m) => m.parsed.subject?.includes(`venta N° ${sale?.id}`)).length)
      .toBe(2);
    const mails = storefront.smtp.received.filter((m) => m.parsed.subject?.includes(`venta N° ${sale?.id}`));
    expect(mails.map((m) => m.to)).toEqual([['camila@example.cl'], ['jorge@example.com']]);
    expect(mails.map((m) => m.parsed.attachments.length)).toEqual([2, 1]);
    // The factura the billing step asked for follows on its own, to the buyer, as a PDF; the store's local provider
    // issues it without tax value and the e-mail says so.
    const facturaSubject = new RegExp(`^Factura (exenta )?electrónica N° \\d+ · compra N° ${sale?.id}$`);
    const factura = () => storefront.smtp.received.find((m) => facturaSubject.test(m.parsed.subject ?? ''));
    await expect.poll(() => factura()?.to).toEqual(['camila@example.cl']);
    expect(factura()?.parsed.text).toContain('SIN VALOR TRIBUTARIO');
    expect(factura()?.parsed.attachments[0]?.content.subarray(0, 5).toString()).toBe('%PDF-');
    const attachment = mails[1]?.parsed.attachments[0];
    expect(attachment?.content.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfStrings(attachment?.content ?? Buffer.alloc(0)).join(' ')).not.toContain('Camila');
    await page.getByRole('button', { name: 'Enviar Certificado' }).click();
    await expect(page.getByText('Te enviamos el certificado a tu correo')).toBeVisible();
    await expect
      .poll(() => storefront.smtp.received.filter((m) => m.parsed.subject?.includes(`venta N° ${sale?.id}`)).length)
      .toBe(4);
  });

  test('a declined payment lands on the error page with a way to pay again', async ({ page, request }, testInfo) => {
    testInfo.setTimeout(60_000); // two trips to the gateway's page and back
    // Steps 1–2 through the API (the journey above covers their pages).
    const id = await createQuotation(request, 410);
    await savePassengersAndInvoice(request, id);

    await page.goto(`/pago/410/${id}`);
    // «Pagar» before choosing a gateway says so in words and goes nowhere.
    // Neither consent is ticked for the buyer, and the withdrawal right is stated before paying.
    const consent = page.getByRole('checkbox', { name: /^Autorizo el tratamiento/ });
    await expect(consent).not.toBeChecked();
    await expect(page.getByRole('checkbox', { name: /^Quiero recibir ofertas/ })).not.toBeChecked();
    await expect(page.getByTestId('withdrawal-notice')).toContainText('Derecho a retracto');
    await page.getByRole('button', { name: /^Pagar / }).click();
    await expect(page.getByText('Elige un medio de pago')).toBeVisible();
    await expect(
      page.getByText('Debes autorizar el tratamiento de los datos de los pasajeros para contratar'),
    ).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/pago/410/${id}$`));
    await page.getByRole('radio', { name: 'Pago de prueba (sin cargo real)' }).check();
    await page.getByRole('checkbox', { name: /^Autorizo el tratamiento/ }).check();
    await page.getByRole('button', { name: /^Pagar / }).click();
    await page.waitForURL(/\/api\/payments\/sandbox\//);
    await page.getByRole('button', { name: 'Rechazar pago' }).click();
    await page.waitForURL(/\/error\?venta=\d+&transaccion=\d+/);
    await expect(page.getByText('Tu banco rechazó el pago')).toBeVisible();
    // A test attempt's failure says it was one, as its success page would.
    await expect(page.getByRole('note')).toHaveText(
      'Pago de prueba: este intento se hizo en un ambiente de prueba; no se cobra dinero real.',
    );

    // «Intentar nuevamente» goes back to pay, and this time it works.
    await page.getByRole('link', { name: 'Intentar nuevamente' }).click();
    await page.waitForURL(`**/pago/410/${id}`);
    await page.getByRole('radio', { name: 'Pago de prueba (sin cargo real)' }).check();
    await page.getByRole('checkbox', { name: /^Autorizo el tratamiento/ }).check();
    await page.getByRole('button', { name: /^Pagar / }).click();
    await page.waitForURL(/\/api\/payments\/sandbox\//);
    await page.getByRole('button', { name: 'Aprobar pago' }).click();
    await page.waitForURL(/\/exito\?/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Gracias');
  });
});
