import { describe, expect, it } from 'vitest';
import { saleSearchOf, salesApiQuery, salesPageQuery } from '#app/features/sales.ts';
import type { SaleDetail, SaleRow } from '#app/lib/contract.ts';
import { answerOf, contractApi, formPost, meAnswer, pageRequest, thrownBy } from '#app/test/fake-api.ts';
import { renderPage } from '#app/test/render.tsx';
import { action, type SaleResult, SaleView, loader as saleLoader } from './venta.tsx';
import { loader, SalesView } from './ventas.tsx';

const rows: SaleRow[] = [
  {
    id: 812345678,
    status: 'paid',
    amountClp: 183825,
    testPayment: true,
    createdAt: '2026-11-28T13:00:00.000Z',
    paidAt: '2026-11-28T13:01:00.000Z',
    holder: 'Begoña Núñez',
    travellers: 3,
    plan: 'Plan Europa',
    departureDate: '2026-12-20',
  },
];

const detail: SaleDetail = {
  id: 812345678,
  status: 'paid',
  testPayment: false,
  amountClp: 183825,
  amountUsd: 199.5,
  createdAt: '2026-11-28T13:00:00.000Z',
  paidAt: '2026-11-28T13:01:00.000Z',
  plan: 'Plan Europa',
  trip: {
    destination: 'Europa',
    destinationCountry: 'España',
    modality: 'Viaje único',
    departureDate: '2026-12-20',
    returnDate: '2027-01-05',
    days: 17,
    discountCode: null,
  },
  travellers: [
    {
      seq: 1,
      name: 'Begoña Núñez',
      firstName: 'Begoña',
      lastName: 'Núñez',
      documentType: 1,
      documentNumber: '12.345.678-5',
      birthDate: '1990-01-01',
      email: 'begona@example.cl',
    },
  ],
  consents: { version: '2026-10', recordedAt: '2026-11-28T12:59:00.000Z', dataProcessing: true, marketing: false },
  payments: [
    {
      id: 1234,
      purpose: 'purchase',
      gateway: 'webpay',
      status: 'authorized',
      amountClp: 183825,
      instalments: 3,
      cardLastDigits: '6623',
      authorizationCode: '1213',
      createdAt: '2026-11-28T13:00:00.000Z',
      confirmedAt: '2026-11-28T13:01:00.000Z',
    },
  ],
  ledger: {
    paidClp: 183825,
    refundedClp: 0,
    pendingRefundClp: 0,
    netClp: 183825,
    entries: [
      {
        kind: 'payment',
        id: 1234,
        label: 'Pago de la compra',
        date: '2026-11-28T13:01:00.000Z',
        gatewayName: 'Webpay Plus',
        amountClp: 183825,
        statusLabel: 'Pagado',
        instalmentsText: '3 cuotas sin interés de $61.275',
      },
    ],
  },
  certificates: [
    {
      number: 'TRV-2026-812345678-1',
      travellerSeq: 1,
      issuedAt: '2026-11-28T13:01:00.000Z',
      voidedAt: null,
      voidedReason: null,
    },
  ],
  verificationCodes: [{ version: 1, code: 'ABCDE12345', createdAt: '2026-11-28T13:01:00.000Z', replacedAt: null }],
  emails: [
    {
      id: 9,
      kind: 'certificate-email',
      status: 'failed',
      attempts: 5,
      lastError: 'SMTP 550',
      createdAt: '2026-11-28T13:01:00.000Z',
      updatedAt: '2026-11-28T14:00:00.000Z',
    },
  ],
  dateChanges: [],
  withdrawal: { status: 'paid', available: true, reason: null, deadline: '2026-12-09T03:00:00.000Z' },
};

