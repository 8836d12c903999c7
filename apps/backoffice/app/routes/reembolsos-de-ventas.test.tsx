import { describe, expect, it } from 'vitest';
import { ageText, type SaleRefund, stateFilterOf } from '#app/features/sale-refunds.ts';
import { answerOf, contractApi, formPost, meAnswer, pageRequest, thrownBy } from '#app/test/fake-api.ts';
import { renderPage } from '#app/test/render.tsx';
import { action, loader, type SaleRefundsResult, SaleRefundsView } from './reembolsos-de-ventas.tsx';

const refund = (over: Partial<SaleRefund>): SaleRefund => ({
  id: 7,
  saleId: 123456,
  paymentId: 99,
  gateway: 'webpay',
  buyOrder: 'TRV-123456-1',
  reason: 'withdrawal',
  amountClp: 12345,
  state: 'pending',
  attempts: 0,
  lastError: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  refundedAt: null,
  transferReference: null,
  markedBy: null,
  heldAt: null,
  heldBy: null,
  heldReason: null,
  version: 3,
  ...over,
});

const queue = [
  refund({ id: 7, state: 'failing', attempts: 6, lastError: 'Operación no permitida para tarjeta de débito' }),
  refund({
    id: 8,
    saleId: 222,
    amountClp: 1_234_567,
    reason: 'date_change',
    state: 'held',
    heldAt: '2026-11-27T12:00:00.000Z',
    heldBy: 'paula@travesia.cl',
    heldReason: 'Débito',
  }),
  refund({ id: 9, state: 'transferred', transferReference: 'TRF-0009', markedBy: 'paula@travesia.cl' }),
];

