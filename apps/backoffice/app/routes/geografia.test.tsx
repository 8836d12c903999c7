import { describe, expect, it } from 'vitest';
import type { PublishingResult } from '#app/features/publishing.ts';
import { answerOf, contractApi, formPost, meAnswer, pageRequest, thrownBy } from '#app/test/fake-api.ts';
import { renderPage } from '#app/test/render.tsx';
import { action, GeographyView, loader } from './geografia.tsx';

const live = {
  regions: [
    { id: 3, code: 'EUR', label: 'Europa', modalityIds: [1, 2], countries: ['ES', 'FR'] },
    { id: 4, code: 'ASIA', label: 'Asia', modalityIds: [], countries: [] },
  ],
  countries: [
    { id: 10, isoCode: 'ES', label: 'España', schengen: true },
    { id: 11, isoCode: 'FR', label: 'Francia', schengen: true },
    { id: 12, isoCode: 'GB', label: 'Reino Unido', schengen: false },
  ],
  origins: [{ id: 1, label: 'Chile' }],
};
const answers = (roles: ('admin' | 'content' | 'support')[]) => ({
  'GET /me': meAnswer(roles),
  'GET /geography/main': { status: 200, body: { live, draft: null, changes: [], scheduled: null } },
  'GET /geography-modalities': {
    status: 200,
    body: {
      modalities: [
        { id: 1, label: 'Viaje único' },
        { id: 2, label: 'Multiviaje anual' },
      ],
    },
  },
  'GET /geography/main/history': { status: 200, body: { publications: [] } },
});

describe('«Geografía» (content edits and publishes)', () => {
  it('shows regions, countries and origins as a form (a retired region says so); support may not open it', async () => {
    const { context } = contractApi(answers(['content']));
    const data = await loader({ request: pageRequest('/geografia'), context, params: {} } as never);
    const html = renderPage(<GeographyView {...data} csrfToken="c" />);
    expect(html).toContain('value="Europa"');
    expect(html).toContain('Asia (retirada)');
    expect(html).toContain('Multiviaje anual');
    expect(html).toContain('value="ES, FR"');
    // Each country's «Schengen» is a checkbox, ticked for the area's members only.
    expect(html).toContain('name="pais-0-schengen" checked="" value="si"');
    expect(html).toContain('name="pais-2-schengen" value="si"/> Schengen');
    expect(html).toContain('Nueva región');
    expect(html).not.toContain('<textarea');
    const outsider = contractApi({ 'GET /me': meAnswer(['support']) });
    expect(
      await thrownBy(() =>
        loader({ request: pageRequest('/geografia'), context: outsider.context, params: {} } as never),
      ),
    ).toMatchObject({ init: { status: 403 } });
  });

  it('saves the form as the body: a region retired, a country added, an origin deleted; field errors in words', async () => {
    const { context, calls } = contractApi({
      ...answers(['content']),
      'PUT /geography/main/draft': { status: 200, body: { version: 1 } },
    });
    const answer = answerOf<PublishingResult>(
      await action({
        request: formPost('/geografia', {
          csrf: 'csrf-1',
          version: '0',
          intent: 'guardar',
          'region-0-id': '3',
          'region-0-nombre': 'Europa',
          'region-0-codigo': 'EUR',
          'region-0-paises': 'es, fr it',
          'region-1-id': '',
          'region-1-nombre': '',
          'region-1-codigo': '',
          'region-1-paises': '',
          'pais-0-id': '10',
          'pais-0-iso': 'ES',
          'pais-0-nombre': 'España',
          'pais-0-schengen': 'si',
          'pais-1-id': '',
          'pais-1-iso': 'it',
          'pais-1-nombre': 'Italia',
          'origen-0-id': '1',
          'origen-0-nombre': 'Chile',
          'origen-1-id': '2',
          'origen-1-nombre': 'Argentina',
          'origen-1-borrar': 'si',
        }),
        context,
        params: {},
      } as never),
    );
    expect(answer.data).toMatchObject({ ok: true });
    expect(calls.find((call) => call.method === 'PUT')?.body).toStrictEqual({
      baseVersion: 0,
      body: {
        regions: [{ id: 3, code: 'EUR', label: 'Europa', modalityIds: [], countries: ['ES', 'FR', 'IT'] }],
        countries: [
          { id: 10, isoCode: 'ES', label: 'España', schengen: true },
          { id: null, isoCode: 'IT', label: 'Italia', schengen: false },
        ],
        origins: [{ id: 1, label: 'Chile' }],
      },
    });
    const html = renderPage(
      <GeographyView
        {...(await loader({ request: pageRequest('/geografia'), context, params: {} } as never))}
        csrfToken="c"
        result={{ ok: false, message: 'x', errors: { 'regions.0.code': 'Otra región ya usa este código' } } as never}
      />,
    );
    expect(html).toContain('Región 1 · código: Otra región ya usa este código');
  });
});
