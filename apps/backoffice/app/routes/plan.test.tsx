import { describe, expect, it } from 'vitest';
import type { PlanDetails } from '#app/features/plans.ts';
import { answerOf, contractApi, formPost, meAnswer, pageRequest, thrownBy } from '#app/test/fake-api.ts';
import { renderPage } from '#app/test/render.tsx';
import { action, loader, PlanView } from './plan.tsx';

const live: PlanDetails = {
  label: 'Travesía Esencial',
  audience: 'Viajes cortos por Sudamérica',
  badge: { label: 'Oferta', color: '#f59e0b' },
  arrowColor: null,
  titleColor: '#0b5563',
  color: '#0b5563',
  isBestSeller: false,
  medicalLimitUsd: 30000,
  benefits: [
    { label: 'Asistencia médica', value: 'USD 30.000', isPriority: true },
    { label: 'Equipaje', value: 'USD 1.200', isPriority: false },
  ],
  modalityIds: [1],
  regionIds: [3],
  passengerTypeIds: [1, 2],
  tax: { enabled: false, rateBp: 0, reason: '' },
  image: { large: '/img/plans/esencial.svg', small: '/img/plans/esencial.svg' },
  conditionsKey: null,
  retired: false,
};
const draft = { ...live, label: 'Travesía Joven', audience: 'Para estudiantes y mochileros' };
const item = {
  live,
  draft: { body: draft, version: 2, updatedAt: '2026-11-28T12:00:00.000Z', updatedBy: 'contenido@travesia.cl' },
  changes: ['Nombre: «Travesía Esencial» → «Travesía Joven»'],
  scheduled: null,
};
const options = {
  modalities: [
    { id: 1, label: 'Viaje único' },
    { id: 2, label: 'Anual' },
  ],
  regions: [{ id: 3, label: 'Europa' }],
  passengerTypes: [
    { id: 1, label: 'Adulto', ageFrom: 0, ageTo: 74 },
    { id: 2, label: 'Senior', ageFrom: 75, ageTo: 84 },
  ],
};
const answers = (roles: ('admin' | 'content' | 'pricing' | 'support')[]) => ({
  'GET /me': meAnswer(roles),
  'GET /plans/410': { status: 200, body: item },
  'GET /plans/410/options': { status: 200, body: options },
  'GET /plans/410/history': { status: 200, body: { publications: [] } },
});

const planForm = (overrides: Record<string, string | string[]> = {}) => ({
  csrf: 'csrf-1',
  version: '2',
  nombre: 'Travesía Joven',
  'para-quien': 'Para estudiantes',
  insignia: '',
  'insignia-color': '#f59e0b',
  color: '#0b5563',
  'color-titulo': '#0b5563',
  'color-mayores': '',
  cobertura: '30.000',
  beneficios: '3',
  'beneficio-0-orden': '2',
  'beneficio-0-nombre': 'Asistencia médica',
  'beneficio-0-limite': 'USD 30.000',
  'beneficio-0-prioritario': 'on',
  'beneficio-1-orden': '1',
  'beneficio-1-nombre': 'Equipaje',
  'beneficio-1-limite': 'USD 1.200',
  'beneficio-2-orden': '3',
  'beneficio-2-nombre': '',
  'beneficio-2-limite': '',
  modalidad: ['1', '2'],
  region: ['3'],
  tramo: ['1'],
  'iva-tasa': '19',
  'iva-razon': 'Incluye servicios prestados en Chile, afectos a IVA.',
  iva: 'on',
  'imagen-grande': '/img/plans/esencial.svg',
  'imagen-chica': '/img/plans/esencial.svg',
  condiciones: '',
  intent: 'guardar',
  ...overrides,
});

