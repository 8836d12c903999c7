import { describe, expect, it } from 'vitest';
import {
  adjustRates,
  changeText,
  lengthBandLabel,
  type PriceGrid,
  parseLengthBands,
  parsePercentBp,
  parseUsdCents,
  pricesFromForm,
} from '#app/features/prices.ts';
import { answerOf, contractApi, formPost, meAnswer, pageRequest, thrownBy } from '#app/test/fake-api.ts';
import { renderPage } from '#app/test/render.tsx';
import { action, loader, type PriceResult, PriceView } from './precio.tsx';

const grid: PriceGrid = {
  plan: { id: 411, label: 'Travesía Europa', rating: 'daily' },
  regions: [
    { id: 3, label: 'Europa' },
    { id: 4, label: 'Asia' },
  ],
  passengerTypes: [
    { id: 1, label: 'Hasta 74', ageFrom: 0, ageTo: 74 },
    { id: 2, label: '75 a 84', ageFrom: 75, ageTo: 84 },
  ],
};
const live = {
  promotionBp: 1500,
  covidFeeCentsPerDay: 110,
  rates: [
    { destinationId: 3, passengerTypeId: 1, minDays: 1, rateCents: 380 },
    { destinationId: 3, passengerTypeId: 2, minDays: 1, rateCents: 570 },
    { destinationId: 4, passengerTypeId: 1, minDays: 1, rateCents: 420 },
  ],
};
const draft = { ...live, rates: live.rates.map((r) => ({ ...r, rateCents: Math.round(r.rateCents * 1.1) })) };
const item = {
  live,
  draft: { body: draft, version: 3, updatedAt: '2026-11-28T12:00:00.000Z', updatedBy: 'precios@travesia.cl' },
  changes: ['Europa · Hasta 74: USD 3,80 → USD 4,18 por día'],
  scheduled: null,
};
const impact = [
  {
    destinationId: 3,
    region: 'Europa',
    passengerTypeId: 1,
    band: 'Hasta 74',
    days: 7,
    changePercent: 10,
    formatted: { todayUsd: 'USD 22,61', newUsd: 'USD 24,87', todayClp: '$21.456', newClp: '$23.601' },
  },
];
const history = [
  {
    id: 7,
    status: 'published' as const,
    publishAt: '2026-11-28T12:30:00.000Z',
    publishAtChile: '2026-11-28T09:30',
    publishedAt: '2026-11-28T12:30:00.000Z',
    createdBy: 'precios@travesia.cl',
    rollbackOf: null,
    changes: ['Europa · Hasta 74: USD 3,45 → USD 3,80 por día'],
  },
];
const answers = (roles: ('admin' | 'pricing' | 'finance' | 'support')[]) => ({
  'GET /me': meAnswer(roles),
  'GET /prices/411/grid': { status: 200, body: grid },
  'GET /prices/411': { status: 200, body: item },
  'GET /prices/411/impact': { status: 200, body: { rows: impact } },
  'GET /prices/411/history': { status: 200, body: { publications: history } },
});

const gridForm = (overrides: Record<string, string> = {}) => ({
  csrf: 'csrf-1',
  version: '3',
  'tarifa-3-1-1': '4,18',
  'tarifa-3-2-1': '6.27',
  'tarifa-4-1-1': '4.62',
  'tarifa-4-2-1': '',
  descuento: '15',
  covid: '1,10',
  ...overrides,
});

