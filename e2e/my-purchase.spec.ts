import { randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { APIRequestContext } from '@playwright/test';
import { DocumentType } from '@travesia/domain/ids';
import { formatClp } from '@travesia/domain/money';
import { rutCheckDigit } from '@travesia/domain/rut';
import { pdfText } from '../apps/api/test/support/pdf-text.ts';
import type { FakeSmtp } from '../apps/api/test/support/smtp.ts';
import { expectNoViolations } from './support/axe.ts';
import { createQuotation, payAsTheBuyer, savePassengersAndInvoice } from './support/checkout.ts';
import { expect, test } from './support/fixtures.ts';

/** «Mi compra» (issue #12, Access): a buyer without an account opens their purchase with an e-mailed code or link. */

/** A buyer nobody else is: a fresh RUT and e-mail address. */
function freshBuyer() {
  const tag = randomInt(1_000_000, 9_999_999);
  const body = String(randomInt(10_000_000, 25_000_000));
  return { rut: `${body}-${rutCheckDigit(body)}`, email: `comprador.${tag}@example.cl` };
}

/** A sale paid in the sandbox (3 instalments) for the buyer and a companion; answers its number and amount. */
async function paidSale(request: APIRequestContext, buyer: ReturnType<typeof freshBuyer>) {
  const id = await createQuotation(request);
  const companion = {
    dni: `PX${randomInt(100_000, 999_999)}`,
    email: `acompanante.${randomInt(1_000_000, 9_999_999)}@example.cl`,
  };
  await savePassengersAndInvoice(request, id, [
    {
      firstName: 'Pedro',
      birthDate: '1985-07-01',
      document: { type: DocumentType.rut, id: buyer.rut },
      email: buyer.email,
    },
    {
      firstName: 'Jorge',
      birthDate: '1946-05-10',
      document: { type: DocumentType.dni, id: companion.dni },
      email: companion.email,
    },
  ]);
  const started = await request.post('/api/payments', {
    data: { quotationId: id, gatewayId: 'sandbox', consents: { dataProcessing: true, marketing: false } },
  });
  expect(started.status()).toBe(201);
  const { redirectUrl, idVenta, idTransaction } = (await started.json()) as {
    redirectUrl: string;
    idVenta: number;
    idTransaction: number;
  };
  const gatewayPage = new URL(redirectUrl).pathname + new URL(redirectUrl).search;
  const decided = await request.post(gatewayPage, { form: { decision: 'approve', instalments: '3' }, maxRedirects: 0 });
  expect(decided.status()).toBe(303);
  const back = new URL(decided.headers().location ?? '');
  expect((await request.get(back.pathname + back.search, { maxRedirects: 0 })).status()).toBe(303);
  const result = await request.get(`/api/companies/${idTransaction}/payment-result/${idVenta}`);
  const { amountClp } = (await result.json()) as { amountClp: number };
  return { idVenta, amountClp, companion };
}

/** The text of the newest e-mail to `address` whose subject has `subject`, once it has arrived. */
async function mailTo(smtp: FakeSmtp, address: string, subject: string): Promise<string> {
  let text = '';
  await expect
    .poll(() => {
      const mail = smtp.received.filter((m) => m.to.includes(address) && m.parsed.subject?.includes(subject)).at(-1);
      text = mail?.parsed.text ?? '';
      return text;
    })
    .not.toBe('');
  return text;
}

test.describe('mi compra', () => {
  test('a buyer asks for a code, reads it in the e-mail, opens «Mi compra» and downloads the receipt; axe', async ({
    page,
    request,
    storefront,
  }) => {
    test.setTimeout(120_000); // a payment, three axe runs and a download
    const buyer = freshBuyer();
    const sale = await paidSale(request, buyer);

    await page.goto('/mi-compra');
    await expect(page.getByRole('heading', { level: 1, name: 'Mi compra' })).toBeVisible();
    await expectNoViolations(page, 'the request form');

    // An invalid RUT is said in words beside the field.
    await page.getByLabel('N° de compra o de certificado').fill(String(sale.idVenta));
    await page.getByLabel('Tu documento').fill('12.345.678-9');
    await page.getByRole('button', { name: 'Enviar código' }).click();
    await expect(page.getByText('El RUT no es válido.')).toBeVisible();

    await page.getByLabel('Tu documento').fill(buyer.rut.replace('-', ''));
    await page.getByRole('button', { name: 'Enviar código' }).click();
    await expect(page.getByRole('textbox', { name: 'Código' })).toBeVisible();
    await expectNoViolations(page, 'the code form');

    const mail = await mailTo(storefront.smtp, buyer.email, 'código');
    const code = /\b(\d{6})\b/.exec(mail)?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);

    // A wrong code first: the page says so and lets the buyer try again.
    await page.getByRole('textbox', { name: 'Código' }).fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Ver mi compra' }).click();
    await expect(page.getByText('El código no es válido o ya venció.')).toBeVisible();

    await page.getByRole('textbox', { name: 'Código' }).fill(code);
    await page.getByRole('button', { name: 'Ver mi compra' }).click();
    await expect(page.getByText(`Venta N° ${sale.idVenta}`)).toBeVisible();
    await expect(page.getByRole('region', { name: 'Pasajeros' }).getByText('Pedro Muñoz')).toBeVisible();
    await expect(page.getByText(/\d{1,2}\.\*\*\*\.\*\*\*-[\dK]/).first()).toBeVisible();
    await expect(page.getByText(buyer.rut)).toHaveCount(0);
    await expect(page.getByText(`${formatClp(sale.amountClp)} (`)).toBeVisible();
    await expect(page.getByText(/^3 cuotas de \$/)).toBeVisible();
    await expectNoViolations(page, 'the purchase');

    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Descargar comprobante de compra' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('comprobante.pdf');
    const pdf = await readFile((await download.path()) ?? '');
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfText(pdf)).toContain(formatClp(sale.amountClp));

    // Each traveller's own certificate, and the general conditions as a PDF.
    const own = page.getByRole('link', { name: /^Descargar el certificado de Pedro Muñoz/ });
    await expect(own).toBeVisible();
    const ownPdf = await page.request.get((await own.getAttribute('href')) ?? '');
    expect(ownPdf.headers()['content-type']).toBe('application/pdf');
    expect(pdfText(await ownPdf.body())).toContain('Pedro Muñoz');
    const conditions = page.getByRole('link', { name: /^Condiciones generales \(PDF\)/ });
    expect((await page.request.get((await conditions.getAttribute('href')) ?? '')).headers()['content-type']).toBe(
      'application/pdf',
    );

    // The boleta the payment issued (by the local provider: a test document, and it says so), with its PDF.
    const taxDocuments = page.getByRole('region', { name: 'Documentos tributarios' });
    await expect(async () => {
      await page.reload();
      await expect(taxDocuments.getByText(/^Boleta (exenta )?electrónica N° \d+$/)).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await expect(taxDocuments.getByText('Sin valor tributario (documento de prueba)')).toBeVisible();
    await expect(taxDocuments.getByText(formatClp(sale.amountClp))).toBeVisible();
    const boleta = taxDocuments.getByRole('link', { name: /^Descargar PDF de Boleta/ });
    const boletaPdf = await page.request.get((await boleta.getAttribute('href')) ?? '');
    expect(boletaPdf.headers()['content-type']).toBe('application/pdf');
    expect(pdfText(await boletaPdf.body())).toContain('SIN VALOR TRIBUTARIO');
    await expectNoViolations(page, 'the purchase with its tax document');

    // What the buyer accepted when paying, each text at its version then, and that very text one click away.
    const accepted = page.getByRole('region', { name: 'Lo que aceptaste al pagar' });
    const terms = accepted.getByRole('link', { name: 'Términos y condiciones' });
    await expect(terms).toHaveAttribute('href', /^\/terminos\?version=\d+$/);
    await expect(accepted).toContainText(/Términos y condiciones, versión \d+ del \d{2}-\d{2}-\d{4}/);

    // «Salir» closes it: the documents no longer open.
    await page.getByRole('button', { name: 'Salir' }).click();
    await expect(page.getByRole('button', { name: 'Enviar código' })).toBeVisible();
    const after = await page.request.get('/mi-compra/comprobante.pdf', { maxRedirects: 0 });
    expect(after.status()).toBe(302);
  });

  test('the link in the purchase e-mail opens «Mi compra» directly; a tampered link says it is not valid @phone', async ({
    page,
    request,
    storefront,
  }) => {
    test.slow(); // a payment first
    const buyer = freshBuyer();
    const sale = await paidSale(request, buyer);
    const mail = await mailTo(storefront.smtp, buyer.email, `venta N° ${sale.idVenta}`);
    const link = /(https?:\/\/\S+\/mi-compra\?enlace=[\w.-]+)/.exec(mail)?.[1] ?? '';
    expect(link).not.toBe('');
    const path = new URL(link).pathname + new URL(link).search;

    await page.goto(`${path.slice(0, -2)}xx`);
    await expect(page.getByText('El enlace no es válido o ya venció.')).toBeVisible();

    // The redirect that sets the «Mi compra» cookie is never stored, and the page sends no Referer to other sites.
    const exchanged = await request.get(path, { maxRedirects: 0 });
    expect(exchanged.status()).toBe(302);
    expect(exchanged.headers()['set-cookie']).toContain('travesia-mi-compra=');
    expect(exchanged.headers()['cache-control']).toContain('no-store');
    expect(exchanged.headers()['referrer-policy']).toBe('same-origin');
    const opened = await request.get('/mi-compra');
    expect(opened.headers()['cache-control']).toContain('no-store');
    expect(opened.headers()['referrer-policy']).toBe('same-origin');

    await page.goto(path);
    await expect(page).toHaveURL(/\/mi-compra$/);
    await expect(page.getByText(`Venta N° ${sale.idVenta}`)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Descargar comprobante de compra' })).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(page.viewportSize()?.width ?? 1280);
  });
});

test.describe('mi compra: the buyer and the travellers', () => {
  test('a traveller opens only her own trip: her certificate, no other traveller, no payment, nothing to withdraw or change; axe', async ({
    page,
    request,
    storefront,
  }) => {
    test.setTimeout(120_000); // a payment, a code and a download
    const buyer = freshBuyer();
    const sale = await paidSale(request, buyer);
    await page.goto('/mi-compra');
    await page.getByLabel('N° de compra o de certificado').fill(String(sale.idVenta));
    await page.getByLabel('Tipo de documento').selectOption('dni');
    await page.getByLabel('Tu documento').fill(sale.companion.dni);
    await page.getByRole('button', { name: 'Enviar código' }).click();
    await expect(page.getByRole('textbox', { name: 'Código' })).toBeVisible();
    // The code goes to her own address, never to the buyer's.
    const mail = await mailTo(storefront.smtp, sale.companion.email, 'código');
    await page.getByRole('textbox', { name: 'Código' }).fill(/\b(\d{6})\b/.exec(mail)?.[1] ?? '');
    await page.getByRole('button', { name: 'Ver mi compra' }).click();

    await expect(page.getByText(`Venta N° ${sale.idVenta} · viaje de Jorge Muñoz`)).toBeVisible();
    await expect(page.getByText('Entraste como pasajero')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Tu viaje' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Tu certificado' })).toBeVisible();
    const main = page.locator('#contenido');
    await expect(main).not.toContainText('Pedro');
    await expect(main).not.toContainText(formatClp(sale.amountClp));
    for (const hidden of ['Tu pago', 'Pasajeros', 'Derecho a retracto', 'Cambiar fechas']) {
      await expect(page.getByRole('heading', { name: hidden })).toHaveCount(0);
    }
    await expect(page.getByRole('button', { name: 'Retractarme' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Descargar comprobante de compra' })).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Documentos tributarios' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Verificar mi certificado' })).toHaveAttribute(
      'href',
      /\/verificar\/[0-9A-Z]{10}$/,
    );
    const own = page.getByRole('link', { name: 'Descargar mi certificado' });
    const ownPdf = await page.request.get((await own.getAttribute('href')) ?? '');
    expect(ownPdf.headers()['content-type']).toBe('application/pdf');
    const text = pdfText(await ownPdf.body());
    expect(text).toContain('Jorge Muñoz');
    expect(text).not.toContain('Pedro');
    // The buyer's documents are not hers: the receipt's address sends her back to her «Mi compra».
    expect((await page.request.get('/mi-compra/comprobante.pdf', { maxRedirects: 0 })).status()).toBe(302);
    await expectNoViolations(page, 'a traveller’s purchase');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(page.viewportSize()?.width ?? 1280);
  });

  test('the browser that paid opens «Mi compra» as the buyer without a code; «Salir» closes it; /login leads there', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000); // a payment through the pages
    const success = await payAsTheBuyer(page, request);
    const idVenta = new URL(success, 'http://x').searchParams.get('venta');
    await page.locator('#contenido').getByRole('link', { name: 'Mi compra', exact: true }).click();
    await expect(page).toHaveURL('/mi-compra');
    await expect(page.getByText(`Venta N° ${idVenta}`)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Tu pago' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Pasajeros' })).toBeVisible();
    await page.getByRole('button', { name: 'Salir' }).click();
    await expect(page.getByRole('button', { name: 'Enviar código' })).toBeVisible();
    // «Salir» sticks: the next visit asks for a code.
    await page.goto('/login');
    await expect(page).toHaveURL('/mi-compra');
    await expect(page.getByRole('button', { name: 'Enviar código' })).toBeVisible();
  });
});

test.describe('mi compra without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('every step is a plain form post: ask for the code, type it, see the purchase, leave', async ({
    page,
    request,
    storefront,
  }) => {
    test.slow(); // a payment first
    const buyer = freshBuyer();
    const sale = await paidSale(request, buyer);
    await page.goto('/mi-compra');
    await page.getByLabel('N° de compra o de certificado').fill(String(sale.idVenta));
    await page.getByLabel('Tipo de documento').selectOption('rut');
    await page.getByLabel('Tu documento').fill(buyer.rut);
    await page.getByRole('button', { name: 'Enviar código' }).click();
    const mail = await mailTo(storefront.smtp, buyer.email, 'código');
    await page.getByRole('textbox', { name: 'Código' }).fill(/\b(\d{6})\b/.exec(mail)?.[1] ?? '');
    await page.getByRole('button', { name: 'Ver mi compra' }).click();
    await expect(page.getByText(`Venta N° ${sale.idVenta}`)).toBeVisible();
    await page.getByRole('button', { name: 'Salir' }).click();
    await expect(page.getByRole('button', { name: 'Enviar código' })).toBeVisible();
  });
});