describe('«Ventas»', () => {
  it('reads the URL as «Hoy» links it and asks the API in its own words', () => {
    const now = new Date('2026-11-28T15:00:00.000Z');
    const today = saleSearchOf(new URLSearchParams('desde=hoy&estado=en-confirmacion'), now);
    expect(today).toEqual({ desde: '2026-11-28', estado: 'en-confirmacion' });
    expect(salesApiQuery(today)).toBe('?paidFrom=2026-11-28&status=confirming');
    expect(saleSearchOf(new URLSearchParams('desde=mes'), now)).toEqual({ desde: '2026-11-01' });
    // Malformed or unknown words are dropped, never sent.
    expect(saleSearchOf(new URLSearchParams('desde=ayer&hasta=28-11-2026&estado=x&por=y&q=%20'), now)).toEqual({});
    const byName = saleSearchOf(new URLSearchParams('q=N%C3%BA%C3%B1ez&por=nombre'), now);
    expect(salesApiQuery(byName, 'c1')).toBe('?q=N%C3%BA%C3%B1ez&by=name&cursor=c1');
    expect(salesApiQuery({ q: '12.345.678-5' })).toBe('?q=12.345.678-5&by=auto');
    expect(salesPageQuery(byName, 'c2')).toBe('?q=N%C3%BA%C3%B1ez&por=nombre&cursor=c2');
  });

  it('lists the sales found, each linked to its page, with pesos, state and the test mark', async () => {
    const { context, calls } = contractApi({
      'GET /me': meAnswer(['finance']),
      'GET /sales?q=N%C3%BA%C3%B1ez&by=auto': { status: 200, body: { sales: rows, nextCursor: 'abc' } },
    });
    const data = await loader({ request: pageRequest('/ventas?q=N%C3%BA%C3%B1ez'), context } as never);
    expect(calls.at(-1)?.path).toBe('/sales?q=N%C3%BA%C3%B1ez&by=auto');
    const html = renderPage(<SalesView {...data} />);
    expect(html).toContain('href="/ventas/812345678"');
    expect(html).toContain('$183.825');
    expect(html).toContain('Pagada');
    expect(html).toContain('Prueba');
    expect(html).toContain('href="/ventas?q=N%C3%BA%C3%B1ez&amp;cursor=abc"');
  });

  it('says when nothing was found, and shows an API failure as a notice', async () => {
    expect(renderPage(<SalesView search={{ q: 'x' }} sales={[]} nextCursor={null} continued={false} />)).toContain(
      'No hay ventas con esta búsqueda.',
    );
    const { context } = contractApi({
      'GET /me': meAnswer(['support']),
      'GET /sales': { status: 503, body: { message: 'Servicio no disponible' } },
    });
    const data = await loader({ request: pageRequest('/ventas'), context } as never);
    expect(renderPage(<SalesView {...data} />)).toContain('Servicio no disponible');
  });

  it('is not for the content role', async () => {
    const { context } = contractApi({ 'GET /me': meAnswer(['content']) });
    const thrown = await thrownBy(() => loader({ request: pageRequest('/ventas'), context } as never));
    expect(thrown).toMatchObject({ init: { status: 403 } });
  });
});

