import { describe, expect, it } from 'vitest';
import { type DiscountCode, type DiscountCodeList, limitsText, plansText } from '#app/features/discount-codes.ts';
import { navigationFor } from '#app/lib/navigation.ts';
import { answerOf, contractApi, formPost, meAnswer, pageRequest, thrownBy } from '#app/test/fake-api.ts';
import { renderPage } from '#app/test/render.tsx';
import { action, type DiscountCodesResult, DiscountCodesView, loader } from './codigos-de-descuento.tsx';

const code = (over: Partial<DiscountCode>): DiscountCode => ({
  code: 'VERANO10',
  kind: 'percent',
  percent: '10',
  amountUsd: null,
  label: '10 %',
  validFrom: '2026-12-01',
  validTo: '2027-02-28',
  maxUses: null,
  maxUsesPerBuyer: null,
  productIds: null,
  active: true,
  note: '',
  version: 3,
  updatedAt: '2026-11-27T12:00:00.000Z',
  state: 'activo',
  usage: {
    paidSales: 0,
    reserved: 0,
    formatted: { discountUsd: 'USD 0,00', discountClp: '$0', revenueUsd: 'USD 0,00', revenueClp: '$0' },
  },
  ...over,
});

const list: DiscountCodeList = {
  today: '2026-11-28',
  plans: [
    { id: 410, label: 'Esencial' },
    { id: 411, label: 'Plus' },
  ],
  codes: [
    code({}),
    code({
      code: 'FIJO20',
      kind: 'amount',
      percent: null,
      amountUsd: '20.00',
      label: 'USD 20,00',
      maxUses: 1,
      productIds: [410],
      state: 'agotado',
      usage: {
        paidSales: 1,
        reserved: 0,
        formatted: {
          discountUsd: 'USD 20,00',
          discountClp: '$18.971',
          revenueUsd: 'USD 65,00',
          revenueClp: '$61.654',
        },
      },
    }),
    code({ code: 'APAGADO', active: false, state: 'desactivado' }),
  ],
};

const listAnswer = { status: 200, body: list };

