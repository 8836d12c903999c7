import { randomInt } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { addDays, todayInChile } from '@travesia/domain/dates';
import { DocumentType } from '@travesia/domain/ids';
import { rutCheckDigit } from '@travesia/domain/rut';
import { pdfText } from '../apps/api/test/support/pdf-text.ts';
import { expectNoViolations } from './support/axe.ts';
import { createQuotation, savePassengersAndInvoice } from './support/checkout.ts';
import { expect, test } from './support/fixtures.ts';
import { waitForHydration } from './support/shell.ts';

/** A holder nobody else has: a fresh RUT, a passport for the companion and e-mail addresses of their own. */
function freshHolder() {
  const tag = randomInt(1_000_000, 9_999_999);
  const body = String(randomInt(10_000_000, 25_000_000));
  return {
    rut: `${body}-${rutCheckDigit(body)}`,
    passport: `PX${tag}`,
    email: `titular.${tag}@example.cl`,
    companionEmail: `acompanante.${tag}@example.cl`,
  };
}

/** A sale paid through the sandbox for Pedro (the holder, by RUT) and Jorge (passport), to Europe's first country. */
async function paidSale(request: APIRequestContext, holder: ReturnType<typeof freshHolder>) {
  const id = await createQuotation(request);
  await savePassengersAndInvoice(request, id, [
    {
      firstName: 'Pedro',
      birthDate: '1985-07-01',
      document: { type: DocumentType.rut, id: holder.rut },
      email: holder.email,
    },
    {
      firstName: 'Jorge',
      birthDate: '1946-05-10',
      document: { type: DocumentType.dni, id: holder.passport },
      email: holder.companionEmail,
    },
  ]);
  const started = await request.post('/api/payments', {
    data: { quotationId: id, gatewayId: 'sandbox', consents: { dataProcessing: true, marketing: false } },
  });
  expect(started.status()).toBe(201);
  const { redirectUrl, accessToken } = (await started.json()) as { redirectUrl: string; accessToken: string };
  const gatewayPage = new URL(redirectUrl).pathname + new URL(redirectUrl).search;
  const decided = await request.post(gatewayPage, { form: { decision: 'approve', instalments: '1' }, maxRedirects: 0 });
  expect(decided.status()).toBe(303);
  const back = new URL(decided.headers().location ?? '');
  const returned = await request.get(back.pathname + back.search, { maxRedirects: 0 });
  expect(returned.status()).toBe(303);
  const success = new URL(returned.headers().location ?? '', 'http://x');
  return { quotationId: id, idVenta: Number(success.searchParams.get('venta')), accessToken };
}

const keyword = (page: Page) => page.getByRole('textbox', { name: /del titular/ });
const searchButton = (page: Page) => page.getByRole('button', { name: 'Buscar', exact: true });

/** The code printed (with its QR code) on the sale's certificate PDF as the buyer downloads it. */
async function printedCode(request: APIRequestContext, sale: { idVenta: number; accessToken: string }) {
  const pdf = await request.get(`/api/certificates/b2c/${sale.idVenta}/certificado.pdf?token=${sale.accessToken}`);
  expect(pdf.status()).toBe(200);
  const code = /\/verificar\/([0-9A-Z]{10})/.exec(pdfText(await pdf.body()))?.[1] ?? '';
  expect(code).not.toBe('');
  return code;
}

/** «dd-mm-aaaa», as the page writes days. */
const shown = (iso: string) => iso.split('-').reverse().join('-');