describe('a sale’s page', () => {
  it('shows travellers with their documents, the money, certificates, codes, e-mails and consents', async () => {
    const { context } = contractApi({
      'GET /me': meAnswer(['finance']),
      'GET /sales/812345678': { status: 200, body: detail },
    });
    const data = await saleLoader({
      request: pageRequest('/ventas/812345678'),
      context,
      params: { id: '812345678' },
    } as never);
    const html = renderPage(<SaleView {...data} csrfToken="c" canAct={false} />);
    for (const text of [
      'RUT 12.345.678-5',
      '3 cuotas sin interés de $61.275',
      'TRV-2026-812345678-1',
      'ABCDE12345',
      'SMTP 550',
      'Falló',
      'No aceptadas',
      'Sin cambios de fecha ni adicionales agregados.',
    ]) {
      expect(html).toContain(text);
    }
    // Finance reads only: no actions.
    expect(html).not.toContain('Reenviar certificados');
  });

  it('offers the actions to support, withdrawal only with its confirmation', async () => {
    const html = renderPage(<SaleView sale={detail} csrfToken="csrf-1" canAct />);
    expect(html).toContain('Reenviar certificados');
    expect(html).toContain('Revocar acceso a «Mi compra»');
    expect(html).toContain('Retractar por el comprador');
    expect(html).toContain('name="csrf" value="csrf-1"');
    const closed = { ...detail, withdrawal: { ...detail.withdrawal, available: false, reason: 'Pasaron los 10 días' } };
    expect(renderPage(<SaleView sale={closed as SaleDetail} csrfToken="c" canAct />)).not.toContain(
      'Retractar por el comprador',
    );
  });

  it('posts each action with the CSRF token and says what happened; a withdrawal needs the confirmation', async () => {
    const { context, calls } = contractApi({
      'POST /sales/812345678/certificate-email': { status: 200, body: { queued: false } },
      'POST /sales/812345678/withdrawal': { status: 409, body: { message: 'Pasaron los 10 días del retracto.' } },
    });
    const post = (fields: Record<string, string>) =>
      action({
        request: formPost('/ventas/812345678', { csrf: 'csrf-1', ...fields }),
        context,
        params: { id: '812345678' },
      } as never);
    const resent = answerOf<SaleResult>(await post({ intent: 'resend' }));
    expect(resent.data.message).toContain('hace menos de 10 minutos');
    expect(calls[0]?.headers.get('x-csrf-token')).toBe('csrf-1');
    const unconfirmed = answerOf<SaleResult>(await post({ intent: 'withdraw' }));
    expect(unconfirmed.status).toBe(400);
    expect(calls).toHaveLength(1);
    const refused = answerOf<SaleResult>(await post({ intent: 'withdraw', confirm: 'yes' }));
    expect(refused).toMatchObject({ status: 409, data: { ok: false, message: 'Pasaron los 10 días del retracto.' } });
  });

  it('corrects a traveller with the CSRF token, and shows the API’s refusal beside the field it names', async () => {
    const { context, calls } = contractApi({
      'POST /sales/812345678/travellers/1/correction': (call) =>
        (call.body as { document: { id: string } }).document.id === '12.345.678-9'
          ? {
              status: 400,
              body: {
                message: 'Revisa los datos del viajero.',
                errors: [{ field: 'document.id', code: 'invalid_rut', message: 'El RUT no es válido.' }],
              },
            }
          : { status: 200, body: { certificatesVersion: 2 } },
    });
    const post = (documentNumber: string) =>
      action({
        request: formPost('/ventas/812345678', {
          csrf: 'csrf-1',
          intent: 'correct',
          seq: '1',
          firstName: 'Begoña',
          lastName: 'Núñez Rojas',
          documentType: '1',
          documentNumber,
          reason: 'Apellido incompleto',
        }),
        context,
        params: { id: '812345678' },
      } as never);
    const refused = answerOf<SaleResult>(await post('12.345.678-9'));
    expect(refused.status).toBe(400);
    expect(refused.data.correction).toEqual({
      seq: 1,
      errors: { document: 'El RUT no es válido.', firstName: undefined, lastName: undefined, reason: undefined },
    });
    const html = renderPage(<SaleView sale={detail} csrfToken="c" canAct result={refused.data} />);
    expect(html).toContain('El RUT no es válido.');
    expect(html).toMatch(/<details open=""/);
    const done = answerOf<SaleResult>(await post('12.345.678-5'));
    expect(done.data.message).toContain('versión 2');
    expect(calls.at(-1)?.body).toEqual({
      firstName: 'Begoña',
      lastName: 'Núñez Rojas',
      document: { type: 1, id: '12.345.678-5' },
      reason: 'Apellido incompleto',
    });
    expect(calls.at(-1)?.headers.get('x-csrf-token')).toBe('csrf-1');
  });

  it('an unknown sale is the console’s 404 page', async () => {
    const { context } = contractApi({ 'GET /me': meAnswer(['support']) });
    const thrown = await thrownBy(() =>
      saleLoader({ request: pageRequest('/ventas/1'), context, params: { id: '1' } } as never),
    );
    expect(thrown).toMatchObject({ init: { status: 404 } });
  });
});