describe('«Códigos de descuento» (pricing and admin edit, finance reads)', () => {
  it('is in the navigation of pricing, finance and admin only; support and content get a 403 page', async () => {
    for (const role of ['pricing', 'finance', 'admin'] as const)
      expect(navigationFor([role]).map((entry) => entry.label)).toContain('Códigos de descuento');
    for (const role of ['support', 'content'] as const) {
      expect(navigationFor([role]).map((entry) => entry.label)).not.toContain('Códigos de descuento');
      const { context } = contractApi({ 'GET /me': meAnswer([role]) });
      const thrown = await thrownBy(() => loader({ request: pageRequest('/codigos-de-descuento'), context } as never));
      expect(thrown).toMatchObject({ init: { status: 403 } });
    }
  });

  it('lists each code with its state, limits, plans, paid sales, discount given and revenue in CLP and USD', async () => {
    const { context } = contractApi({ 'GET /me': meAnswer(['pricing']), 'GET /discount-codes': listAnswer });
    const data = await loader({ request: pageRequest('/codigos-de-descuento'), context } as never);
    expect(data.canEdit).toBe(true);
    const html = renderPage(<DiscountCodesView {...data} csrfToken="csrf-123" />);
    expect(html).toContain('FIJO20');
    expect(html).toContain('USD 20,00');
    expect(html).toContain('Agotado');
    expect(html).toContain('Desactivado');
    expect(html).toContain('01-12-2026 al 28-02-2027');
    expect(html).toContain('$18.971');
    expect(html).toContain('$61.654');
    expect(html).toContain('USD 65,00');
    expect(plansText(list.codes[1] as DiscountCode, list.plans)).toBe('Esencial');
    expect(plansText(list.codes[0] as DiscountCode, list.plans)).toBe('Todos los planes');
    expect(limitsText({ maxUses: 1, maxUsesPerBuyer: null })).toBe('1 uso');
    expect(limitsText({ maxUses: null, maxUsesPerBuyer: 2 })).toBe('Sin límite total (2 por comprador)');
    // Editors: an edit link per code, deactivate for active ones only, and the create form with labelled fields.
    expect(html).toContain('href="/codigos-de-descuento?editar=FIJO20"');
    expect(html).toContain('Desactivar<span class="sr-only"> VERANO10</span>');
    expect(html).not.toContain('Desactivar<span class="sr-only"> APAGADO</span>');
    expect(html).toContain('Nuevo código');
    expect(html).toContain('for="nuevo-code"');
    expect(html).toContain('name="csrf" value="csrf-123"');
  });

  it('finance reads without any form; an empty list and an API failure are said in words', async () => {
    const { context } = contractApi({ 'GET /me': meAnswer(['finance']), 'GET /discount-codes': listAnswer });
    const data = await loader({ request: pageRequest('/codigos-de-descuento?editar=FIJO20'), context } as never);
    expect(data).toMatchObject({ canEdit: false, editing: null });
    const html = renderPage(<DiscountCodesView {...data} csrfToken="c" />);
    expect(html).toContain('$61.654');
    expect(html).not.toContain('<form');
    const empty = contractApi({
      'GET /me': meAnswer(['pricing']),
      'GET /discount-codes': { status: 200, body: { ...list, codes: [] } },
    });
    const none = await loader({ request: pageRequest('/codigos-de-descuento'), context: empty.context } as never);
    expect(renderPage(<DiscountCodesView {...none} csrfToken="c" />)).toContain('Todavía no hay códigos de descuento.');
    const failing = contractApi({ 'GET /me': meAnswer(['pricing']) });
    const broken = await loader({ request: pageRequest('/codigos-de-descuento'), context: failing.context } as never);
    const brokenHtml = renderPage(<DiscountCodesView {...broken} csrfToken="c" />);
    expect(brokenHtml).toContain('role="alert"');
    expect(brokenHtml).not.toContain('Todavía no hay');
  });

  it('opens the edit form of ?editar= with the version it was loaded with', async () => {
    const { context } = contractApi({ 'GET /me': meAnswer(['pricing']), 'GET /discount-codes': listAnswer });
    const data = await loader({ request: pageRequest('/codigos-de-descuento?editar=fijo20'), context } as never);
    expect(data.editing?.code).toBe('FIJO20');
    const html = renderPage(<DiscountCodesView {...data} csrfToken="c" />);
    expect(html).toContain('Editar FIJO20');
    expect(html).toContain('name="version" value="3"');
    expect(html).toContain('value="20,00"');
    expect(html).not.toContain('Nuevo código');
  });

  it('creates a fixed-amount code for chosen plans: the typed text goes to the API, blanks as «sin límite»', async () => {
    const { context, calls } = contractApi({
      'GET /me': meAnswer(['pricing']),
      'POST /discount-codes': { status: 201, body: { code: code({ code: 'SOLOESENCIAL' }) } },
    });
    const result = answerOf<DiscountCodesResult>(
      await action({
        request: formPost('/codigos-de-descuento', {
          csrf: 'csrf-123',
          intent: 'create',
          code: ' soloesencial ',
          kind: 'amount',
          percent: '',
          amountUsd: '12,50',
          validFrom: '2026-12-01',
          validTo: '2026-12-31',
          maxUses: '100',
          maxUsesPerBuyer: '',
          scope: 'lista',
          productIds: ['410'],
          note: 'Convenio',
        }),
        context,
      } as never),
    );
    expect(result.data).toMatchObject({ ok: true, message: expect.stringContaining('Código SOLOESENCIAL creado') });
    const post = calls.find((call) => call.method === 'POST');
    expect(post?.body).toEqual({
      code: 'SOLOESENCIAL',
      kind: 'amount',
      percent: null,
      amountUsd: '12,50',
      validFrom: '2026-12-01',
      validTo: '2026-12-31',
      maxUses: 100,
      maxUsesPerBuyer: null,
      productIds: [410],
      note: 'Convenio',
    });
    expect(post?.headers.get('x-csrf-token')).toBe('csrf-123');
  });

  it('refuses a limit that is not a number and a plan list with no plan before calling the API', async () => {
    const { context, calls } = contractApi({ 'GET /me': meAnswer(['pricing']) });
    const result = answerOf<DiscountCodesResult>(
      await action({
        request: formPost('/codigos-de-descuento', {
          csrf: 'c',
          intent: 'create',
          code: 'X1X',
          kind: 'percent',
          percent: '10',
          validFrom: '2026-12-01',
          validTo: '2026-12-31',
          maxUses: 'diez',
          scope: 'lista',
        }),
        context,
      } as never),
    );
    expect(result.status).toBe(400);
    expect(result.data.errors).toMatchObject({
      maxUses: expect.stringContaining('número entero'),
      productIds: expect.stringContaining('al menos un plan'),
    });
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
    const html = renderPage(
      <DiscountCodesView list={list} canEdit editing={null} csrfToken="c" result={result.data} />,
    );
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('value="diez"');
  });

  it('a stale save (409) shows what the other operator changed, field by field, and keeps what was typed', async () => {
    const changed = [
      { field: 'maxUses', code: 'stale', message: 'Límite total de usos: ahora dice «50».' },
      { field: 'percent', code: 'stale', message: 'Porcentaje: ahora dice «15».' },
    ];
    const { context, calls } = contractApi({
      'GET /me': meAnswer(['pricing']),
      'PUT /discount-codes/VERANO10': {
        status: 409,
        body: { status: 409, detail: 'Otro operador guardó este código', errors: changed },
      },
    });
    const result = answerOf<DiscountCodesResult>(
      await action({
        request: formPost('/codigos-de-descuento', {
          csrf: 'c',
          intent: 'update',
          code: 'VERANO10',
          version: '3',
          kind: 'percent',
          percent: '12',
          validFrom: '2026-12-01',
          validTo: '2027-02-28',
          scope: 'todos',
          active: 'si',
        }),
        context,
      } as never),
    );
    expect(result.status).toBe(409);
    expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({
      version: 3,
      active: true,
      percent: '12',
    });
    expect(result.data.changes).toEqual(changed.map((error) => error.message));
    const html = renderPage(
      <DiscountCodesView list={list} canEdit editing={code({ version: 4 })} csrfToken="c" result={result.data} />,
    );
    expect(html).toContain('Otro operador guardó este código mientras lo editabas');
    expect(html).toContain('Límite total de usos: ahora dice «50».');
    expect(html).toContain('value="12"');
    expect(html).toContain('name="version" value="4"');
  });

  it('deactivates with the version seen; finance cannot post', async () => {
    const { context, calls } = contractApi({
      'GET /me': meAnswer(['pricing']),
      'POST /discount-codes/VERANO10/deactivate': {
        status: 200,
        body: { code: code({ active: false, version: 4 }) },
      },
    });
    const result = answerOf<DiscountCodesResult>(
      await action({
        request: formPost('/codigos-de-descuento', { csrf: 'c', intent: 'deactivate', code: 'VERANO10', version: '3' }),
        context,
      } as never),
    );
    expect(result.data).toMatchObject({ ok: true, message: expect.stringContaining('desactivado') });
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ version: 3 });
    const finance = contractApi({ 'GET /me': meAnswer(['finance']) });
    const thrown = await thrownBy(() =>
      action({
        request: formPost('/codigos-de-descuento', { csrf: 'c', intent: 'deactivate', code: 'VERANO10', version: '3' }),
        context: finance.context,
      } as never),
    );
    expect(thrown).toMatchObject({ init: { status: 403 } });
  });
});
