import { describe, expect, it } from 'vitest';
import { serverApi } from './api.server.ts';
import { dataOrNull, dataOrThrow, formOutcome, rateLimitedMessage, unavailableMessage } from './api-answer.server.ts';

/**
 * The helper is fed real openapi-fetch answers: the storefront's own client (serverApi) over a fetch that answers
 * what the API would (or fails like an unreachable API), so the tests also prove what the client hands over.
 */
function apiAnswering(status: number, body?: unknown) {
  return serverApi({
    apiFetch: async () =>
      new Response(body === undefined ? null : JSON.stringify(body), {
        status,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
      }),
  });
}

const unreachableApi = serverApi({
  apiFetch: async () => {
    throw new TypeError('fetch failed: connect ECONNREFUSED 127.0.0.1:3000');
  },
});

const errorBody = (status: number, errors: { field: string; code: string; message: string }[] = []) => ({
  status,
  detail: 'Invalid inputs supplied',
  instance: '/api/quotations/x/passangers',
  errors,
});

const quotationId = '0b7e3f4a-9c1d-4e2b-8a5f-1d2c3b4a5e6f';

function savePassengers(api: ReturnType<typeof serverApi>) {
  return api.PUT('/quotations/{quotationId}/passangers', {
    params: { path: { quotationId } },
    body: { shareEmergencyContact: false, countryDestination: 1, passangers: [] } as never,
  });
}

function readQuotation(api: ReturnType<typeof serverApi>) {
  return api.GET('/quotations/{companyId}/{quotationId}', { params: { path: { companyId: 1, quotationId } } });
}

/** What a loader throws, caught for a look. */
function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (thrown) {
    return thrown;
  }
  throw new Error('nothing was thrown');
}

describe('formOutcome', () => {
  const toField = (apiField: string) => (apiField.startsWith('passangers.0.') ? apiField.slice(13) : null);

  it('maps a 400’s field errors through toField, and gives the unmatched ones (once each) to the whole form', async () => {
    const answer = await savePassengers(
      apiAnswering(
        400,
        errorBody(400, [
          { field: 'passangers.0.email', code: 'email_invalid', message: 'Email inválido' },
          { field: 'countryDestination', code: 'required', message: 'Elige el país de destino' },
          { field: 'passangers', code: 'passengers_mismatch', message: 'Faltan pasajeros' },
          { field: 'passangers.9', code: 'passengers_mismatch', message: 'Faltan pasajeros' },
        ]),
      ),
    );
    expect(formOutcome(answer, { toField })).toEqual({
      ok: false,
      status: 400,
      failure: {
        errors: [{ field: 'email', code: 'email_invalid', message: 'Email inválido' }],
        formErrors: ['Elige el país de destino', 'Faltan pasajeros'],
      },
    });
  });

  it('says «check your data» for a 400 that names nothing', async () => {
    const answer = await savePassengers(apiAnswering(400, errorBody(400)));
    expect(formOutcome(answer, { toField, invalidMessage: 'Revisa los datos de los pasajeros.' })).toEqual({
      ok: false,
      status: 400,
      failure: { errors: [], formErrors: ['Revisa los datos de los pasajeros.'] },
    });
  });

  it('reads the field errors of a body parsed as text (a PUT whose success is plain text)', async () => {
    const api = apiAnswering(400, errorBody(400, [{ field: 'returnDate', code: 'required', message: 'Obligatorio' }]));
    const answer = await api.PUT('/quotations/{companyId}/{quotationId}', {
      params: { path: { companyId: 1, quotationId } },
      body: {} as never,
      parseAs: 'text',
    });
    const outcome = formOutcome(answer);
    expect(outcome).toMatchObject({ ok: false, status: 400 });
    expect(!outcome.ok && outcome.failure.errors).toEqual([
      { field: 'returnDate', code: 'required', message: 'Obligatorio' },
    ]);
  });

  it('answers a 404 with the «not found» message, as a 404', async () => {
    const answer = await savePassengers(apiAnswering(404, errorBody(404)));
    expect(formOutcome(answer, { notFoundMessage: 'No encontramos esta cotización.' })).toEqual({
      ok: false,
      status: 404,
      failure: { errors: [], formErrors: ['No encontramos esta cotización.'] },
    });
  });

  it('answers a 429 with the rate-limit message, as a 429', async () => {
    const answer = await savePassengers(apiAnswering(429, errorBody(429)));
    expect(formOutcome(answer)).toEqual({
      ok: false,
      status: 429,
      failure: { errors: [], formErrors: [rateLimitedMessage] },
    });
  });

  it.each([500, 503, 502])(
    'answers a %i with «try again», as a 503 (the form keeps what was typed)',
    async (status) => {
      const answer = await savePassengers(apiAnswering(status, errorBody(status)));
      expect(formOutcome(answer)).toEqual({
        ok: false,
        status: 503,
        failure: { errors: [], formErrors: [unavailableMessage] },
      });
      expect(formOutcome(answer, { unavailableMessage: 'No pudimos guardar tus datos.' })).toMatchObject({
        failure: { formErrors: ['No pudimos guardar tus datos.'] },
      });
    },
  );

  it('answers an API that cannot be reached (the fetch throws) like a 503, never with a thrown error', async () => {
    const answer = await savePassengers(unreachableApi);
    expect(answer.response.status).toBe(503);
    expect(formOutcome(answer)).toEqual({
      ok: false,
      status: 503,
      failure: { errors: [], formErrors: [unavailableMessage] },
    });
  });

  it('hands over the data of a success', async () => {
    const answer = await readQuotation(apiAnswering(200, { id: quotationId }));
    expect(formOutcome(answer)).toEqual({ ok: true, data: { id: quotationId } });
  });
});

describe('dataOrThrow', () => {
  it('returns the data of a success', async () => {
    const answer = await readQuotation(apiAnswering(200, { id: quotationId }));
    expect(dataOrThrow(answer, 'La cotización')).toEqual({ id: quotationId });
  });

  it.each([404, 400])('throws the «not found» page for a %i, naming what', async (status) => {
    const answer = await readQuotation(apiAnswering(status, errorBody(status)));
    expect(thrownBy(() => dataOrThrow(answer, 'La cotización'))).toMatchObject({
      data: { message: 'No encontramos la cotización.' },
      init: { status: 404 },
    });
  });

  it.each([500, 503, 429])('throws the «no disponible» page for a %i', async (status) => {
    const answer = await readQuotation(apiAnswering(status, errorBody(status)));
    expect(thrownBy(() => dataOrThrow(answer, 'Los planes'))).toMatchObject({
      data: { message: 'No pudimos cargar los planes.' },
      init: { status: 503 },
    });
  });

  it('throws the «no disponible» page when the API cannot be reached', async () => {
    const answer = await readQuotation(unreachableApi);
    expect(thrownBy(() => dataOrThrow(answer, 'La cotización'))).toMatchObject({ init: { status: 503 } });
  });
});

describe('dataOrNull', () => {
  it('is null for a 404 (nothing saved yet), the data for a success, and the page error otherwise', async () => {
    expect(dataOrNull(await readQuotation(apiAnswering(404, errorBody(404))), 'Los pasajeros')).toBeNull();
    expect(dataOrNull(await readQuotation(apiAnswering(200, { id: quotationId })), 'Los pasajeros')).toEqual({
      id: quotationId,
    });
    const failed = await readQuotation(apiAnswering(500, errorBody(500)));
    expect(thrownBy(() => dataOrNull(failed, 'Los pasajeros'))).toMatchObject({ init: { status: 503 } });
  });
});