describe('sale refunds (admin, finance)', () => {
  it('refuses support and content with a 403 page; finance and admin may use it', async () => {
    for (const role of ['support', 'content'] as const) {
      const { context } = contractApi({ 'GET /me': meAnswer([role]) });
      const thrown = await thrownBy(() => loader({ request: pageRequest('/reembolsos-de-ventas'), context } as never));
      expect(thrown).toMatchObject({ init: { status: 403 } });
    }
    for (const role of ['finance', 'admin'] as const) {
      const { context } = contractApi({
        'GET /me': meAnswer([role]),
        'GET /sale-refunds?state=open': { status: 200, body: { refunds: [], nextCursor: null } },
      });
      const data = await loader({ request: pageRequest('/reembolsos-de-ventas'), context } as never);
      expect(data.refunds).toEqual([]);
    }
  });

  it('asks the API for the URL’s state and page, the «Hoy» links’ names included', async () => {
    const { context, calls } = contractApi({
      'GET /me': meAnswer(['finance']),
      'GET /sale-refunds?state=held&cursor=40': { status: 200, body: { refunds: [queue[1]], nextCursor: '8' } },
    });
    const data = await loader({
      request: pageRequest('/reembolsos-de-ventas?estado=retenida&cursor=40'),
      context,
    } as never);
    expect(calls.map((call) => call.path)).toContain('/sale-refunds?state=held&cursor=40');
    expect(data).toMatchObject({ filter: { slug: 'retenida' }, nextCursor: '8', continued: true });
    expect(stateFilterOf('pendiente').api).toBe('waiting');
    expect(stateFilterOf('nada').api).toBe('open');
    const html = renderPage(<SaleRefundsView {...data} csrfToken="c" />);
    expect(html).toContain('href="/reembolsos-de-ventas?estado=retenida&amp;cursor=8"');
    expect(html).toContain('Volver al inicio');
  });

  it('shows each refund with its amount in pesos, age, state and the steps its state allows', async () => {
    const { context } = contractApi({
      'GET /me': meAnswer(['finance']),
      'GET /sale-refunds?state=all': { status: 200, body: { refunds: queue, nextCursor: null } },
    });
    const data = await loader({ request: pageRequest('/reembolsos-de-ventas?estado=todas'), context } as never);
    const html = renderPage(<SaleRefundsView {...data} csrfToken="csrf-123" />);
    expect(html).toContain('$12.345');
    expect(html).toContain('$1.234.567');
    expect(html).toContain('Pendiente con error');
    expect(html).toContain('Operación no permitida para tarjeta de débito');
    expect(html).toContain('Retenida para transferencia');
    expect(html).toContain('TRF-0009');
    // Pending: hold with a reason; held: transfer with a reference, or release; transferred: nothing.
    expect(html).toContain('Retener<span class="sr-only"> el reembolso 7</span>');
    expect(html).toContain('for="motivo-7"');
    expect(html).toContain('Registrar transferencia<span class="sr-only"> del reembolso 8</span>');
    expect(html).toContain('for="referencia-8"');
    expect(html).toContain('Liberar<span class="sr-only"> el reembolso 8</span>');
    expect(html).not.toContain('reembolso 9</span>');
    expect(html).toContain('name="version" value="3"');
    expect(html).toContain('name="csrf" value="csrf-123"');
    expect(ageText('2026-11-20T10:00:00.000Z', new Date('2026-11-20T10:04:00.000Z'))).toBe('hace 4 min');
    expect(ageText('2026-11-20T10:00:00.000Z', new Date('2026-11-21T13:00:00.000Z'))).toBe('hace 27 h');
    expect(ageText('2026-11-20T10:00:00.000Z', new Date('2026-11-25T10:00:00.000Z'))).toBe('hace 5 días');
  });

  it('says so when a state has no refunds, and shows an API failure as a notice', async () => {
    const empty = contractApi({
      'GET /me': meAnswer(['finance']),
      'GET /sale-refunds?state=failing': { status: 200, body: { refunds: [], nextCursor: null } },
    });
    const none = await loader({
      request: pageRequest('/reembolsos-de-ventas?estado=con-error'),
      context: empty.context,
    } as never);
    expect(renderPage(<SaleRefundsView {...none} csrfToken="c" />)).toContain(
      'No hay reembolsos de ventas en «Pendientes con error».',
    );
    const failing = contractApi({ 'GET /me': meAnswer(['finance']) });
    const broken = await loader({ request: pageRequest('/reembolsos-de-ventas'), context: failing.context } as never);
    expect(broken.error).toBeTruthy();
    const html = renderPage(<SaleRefundsView {...broken} csrfToken="c" />);
    expect(html).toContain('role="alert"');
    expect(html).not.toContain('No hay reembolsos');
  });

  it('holds, records a transfer and releases through the API with the CSRF token and the version seen', async () => {
    const { context, calls } = contractApi({
      'GET /me': meAnswer(['finance']),
      'POST /sale-refunds/8/hold': { status: 200, body: { refund: { ...queue[1], version: 4 } } },
      'POST /sale-refunds/8/transfer': {
        status: 200,
        body: { refund: { ...queue[1], state: 'transferred', transferReference: 'TRF 77' } },
      },
      'POST /sale-refunds/8/release': { status: 200, body: { refund: { ...queue[1], state: 'pending' } } },
    });
    const post = (fields: Record<string, string>) =>
      action({
        request: formPost('/reembolsos-de-ventas', { csrf: 'csrf-123', id: '8', ...fields }),
        context,
      } as never);
    const held = answerOf<SaleRefundsResult>(await post({ intent: 'hold', version: '3', reason: 'Débito' }));
    const transferred = answerOf<SaleRefundsResult>(
      await post({ intent: 'transfer', version: '4', reference: ' TRF 77 ' }),
    );
    const released = answerOf<SaleRefundsResult>(await post({ intent: 'release', version: '4' }));
    const posts = calls.filter((call) => call.method === 'POST');
    expect(posts.map((call) => [call.path, call.body])).toEqual([
      ['/sale-refunds/8/hold', { version: 3, reason: 'Débito' }],
      ['/sale-refunds/8/transfer', { version: 4, reference: 'TRF 77' }],
      ['/sale-refunds/8/release', { version: 4 }],
    ]);
    expect(posts.every((call) => call.headers.get('x-csrf-token') === 'csrf-123')).toBe(true);
    expect(held.data).toMatchObject({ ok: true, message: expect.stringContaining('retenido') });
    expect(transferred.data.message).toContain('Transferencia TRF 77 registrada');
    expect(released.data.message).toContain('liberado');
    const html = renderPage(
      <SaleRefundsView
        {...{ filter: stateFilterOf(null), refunds: [], nextCursor: null, continued: false }}
        csrfToken="c"
        result={transferred.data}
      />,
    );
    expect(html).toContain('role="status"');
  });

  it('shows the API’s refusals in words: another operator first (409), a reference taken, a missing one', async () => {
    const changed = 'Otro operador (o un reintento de la pasarela) ya cambió este reembolso; recarga la página.';
    const taken = 'Esa referencia de transferencia ya está registrada en otro reembolso.';
    const { context, calls } = contractApi({
      'GET /me': meAnswer(['finance']),
      'POST /sale-refunds/8/release': {
        status: 409,
        body: { status: 409, detail: changed, errors: [{ field: 'version', code: 'stale', message: changed }] },
      },
      'POST /sale-refunds/8/transfer': {
        status: 409,
        body: { status: 409, detail: taken, errors: [{ field: 'reference', code: 'reference_taken', message: taken }] },
      },
    });
    const post = (fields: Record<string, string>) =>
      action({
        request: formPost('/reembolsos-de-ventas', { csrf: 'c', id: '8', version: '3', ...fields }),
        context,
      } as never);
    const stale = answerOf<SaleRefundsResult>(await post({ intent: 'release' }));
    expect(stale.status).toBe(409);
    expect(stale.data.message).toBe(changed);
    const reused = answerOf<SaleRefundsResult>(await post({ intent: 'transfer', reference: 'TRF-1' }));
    expect(reused.data).toMatchObject({ ok: false, id: 8, errors: { reference: taken } });
    const html = renderPage(
      <SaleRefundsView
        filter={stateFilterOf(null)}
        refunds={[{ ...(queue[1] as SaleRefund), age: 'hace 1 h' }]}
        nextCursor={null}
        continued={false}
        csrfToken="c"
        result={reused.data}
      />,
    );
    expect(html).toContain('role="alert"');
    expect(html).toContain('aria-describedby="referencia-8-error"');
    // A blank reference never reaches the API.
    const blank = answerOf<SaleRefundsResult>(await post({ intent: 'transfer', reference: '  ' }));
    expect(blank.status).toBe(400);
    expect(blank.data.errors?.reference).toBe('Escribe la referencia de la transferencia.');
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(2);
  });
});
