import { describe, expect, it } from 'vitest';
import { type AddOn, type AddOnList, chosenText, eligibilityText } from '#app/features/add-ons.ts';
import { navigationFor } from '#app/lib/navigation.ts';
import { answerOf, contractApi, formPost, meAnswer, pageRequest, thrownBy } from '#app/test/fake-api.ts';
import { renderPage } from '#app/test/render.tsx';
import { type AddOnsResult, AddOnsView, action, loader } from './adicionales.tsx';

const addOn = (over: Partial<AddOn>): AddOn => ({
  id: 1,
  code: 'deportes-aventura',
  name: 'Deportes y aventura',
  description: 'Cubre accidentes al practicar deportes amateur.',
  benefits: [{ label: 'Rescate en montaña', value: 'USD 5.000' }],
  pricing: 'daily',
  priceUsdPerDay: '2.50',
  planPercent: null,
  priceLabel: 'USD 2,50 por viajero por día',
  passengerTypeIds: [1],
  modalityIds: [1, 3],
  destinationIds: [],
  productIds: [],
  buyableAfterPurchase: true,
  active: true,
  sortOrder: 0,
  priceFixed: false,
  version: 3,
  updatedAt: '2026-11-28T12:00:00.000Z',
  ...over,
});

const list: AddOnList = {
  options: {
    passengerTypes: [
      { id: 1, label: 'Pasajero de 0 a 74 años', ageFrom: 0, ageTo: 74 },
      { id: 2, label: 'Pasajero de 75 a 84 años', ageFrom: 75, ageTo: 84 },
    ],
    modalities: [
      { id: 1, label: 'Viaje único' },
      { id: 2, label: 'Multiviaje anual' },
      { id: 3, label: 'Larga estadía' },
    ],
    regions: [
      { id: 1, label: 'Sudamérica' },
      { id: 2, label: 'Europa' },
    ],
    plans: [
      { id: 410, label: 'Esencial' },
      { id: 411, label: 'Plus' },
    ],
  },
  addOns: [
    addOn({}),
    addOn({
      id: 2,
      code: 'preexistencias-plus',
      name: 'Preexistencias ampliadas',
      pricing: 'percent',
      priceUsdPerDay: null,
      planPercent: '30',
      priceLabel: '30 % del plan',
      passengerTypeIds: [],
      modalityIds: [],
      buyableAfterPurchase: false,
      active: false,
    }),
    addOn({ id: 3, code: 'covid', name: 'Upgrade covid', priceFixed: true, passengerTypeIds: [], modalityIds: [] }),
  ],
};

const listAnswer = { status: 200, body: list };

const posted = (over: Record<string, string | string[]> = {}) => ({
  csrf: 'csrf-123',
  intent: 'create',
  code: 'nieve',
  name: 'Deportes de nieve',
  description: 'Esquí y snowboard.',
  'benefits.cantidad': '1',
  'benefits.0.label': 'Rescate en pista',
  'benefits.0.value': 'USD 5.000',
  'benefits.0.posicion': '2',
  'benefits.nuevo.label': 'Equipo',
  'benefits.nuevo.value': 'USD 500',
  pricing: 'daily',
  priceUsdPerDay: '2,50',
  planPercent: '30',
  tramo: ['1'],
  plan: ['411', '410'],
  buyableAfterPurchase: 'si',
  sortOrder: '5',
  ...over,
});