describe('«Precios» (pricing edits, finance reads)', () => {
  it('shows the grid with the draft, what it changes, the impact table and the history with its rollbacks', async () => {
    const { context } = contractApi(answers(['pricing']));
    const data = await loader({ request: pageRequest('/precios/411'), context, params: { id: '411' } } as never);
    const html = renderPage(<PriceView {...data} csrfToken="c" />);
    expect(html).toContain('Precios de Travesía Europa');
    expect(html).toContain('value="4.18"');
    expect(html).toContain('publicado: 3.80');
    expect(html).toContain('Europa · Hasta 74: USD 3,80 → USD 4,18 por día');
    expect(html).toContain('$23.601');
    expect(html).toContain('+10 %');
    expect(html).toContain('Crear enlace de vista previa');
    expect(html).toContain('Volver a los precios anteriores');
    expect(html).toContain('Guardar borrador');
  });

  it('finance reads the same page without a way to change it; support may not open it', async () => {
    const reader = contractApi(answers(['finance']));
    const data = await loader({
      request: pageRequest('/precios/411'),
      context: reader.context,
      params: { id: '411' },
    } as never);
    const html = renderPage(<PriceView {...data} csrfToken="c" />);
    expect(html).toContain('Tu rol puede ver los precios, no cambiarlos.');
    expect(html).not.toContain('Guardar borrador');
    expect(html).not.toContain('Publicar');
    expect(html).toContain('readOnly=""');
    const outsider = contractApi({ 'GET /me': meAnswer(['support']) });
    const thrown = await thrownBy(() =>
      loader({ request: pageRequest('/precios/411'), context: outsider.context, params: { id: '411' } } as never),
    );
    expect(thrown).toMatchObject({ init: { status: 403 } });
  });

  it('saves the grid as a draft from the version shown, and shows a stale save in the API words', async () => {
    const { context, calls } = contractApi({
      'GET /prices/411/grid': { status: 200, body: grid },
      'PUT /prices/411/draft': {
        status: 409,
        body: {
          detail: 'jefa@travesia.cl guardó este borrador a las 09:40 (versión 4) después de que lo abriste.',
          errors: [{ field: 'version', code: 'stale', message: 'jefa@travesia.cl guardó este borrador a las 09:40.' }],
        },
      },
    });
    const answer = answerOf<PriceResult>(
      await action({
        request: formPost('/precios/411', { ...gridForm(), intent: 'guardar' }),
        context,
        params: { id: '411' },
      } as never),
    );
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.headers.get('x-csrf-token')).toBe('csrf-1');
    expect(put?.body).toStrictEqual({
      baseVersion: 3,
      body: {
        promotionBp: 1500,
        covidFeeCentsPerDay: 110,
        rates: [
          { destinationId: 3, passengerTypeId: 1, minDays: 1, rateCents: 418 },
          { destinationId: 3, passengerTypeId: 2, minDays: 1, rateCents: 627 },
          { destinationId: 4, passengerTypeId: 1, minDays: 1, rateCents: 462 },
        ],
      },
    });
    expect(answer).toMatchObject({ status: 409, data: { ok: false, message: expect.stringContaining('jefa@') } });
  });

  it('raises every price by a percentage, refuses a bad amount in words, publishes at a Chile time and rolls back', async () => {
    const { context, calls } = contractApi({
      'GET /prices/411/grid': { status: 200, body: grid },
      'PUT /prices/411/draft': { status: 200, body: { version: 4 } },
      'POST /prices/411/publish': {
        status: 200,
        body: { publication: { ...history[0], status: 'scheduled', publishAtChile: '2026-12-01T09:00' }, version: 5 },
      },
      'POST /prices/411/rollback': { status: 200, body: { publication: history[0], version: 6 } },
    });
    const post = (fields: Record<string, string>) =>
      action({ request: formPost('/precios/411', fields), context, params: { id: '411' } } as never);
    const adjusted = answerOf<PriceResult>(
      await post({
        ...gridForm({ 'tarifa-3-1-1': '3.80', 'tarifa-3-2-1': '5.70', 'tarifa-4-1-1': '4.20' }),
        intent: 'ajustar',
        ajuste: '10',
      }),
    );
    expect(adjusted.data.ok).toBe(true);
    expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({
      body: { rates: [{ rateCents: 418 }, { rateCents: 627 }, { rateCents: 462 }] },
    });
    const bad = answerOf<PriceResult>(await post({ ...gridForm({ 'tarifa-3-1-1': 'tres' }), intent: 'guardar' }));
    expect(bad.status).toBe(400);
    expect(bad.data.errors?.['tarifa-3-1-1']).toContain('Europa · Hasta 74');
    const scheduled = answerOf<PriceResult>(
      await post({ csrf: 'c', version: '4', intent: 'publicar', 'publicar-el': '2026-12-01T09:00' }),
    );
    expect(calls.find((call) => call.path === '/prices/411/publish')?.body).toStrictEqual({
      baseVersion: 4,
      publishAt: '2026-12-01T09:00',
    });
    expect(scheduled.data.message).toContain('2026-12-01 a las 09:00 (hora de Chile)');
    const back = answerOf<PriceResult>(await post({ csrf: 'c', intent: 'volver', publicacion: '7', a: 'before' }));
    expect(back.data.ok).toBe(true);
    expect(calls.find((call) => call.path === '/prices/411/rollback')?.body).toStrictEqual({
      publicationId: 7,
      to: 'before',
    });
  });

  it('reads amounts and percentages as the operator types them', () => {
    expect(parseUsdCents('3,80')).toBe(380);
    expect(parseUsdCents(' 12 ')).toBe(1200);
    expect(parseUsdCents('')).toBeNull();
    expect(parseUsdCents('-1')).toBeUndefined();
    expect(parseUsdCents('1.234')).toBeUndefined();
    expect(parsePercentBp('12,5')).toBe(1250);
    expect(parsePercentBp('101')).toBeUndefined();
    expect(adjustRates(live, -10).rates[0]?.rateCents).toBe(342);
    expect(changeText(-3.5)).toBe('−3,5 %');
    const form = new FormData();
    form.set('tarifa-3-1-1', '1');
    form.set('descuento', '0');
    form.set('covid', '');
    expect(pricesFromForm(form, grid).prices).toStrictEqual({
      promotionBp: 0,
      covidFeeCentsPerDay: null,
      rates: [{ destinationId: 3, passengerTypeId: 1, minDays: 1, rateCents: 100 }],
    });
  });

  it('prices by length of trip: a grid per band, a new band starting from the prices before it, bands in words', async () => {
    expect(parseLengthBands('16, 1 31')).toStrictEqual([1, 16, 31]);
    expect(parseLengthBands('8')).toStrictEqual([1, 8]);
    expect(parseLengthBands('0, 5')).toBeUndefined();
    expect(parseLengthBands('diez')).toBeUndefined();
    expect([0, 1, 2].map((i) => lengthBandLabel([1, 16, 31], i))).toStrictEqual([
      'De 1 a 15 días',
      'De 16 a 30 días',
      '31 días o más',
    ]);
    expect(lengthBandLabel([1], 0)).toBe('Cualquier duración');

    // «1, 16» typed over a one-band grid: band 16 has no fields yet and starts with band 1's prices.
    const form = new FormData();
    for (const [name, value] of Object.entries({ ...gridForm(), tramos: '1, 16' })) form.set(name, value);
    expect(pricesFromForm(form, grid).prices.rates).toStrictEqual([
      { destinationId: 3, passengerTypeId: 1, minDays: 1, rateCents: 418 },
      { destinationId: 3, passengerTypeId: 2, minDays: 1, rateCents: 627 },
      { destinationId: 4, passengerTypeId: 1, minDays: 1, rateCents: 462 },
      { destinationId: 3, passengerTypeId: 1, minDays: 16, rateCents: 418 },
      { destinationId: 3, passengerTypeId: 2, minDays: 16, rateCents: 627 },
      { destinationId: 4, passengerTypeId: 1, minDays: 16, rateCents: 462 },
    ]);
    // Its fields posted: what the operator typed there, a blank one left to the band before.
    form.set('tarifa-3-1-16', '3,50');
    form.set('tarifa-3-2-16', '');
    form.set('tarifa-4-1-16', '');
    expect(pricesFromForm(form, grid).prices.rates.filter((rate) => rate.minDays === 16)).toStrictEqual([
      { destinationId: 3, passengerTypeId: 1, minDays: 16, rateCents: 350 },
    ]);
    form.set('tramos', '1, cero');
    expect(pricesFromForm(form, grid).errors.tramos).toContain('días de 1 a 366');

    const banded = {
      ...item,
      draft: {
        ...item.draft,
        body: { ...draft, rates: [...draft.rates, { ...draft.rates[0], minDays: 16, rateCents: 350 }] },
      },
    };
    const { context } = contractApi({ ...answers(['pricing']), 'GET /prices/411': { status: 200, body: banded } });
    const data = await loader({ request: pageRequest('/precios/411'), context, params: { id: '411' } } as never);
    const html = renderPage(<PriceView {...data} csrfToken="c" />);
    expect(html).toContain('name="tramos"');
    expect(html).toContain('value="1, 16"');
    expect(html).toContain('De 1 a 15 días');
    expect(html).toContain('16 días o más');
    expect(html).toContain('name="tarifa-3-1-16"');
    expect(html).toContain('aria-label="Europa, Hasta 74, 16 días o más: USD por día"');
  });
});