test.describe('certificados', () => {
  test('search by e-mail (default), RUT and passport; empty, invalid and re-validation on type change; axe', async ({
    page,
    request,
  }) => {
    const holder = freshHolder();
    await paidSale(request, holder);
    await page.goto('/certificados');
    await waitForHydration(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Certificados' })).toBeVisible();
    await expect(page.getByRole('radio', { name: 'Email' })).toBeChecked();
    await expect(keyword(page)).toHaveAttribute('placeholder', 'Ingresa Email del titular');

    // Empty, then invalid: the spec's messages, no search.
    await searchButton(page).click();
    await expect(page.getByText('Campo Obligatorio')).toBeVisible();
    await keyword(page).fill('pedro@');
    await expect(page.getByText('Ingrese un Email valido')).toBeVisible();
    await expectNoViolations(page, '/certificados with an error');
    // Changing the type re-applies its rule.
    await page.getByRole('radio', { name: 'RUT' }).check();
    await expect(page.getByText('Ingrese un RUT valido')).toBeVisible();
    await expect(keyword(page)).toHaveAttribute('placeholder', 'Ingresa RUT del titular');
    await keyword(page).fill(holder.rut.replace('-', ''));
    await expect(page.getByText('Ingrese un RUT valido')).toBeVisible(); // spec §5: the RUT needs its hyphen
    await page.getByRole('radio', { name: 'Pasaporte' }).check();
    await keyword(page).fill('AB 1');
    await expect(page.getByText('Ingrese un Pasaporte valido')).toBeVisible();

    // By RUT: the holder's card, e-mail masked.
    await page.getByRole('radio', { name: 'RUT' }).check();
    await keyword(page).fill(holder.rut);
    await searchButton(page).click();
    const cards = page.getByRole('listitem').filter({ hasText: 'Certificado N°' });
    await expect(cards).toHaveCount(1);
    await expect(cards.first()).toContainText('Pedro');
    await expect(cards.first()).toContainText('Muñoz');
    await expect(cards.first()).toContainText('ti***@ex***.cl');
    await expect(cards.first().getByRole('link', { name: 'Condiciones Generales' })).toHaveAttribute(
      'href',
      '/terminos',
    );
    await expect(cards.first().getByRole('link', { name: 'Procedimiento Activación' })).toBeVisible();
    // The download flag is off by default (spec §6).
    await expect(page.getByRole('link', { name: 'Descargar Certificado' })).toHaveCount(0);
    await expectNoViolations(page, '/certificados with a result');

    // By passport: the companion's own card.
    await page.getByRole('radio', { name: 'Pasaporte' }).check();
    await keyword(page).fill(holder.passport);
    await searchButton(page).click();
    await expect(cards).toHaveCount(1);
    await expect(cards.first()).toContainText('Jorge');

    // By e-mail: shown as typed; nothing found says so.
    await page.getByRole('radio', { name: 'Email' }).check();
    await keyword(page).fill(holder.email);
    await searchButton(page).click();
    await expect(cards.first()).toContainText(holder.email);
    await keyword(page).fill('nadie.compro@example.cl');
    await searchButton(page).click();
    await expect(page.getByText('No se encontraron certificados')).toBeVisible();
  });

  test('«Enviar Certificado» sends to the address on the certificate', async ({ page, request, storefront }) => {
    const holder = freshHolder();
    const sale = await paidSale(request, holder);
    await page.goto(`/certificados?tipo=passport&valor=${holder.passport}`);
    await waitForHydration(page);
    // The automatic certificate e-mails of the payment first (the buyer's and the companion's own; the tax document's
    // says «compra N°»), so only the send is counted.
    await expect
      .poll(() => storefront.smtp.received.filter((m) => m.parsed.subject?.includes(`venta N° ${sale.idVenta}`)).length)
      .toBe(2);
    const before = storefront.smtp.received.length;
    await page.getByRole('button', { name: 'Enviar Certificado' }).click();
    await expect(page.getByText('Enviamos el certificado al correo del titular.')).toBeVisible();
    await expect
      .poll(() =>
        storefront.smtp.received
          .slice(before)
          .filter(
            (m) => m.parsed.subject?.includes(`venta N° ${sale.idVenta}`) && m.to.includes(holder.companionEmail),
          ),
      )
      .toHaveLength(1);
    const sent = storefront.smtp.received
      .slice(before)
      .filter((m) => m.parsed.subject?.includes(`venta N° ${sale.idVenta}`));
    expect(sent.flatMap((m) => m.to).filter((to) => to !== holder.companionEmail && to !== holder.email)).toEqual([]);
  });

  test('without JavaScript: the GET form searches and the POST form sends', async ({ browser, request, baseURL }) => {
    const holder = freshHolder();
    await paidSale(request, holder);
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const page = await context.newPage();
    await page.goto('/certificados');
    await page.getByRole('radio', { name: 'RUT' }).check();
    await keyword(page).fill(holder.rut);
    await searchButton(page).click();
    await expect(page).toHaveURL(/tipo=rut/);
    await expect(page.getByText('Pedro')).toBeVisible();
    await page.getByRole('button', { name: 'Enviar Certificado' }).click();
    await expect(page.getByText('Enviamos el certificado al correo del titular.')).toBeVisible();
    // A bad keyword is refused by the server with the same message.
    await page.goto('/certificados?tipo=rut&valor=123');
    await expect(page.getByText('Ingrese un RUT valido')).toBeVisible();
    await context.close();
  });

  test('the verification page, reached from the code printed in the PDF; an unknown code; axe', async ({
    page,
    request,
  }) => {
    const sale = await paidSale(request, freshHolder());
    // The PDF as the buyer downloads it (with the access token the payment start gave the buyer's browser).
    const pdf = await request.get(`/api/certificates/b2c/${sale.idVenta}/certificado.pdf?token=${sale.accessToken}`);
    expect(pdf.status()).toBe(200);
    const text = pdfText(await pdf.body());
    const printed = /\/verificar\/([0-9A-Z]{10})/.exec(text)?.[1];
    expect(printed).toBeTruthy();
    await page.goto(`/verificar/${printed}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Verificación de certificado' })).toBeVisible();
    await expect(page.getByText('Certificado SIN VALOR')).toBeVisible(); // a sandbox payment
    await expect(page.getByText('P. M. · J. M.')).toBeVisible();
    await expect(page.locator('body')).not.toContainText('Pedro');
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
    await expectNoViolations(page, '/verificar/{code}');

    const unknown = await page.goto('/verificar/ZZZZZZZZZZ');
    expect(unknown?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Certificado no encontrado' })).toBeVisible();
  });

  test('a code a date change replaced: the page says «reemplazado» with the date and the dates it had, nothing of the new trip; the new code shows the new trip; axe', async ({
    page,
    request,
    storefront,
  }) => {
    const holder = freshHolder();
    const sale = await paidSale(request, holder);
    const oldCode = await printedCode(request, sale);
    // «Mi compra» opened with the link of the buyer's e-mail, then the trip moved two days (same price: at once).
    let link = '';
    await expect
      .poll(() => {
        const mail = storefront.smtp.received.find(
          (m) => m.to.includes(holder.email) && m.parsed.subject?.includes(`venta N° ${sale.idVenta}`),
        );
        link = /\/mi-compra\?enlace=([\w.-]+)/.exec(mail?.parsed.text ?? '')?.[1] ?? '';
        return link;
      })
      .not.toBe('');
    const opened = await request.post('/api/purchases/access/link', { data: { link } });
    expect(opened.status()).toBe(200);
    const headers = { authorization: `Bearer ${((await opened.json()) as { token: string }).token}` };
    const before = (await (await request.get('/api/purchases/mine', { headers })).json()) as {
      departureDate: string;
      returnDate: string;
    };
    const moved = { departureDate: addDays(before.departureDate, 2), returnDate: addDays(before.returnDate, 2) };
    const changed = await request.post('/api/purchases/mine/date-change', { headers, data: moved });
    expect(changed.status()).toBe(200);
    expect(await changed.json()).toMatchObject({ status: 'applied' });
    const newCode = await printedCode(request, sale);
    expect(newCode).not.toBe(oldCode);

    await page.goto(`/verificar/${oldCode}`);
    await expect(page.getByText('Certificado REEMPLAZADO')).toBeVisible();
    const body = page.locator('body');
    const replacedOn = page.locator('dl > div').filter({ hasText: 'Reemplazado el' }).locator('dd');
    await expect(replacedOn).toHaveText(shown(todayInChile()));
    await expect(body).toContainText(`${shown(before.departureDate)} al ${shown(before.returnDate)}`);
    for (const newer of [shown(moved.departureDate), shown(moved.returnDate), newCode]) {
      await expect(body).not.toContainText(newer);
    }
    await expectNoViolations(page, '/verificar/{code} of a replaced certificate');

    await page.goto(`/verificar/${newCode}`);
    await expect(page.getByText('Certificado SIN VALOR')).toBeVisible(); // a sandbox payment
    await expect(body).toContainText(`${shown(moved.departureDate)} al ${shown(moved.returnDate)}`);
    await expect(body).not.toContainText('REEMPLAZADO');
  });
});