describe('«Planes» (content edits, pricing reads)', () => {
  it('shows the draft plan, what it changes and the publishing controls to content; pricing reads it only', async () => {
    const editor = contractApi(answers(['content']));
    const data = await loader({
      request: pageRequest('/planes/410'),
      context: editor.context,
      params: { id: '410' },
    } as never);
    const html = renderPage(<PlanView {...data} csrfToken="c" />);
    expect(html).toContain('value="Travesía Joven"');
    expect(html).toContain('value="Para estudiantes y mochileros"');
    expect(html).toContain('Nombre: «Travesía Esencial» → «Travesía Joven»');
    expect(html).toContain('Crear enlace de vista previa');
    expect(html).toContain('Guardar borrador');

    const reader = contractApi(answers(['pricing']));
    const read = await loader({
      request: pageRequest('/planes/410'),
      context: reader.context,
      params: { id: '410' },
    } as never);
    const readOnly = renderPage(<PlanView {...read} csrfToken="c" />);
    expect(readOnly).toContain('Tu rol puede ver el plan, no cambiarlo.');
    expect(readOnly).not.toContain('Guardar borrador');
    const outsider = contractApi({ 'GET /me': meAnswer(['support']) });
    const thrown = await thrownBy(() =>
      loader({ request: pageRequest('/planes/410'), context: outsider.context, params: { id: '410' } } as never),
    );
    expect(thrown).toMatchObject({ init: { status: 403 } });
  });

  it('saves the form as the draft (benefits in their order, checked choices, IVA) and shows a stale save in words', async () => {
    const { context, calls } = contractApi({
      'GET /plans/410': { status: 200, body: item },
      'PUT /plans/410/draft': {
        status: 409,
        body: {
          detail: 'stale',
          errors: [{ field: 'version', code: 'stale', message: 'jefa@travesia.cl guardó este borrador a las 09:40.' }],
        },
      },
    });
    const answer = answerOf<{ ok: boolean; message: string }>(
      await action({ request: formPost('/planes/410', planForm()), context, params: { id: '410' } } as never),
    );
    expect(calls.find((call) => call.method === 'PUT')?.body).toStrictEqual({
      baseVersion: 2,
      body: {
        ...draft,
        audience: 'Para estudiantes',
        badge: null,
        benefits: [
          { label: 'Equipaje', value: 'USD 1.200', isPriority: false },
          { label: 'Asistencia médica', value: 'USD 30.000', isPriority: true },
        ],
        modalityIds: [1, 2],
        passengerTypeIds: [1],
        tax: { enabled: true, rateBp: 1900, reason: 'Incluye servicios prestados en Chile, afectos a IVA.' },
      },
    });
    expect(answer).toMatchObject({ status: 409, data: { ok: false, message: expect.stringContaining('jefa@') } });
    const bad = answerOf<{ errors: Record<string, string> }>(
      await action({
        request: formPost('/planes/410', planForm({ nombre: '', color: 'rojo', tramo: [] })),
        context,
        params: { id: '410' },
      } as never),
    );
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.data.errors).sort()).toStrictEqual(['color', 'nombre', 'tramo']);
  });

  it('lists the fields the API refuses by their path under the form; its own checks stay beside their field', async () => {
    const { context } = contractApi({
      'GET /plans/410': { status: 200, body: item },
      'PUT /plans/410/draft': {
        status: 400,
        body: {
          detail: 'invalid',
          errors: [{ field: 'body.benefits.1.value', code: 'too_big', message: 'Hasta 60 caracteres.' }],
        },
      },
    });
    const refused = answerOf<{ ok: boolean; message: string; errors: Record<string, string> }>(
      await action({ request: formPost('/planes/410', planForm()), context, params: { id: '410' } } as never),
    );
    expect(refused.data.errors).toStrictEqual({ 'benefits.1.value': 'Hasta 60 caracteres.' });
    const html = renderPage(
      <PlanView
        item={item}
        options={options}
        history={[]}
        canEdit
        csrfToken="c"
        result={{ ...refused.data, errors: { ...refused.data.errors, nombre: 'El plan necesita un nombre.' } }}
      />,
    );
    expect(html).toContain('benefits.1.value: Hasta 60 caracteres.');
    expect(html).not.toContain('nombre: El plan');
    expect(html).toContain('El plan necesita un nombre.');
  });

  it('uploads a chosen image as the body of its own call, and the draft points at the resized sizes', async () => {
    const { context, calls } = contractApi({
      'GET /plans/410': { status: 200, body: item },
      'POST /plans/410/image?nombre=foto.png': {
        status: 200,
        body: { image: { large: '/api/plan-images/x/large.webp', small: '/api/plan-images/x/small.webp' } },
      },
      'PUT /plans/410/draft': { status: 200, body: { version: 3 } },
    });
    const form = new FormData();
    for (const [name, value] of Object.entries(planForm())) {
      for (const one of Array.isArray(value) ? value : [value]) form.append(name, one);
    }
    form.append('imagen-archivo', new File(['PNG bytes'], 'foto.png', { type: 'image/png' }));
    const request = pageRequest('/planes/410', { method: 'POST', body: form, headers: { origin: 'http://localhost' } });
    const answer = answerOf<{ ok: boolean }>(await action({ request, context, params: { id: '410' } } as never));
    expect(answer.data.ok).toBe(true);
    const upload = calls.find((call) => call.path.startsWith('/plans/410/image'));
    expect(upload?.headers.get('content-type')).toBe('application/octet-stream');
    expect(upload?.body).toBe('PNG bytes');
    expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({
      body: { image: { large: '/api/plan-images/x/large.webp' } },
    });
  });
});
