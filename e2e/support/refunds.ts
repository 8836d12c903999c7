import type { APIRequestContext, Page } from '@playwright/test';
import { todayInChile } from '@travesia/domain/dates';
import { DocumentType, PassengerType } from '@travesia/domain/ids';
import { savePassengersAndInvoice } from './checkout.ts';
import { expect } from './fixtures.ts';
import { tripDates } from './quote.ts';

/**
 * What a refund claim stands on (issue 22: a paid, valid certificate of the document given, for a day it covers): a
 * sale paid through the sandbox for a trip that leaves today, for Pedro (RUT 12.345.678-5) and Jorge (passport
 * PA1234567). Answers each one's certificate number and today, a day of their cover.
 */
export async function coveredClaim(request: APIRequestContext) {
  const { departure, back } = tripDates(0, 10);
  const created = await request.post('/api/quotations/1', {
    data: {
      origin: 1,
      destination: 3,
      modality: 1,
      departureDate: departure,
      returnDate: back,
      passangerTypes: [
        { passengerTypeId: PassengerType.upTo74, quantity: 1 },
        { passengerTypeId: PassengerType.from75To84, quantity: 1 },
      ],
      planId: 411,
    },
  });
  expect(created.status()).toBe(201);
  const quotationId = ((await created.json()) as { id: string }).id;
  await savePassengersAndInvoice(request, quotationId, [
    {
      firstName: 'Pedro',
      birthDate: '1985-07-01',
      document: { type: DocumentType.rut, id: '12.345.678-5' },
      email: 'pedro.reembolso@example.cl',
    },
    {
      firstName: 'Jorge',
      birthDate: '1946-05-10',
      document: { type: DocumentType.passport, id: 'PA1234567' },
      email: 'jorge.reembolso@example.cl',
    },
  ]);
  const started = await request.post('/api/payments', {
    data: { quotationId, gatewayId: 'sandbox', consents: { dataProcessing: true, marketing: false } },
  });
  expect(started.status()).toBe(201);
  const { redirectUrl, accessToken, idVenta, idTransaction } = (await started.json()) as {
    redirectUrl: string;
    accessToken: string;
    idVenta: number;
    idTransaction: number;
  };
  const gatewayPage = new URL(redirectUrl).pathname + new URL(redirectUrl).search;
  const decided = await request.post(gatewayPage, { form: { decision: 'approve', instalments: '1' }, maxRedirects: 0 });
  expect(decided.status()).toBe(303);
  const back303 = new URL(decided.headers().location ?? '');
  expect((await request.get(back303.pathname + back303.search, { maxRedirects: 0 })).status()).toBe(303);
  const result = await request.get(`/api/companies/${idTransaction}/payment-result/${idVenta}?token=${accessToken}`);
  const { certificates } = (await result.json()) as { certificates: { number: string; name: string }[] };
  const numberOf = (name: string) => certificates.find((c) => c.name === name)?.number ?? '';
  expect(numberOf('Pedro')).toMatch(/^TRV-/);
  return { rutCertificate: numberOf('Pedro'), passportCertificate: numberOf('Jorge'), incident: todayInChile() };
}

type Claim = Awaited<ReturnType<typeof coveredClaim>>;

/** The store's claim form (/reembolsos) filled for Ana María Pérez on `claim`'s RUT certificate, files aside. */
export async function fillRefundForm(page: Page, email: string, claim: Claim) {
  await page.getByLabel('Nombre y apellido').fill('Ana María Pérez');
  await page.getByLabel('Número de documento').fill('12.345.678-5');
  await page.getByLabel('Correo electrónico del titular').fill(email);
  await page.getByLabel('Teléfono del titular').fill('+56 9 1234 5678');
  await page.getByLabel('Número de certificado o de venta').fill(claim.rutCertificate);
  await page.getByLabel('Fecha del incidente').fill(claim.incident);
  await page.getByLabel('Cuéntanos qué pasó').fill('Consulta médica en Madrid por una gastroenteritis.');
  await page.getByLabel('Monto a reembolsar').fill('185.000');
  await page.getByLabel('Banco').selectOption({ label: 'BancoEstado' });
  await page.getByLabel('Tipo de cuenta').selectOption('vista');
  await page.getByLabel('Número de cuenta').fill('12345678');
}