describe('«Adicionales» (pricing and admin edit; finance and content read)', () => {
  it('is in the navigation of pricing, finance, content and admin; support gets a 403 page', async () => {
    for (const role of ['pricing', 'finance', 'content', 'admin'] as const)
      expect(navigationFor([role]).map((entry) => entry.label)).toContain('Adicionales');
    expect(navigationFor(['support']).map((entry) => entry.label)).not.toContain('Adicionales');
    const { context } = contractApi({ 'GET /me': meAnswer(['support']) });
    const thrown = await thrownBy(() => loader({ request: pageRequest('/adicionales'), context } as never));
    expect(thrown).toMatchObject({ init: { status: 403 } });
  });

  it('lists each add-on with its price in words, who may buy it, the late purchase and its state', async () => {
    const { context } = contractApi({ 'GET /me': meAnswer(['pricing']), 'GET /add-ons': listAnswer });
    const data = await loader({ request: pageRequest('/adicionales'), context } as never);
    expect(data.canEdit).toBe(true);
    const html = renderPage(<AddOnsView {...data} csrfToken="csrf-123" />);
    expect(html).toContain('USD 2,50 por viajero por día');
    expect(html).toContain('30 % del plan');
    expect(html).toContain('Edad: Pasajero de 0 a 74 años');
    expect(html).toContain('Modalidad: Viaje único, Larga estadía');
    expect(html).toContain('Todos los viajeros, planes y destinos');
    expect(html).toContain('Se puede agregar después de la compra');
    expect(html).toContain('Desactivado');
    expect(eligibilityText(addOn({ productIds: [411] }), list.options)).toContain('Plan: Plus');
    expect(chosenText([], list.options.regions)).toBe('Todos');
    // Editors: an edit link per add-on, «Desactivar» for active ones only, and the create form with labelled fields.
    expect(html).toContain('href="/adicionales?editar=2"');
    expect(html).toContain('Desactivar<span class="sr-only"> Deportes y aventura</span>');
    expect(html).not.toContain('Desactivar<span class="sr-only"> Preexistencias ampliadas</span>');
    expect(html).toContain('Nuevo adicional');
    expect(html).toContain('for="nuevo-name"');
    expect(html).toContain('name="csrf" value="csrf-123"');
    // The catalogue's names as checkboxes; the benefits as a list with a blank one to add.
    expect(html).toContain('Tramos de edad');
    expect(html).toContain('Multiviaje anual');
    expect(html).toContain('Agregar: beneficio');
  });

  it('finance and content read without any form; an empty list and an API failure are said in words', async () => {
    for (const role of ['finance', 'content'] as const) {
      const { context } = contractApi({ 'GET /me': meAnswer([role]), 'GET /add-ons': listAnswer });
      const data = await loader({ request: pageRequest('/adicionales?editar=1'), context } as never);
      expect(data).toMatchObject({ canEdit: false, editing: null });
      const html = renderPage(<AddOnsView {...data} csrfToken="c" />);
      expect(html).toContain('30 % del plan');
      expect(html).not.toContain('<form');
    }
    const empty = contractApi({
      'GET /me': meAnswer(['pricing']),
      'GET /add-ons': { status: 200, body: { ...list, addOns: [] } },
    });
    const none = await loader({ request: pageRequest('/adicionales'), context: empty.context } as never);
    expect(renderPage(<AddOnsView {...none} csrfToken="c" />)).toContain('Todavía no hay adicionales.');
    const failing = contractApi({ 'GET /me': meAnswer(['pricing']) });
    const broken = await loader({ request: pageRequest('/adicionales'), context: failing.context } as never);
    const brokenHtml = renderPage(<AddOnsView {...broken} csrfToken="c" />);
    expect(brokenHtml).toContain('role="alert"');
    expect(brokenHtml).not.toContain('Todavía no hay');
  });

  it('a save under way says so and cannot be sent twice', () => {
    const html = renderPage(<AddOnsView list={list} canEdit editing={null} csrfToken="c" busy />);
    expect(html).toContain('Guardando…');
    expect(html).toContain('aria-busy="true"');
  });

  it('opens the edit form of ?editar= with the version, the price as Chile writes it and the boxes checked', async () => {
    const { context } = contractApi({ 'GET /me': meAnswer(['pricing']), 'GET /add-ons': listAnswer });
    const data = await loader({ request: pageRequest('/adicionales?editar=1'), context } as never);
    expect(data.editing?.code).toBe('deportes-aventura');
    const html = renderPage(<AddOnsView {...data} csrfToken="c" />);
    expect(html).toContain('Editar «Deportes y aventura»');
    expect(html).toContain('name="version" value="3"');
    expect(html).toContain('value="2,50"');
    expect(html).toContain('name="modalidad" checked="" value="3"');
    expect(html).toContain('name="modalidad" value="2"/>');
    expect(html).toMatch(/name="benefits.0.label" value="Rescate en montaña"/);
    expect(html).not.toContain('Nuevo adicional');
  });

  it('the covid upgrade: its code, price and who may buy it are shown, not edited', async () => {
    const { context } = contractApi({ 'GET /me': meAnswer(['admin']), 'GET /add-ons': listAnswer });
    const data = await loader({ request: pageRequest('/adicionales?editar=3'), context } as never);
    const html = renderPage(<AddOnsView {...data} csrfToken="c" />);
    expect(html).toContain('se edita por plan en «Precios»');
    expect(html).not.toContain('id="editar-code"');
    expect(html).not.toContain('id="editar-usd"');
    expect(html).toContain('type="hidden" name="code" value="covid"');
    expect(html).not.toMatch(/type="checkbox" name="tramo"/);
  });

  it('creates one: the typed texts go to the API, only the price of the kind chosen, benefits in their order', async () => {
    const { context, calls } = contractApi({
      'GET /me': meAnswer(['pricing']),
      'POST /add-ons': { status: 201, body: { addOn: addOn({ id: 9, name: 'Deportes de nieve' }) } },
    });
    const result = answerOf<AddOnsResult>(
      await action({ request: formPost('/adicionales', posted()), context } as never),
    );
    expect(result.data).toMatchObject({ ok: true, message: 'Adicional «Deportes de nieve» creado.' });
    const post = calls.find((call) => call.method === 'POST');
    expect(post?.body).toEqual({
      code: 'nieve',
      name: 'Deportes de nieve',
      description: 'Esquí y snowboard.',
      benefits: [
        { label: 'Rescate en pista', value: 'USD 5.000' },
        { label: 'Equipo', value: 'USD 500' },
      ],
      pricing: 'daily',
      priceUsdPerDay: '2,50',
      planPercent: null,
      passengerTypeIds: [1],
      modalityIds: [],
      destinationIds: [],
      productIds: [411, 410],
      buyableAfterPurchase: true,
      sortOrder: 5,
    });
    expect(post?.headers.get('x-csrf-token')).toBe('csrf-123');
  });

  it('the API´s errors are marked on their fields (benefits by position) and the form keeps what was typed', async () => {
    const { context } = contractApi({
      'GET /me': meAnswer(['pricing']),
      'POST /add-ons': {
        status: 400,
        body: {
          status: 400,
          detail: 'Revisa los datos del adicional.',
          errors: [
            { field: 'priceUsdPerDay', code: 'out_of_range', message: 'El precio por día debe ser mayor que cero.' },
            { field: 'productIds', code: 'not_available', message: 'Elige planes de la compañía.' },
            { field: 'benefits.0.value', code: 'invalid', message: 'A lo más 120 caracteres' },
          ],
        },
      },
    });
    const result = answerOf<AddOnsResult>(
      await action({ request: formPost('/adicionales', posted({ priceUsdPerDay: '0' })), context } as never),
    );
    expect(result.status).toBe(400);
    const html = renderPage(<AddOnsView list={list} canEdit editing={null} csrfToken="c" result={result.data} />);
    expect(html).toContain('role="alert"');
    expect(html).toMatch(/id="nuevo-usd"[^>]*aria-invalid="true"/);
    expect(html).toContain('El precio por día debe ser mayor que cero.');
    expect(html).toContain('Elige planes de la compañía.');
    expect(html).toContain('aria-invalid="true" name="benefits.0.value"');
    expect(html).toContain('Beneficio 1, límite o monto: A lo más 120 caracteres');
    expect(html).toContain('value="Deportes de nieve"');
    expect(html).toContain('value="0"');
  });

  it('refuses an order that is not a whole number before calling the API', async () => {
    const { context, calls } = contractApi({ 'GET /me': meAnswer(['pricing']) });
    const result = answerOf<AddOnsResult>(
      await action({ request: formPost('/adicionales', posted({ sortOrder: 'primero' })), context } as never),
    );
    expect(result.status).toBe(400);
    expect(result.data.errors?.sortOrder).toContain('número entero');
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
    const html = renderPage(<AddOnsView list={list} canEdit editing={null} csrfToken="c" result={result.data} />);
    expect(html).toContain('value="primero"');
  });

  it('a stale save (409) shows what the other operator changed and keeps what was typed', async () => {
    const changed = [{ field: 'name', code: 'stale', message: 'Nombre: ahora dice «Aventura».' }];
    const { context, calls } = contractApi({
      'GET /me': meAnswer(['pricing']),
      'PUT /add-ons/1': {
        status: 409,
        body: { status: 409, detail: 'Otro operador guardó este adicional', errors: changed },
      },
    });
    const result = answerOf<AddOnsResult>(
      await action({
        request: formPost(
          '/adicionales',
          posted({ intent: 'update', id: '1', version: '3', active: 'si', name: 'Deportes extremos' }),
        ),
        context,
      } as never),
    );
    expect(result.status).toBe(409);
    expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({
      version: 3,
      active: true,
      name: 'Deportes extremos',
    });
    expect(result.data.changes).toEqual(changed.map((error) => error.message));
    const html = renderPage(
      <AddOnsView list={list} canEdit editing={addOn({ version: 4 })} csrfToken="c" result={result.data} />,
    );
    expect(html).toContain('Otro operador guardó este adicional mientras lo editabas');
    expect(html).toContain('Nombre: ahora dice «Aventura».');
    expect(html).toContain('value="Deportes extremos"');
    expect(html).toContain('name="version" value="4"');
  });

  it('deactivates with the version seen; finance cannot post', async () => {
    const { context, calls } = contractApi({
      'GET /me': meAnswer(['pricing']),
      'POST /add-ons/1/deactivate': { status: 200, body: { addOn: addOn({ active: false, version: 4 }) } },
    });
    const result = answerOf<AddOnsResult>(
      await action({
        request: formPost('/adicionales', { csrf: 'c', intent: 'deactivate', id: '1', version: '3' }),
        context,
      } as never),
    );
    expect(result.data).toMatchObject({ ok: true, message: expect.stringContaining('desactivado') });
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ version: 3 });
    const finance = contractApi({ 'GET /me': meAnswer(['finance']) });
    const thrown = await thrownBy(() =>
      action({
        request: formPost('/adicionales', { csrf: 'c', intent: 'deactivate', id: '1', version: '3' }),
        context: finance.context,
      } as never),
    );
    expect(thrown).toMatchObject({ init: { status: 403 } });
  });
});
