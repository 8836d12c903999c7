import { errorMessages, parameterMustBeDefined } from '@travesia/domain/messages';
import { expect, it } from 'vitest';
import { demoCompany } from '#app/db/seed/demo-company.ts';
import { describeOnEachDatabase } from './support/harness.ts';
import { anyRequestId, expectBadRequest, expectError, get } from './support/http.ts';

type Labelled = { id: number; label: string };

const countryOf = (isoCode: string): Labelled => {
  const country = demoCompany.countries.find((c) => c.isoCode === isoCode);
  if (!country) throw new Error(`seed has no country ${isoCode}`);
  return { id: country.id, label: country.label };
};

const destinationsOfModality = (modalityId: number): Labelled[] =>
  demoCompany.destinations.filter((d) => d.modalityIds.includes(modalityId)).map(({ id, label }) => ({ id, label }));

describeOnEachDatabase('catalog', (ctx) => {
  it('GET /origins answers the seeded origins as { id, label }', async () => {
    const answer = await get(ctx.app, '/api/companies/1/origins');
    expect(answer.status).toBe(200);
    expect(answer.json()).toStrictEqual(demoCompany.origins);
    expect(answer.json()).toStrictEqual([{ id: 1, label: 'Chile' }]);
  });

  it('GET /modalities answers id, label, adddays and returnDateConfiguration for each seeded modality', async () => {
    const answer = await get(ctx.app, '/api/companies/1/modalities');
    expect(answer.status).toBe(200);
    expect(answer.json()).toStrictEqual(
      demoCompany.modalities.map((m) => ({
        id: m.id,
        label: m.label,
        adddays: m.addDays,
        returnDateConfiguration: { enabled: m.returnDateEnabled, addDays: m.returnAddDays },
        minDays: m.minDays,
        maxDays: m.maxDays,
      })),
    );
  });

  it('modality 2 (annual) has a fixed return date: returnDateConfiguration.enabled false, addDays 364', async () => {
    const modalities = (await get(ctx.app, '/api/companies/1/modalities')).json<
      { id: number; adddays: number; returnDateConfiguration: { enabled: boolean; addDays: number } }[]
    >();
    const annual = modalities.find((m) => m.id === 2);
    expect(annual?.returnDateConfiguration).toStrictEqual({ enabled: false, addDays: 364 });
    expect(annual?.adddays).toBe(364);
    const single = modalities.find((m) => m.id === 1);
    expect(single?.returnDateConfiguration).toStrictEqual({ enabled: true, addDays: 7 });
  });

  it('the modalities publish their trip-length limits (the quoter checks them before any call) but not their code', async () => {
    const modalities = (await get(ctx.app, '/api/companies/1/modalities')).json<Record<string, unknown>[]>();
    for (const modality of modalities) {
      expect(Object.keys(modality).sort()).toStrictEqual([
        'adddays',
        'id',
        'label',
        'maxDays',
        'minDays',
        'returnDateConfiguration',
      ]);
    }
  });

  it.each([1, 2, 3])('GET /destinations/%i answers the regions offered for that modality, in order', async (id) => {
    const answer = await get(ctx.app, `/api/companies/1/destinations/${id}`);
    expect(answer.status).toBe(200);
    expect(answer.json()).toStrictEqual(destinationsOfModality(id));
  });

  it('the annual modality is sold for South America and worldwide only', async () => {
    const answer = await get(ctx.app, '/api/companies/1/destinations/2');
    expect(answer.json()).toStrictEqual([
      { id: 1, label: 'Sudamérica' },
      { id: 7, label: 'Todo el mundo' },
    ]);
  });

  it('GET /destinations/3/countries answers the countries of Europe, Spain among them, sorted by label', async () => {
    const answer = await get(ctx.app, '/api/companies/1/destinations/3/countries');
    expect(answer.status).toBe(200);
    const europe = demoCompany.destinations.find((d) => d.id === 3);
    expect(europe?.label).toBe('Europa');
    const expected = (europe?.countryIsoCodes ?? [])
      .map(countryOf)
      .sort((a, b) => a.label.localeCompare(b.label, 'es'));
    expect(answer.json()).toStrictEqual(expected);
    expect(answer.json()).toContainEqual({ id: 17, label: 'España' });
  });

  it('GET /destinations/7/countries answers every country of the worldwide region', async () => {
    const answer = await get(ctx.app, '/api/companies/1/destinations/7/countries');
    expect(answer.status).toBe(200);
    const worldwide = demoCompany.destinations.find((d) => d.id === 7);
    const byId = (items: Labelled[]) => [...items].sort((a, b) => a.id - b.id);
    expect(byId(answer.json<Labelled[]>())).toStrictEqual(byId((worldwide?.countryIsoCodes ?? []).map(countryOf)));
  });

  it('an unknown modality → 404 Resource not found', async () => {
    const url = '/api/companies/1/destinations/999';
    expectError(await get(ctx.app, url), 404, errorMessages.resourceNotFound, url);
  });

  it('an unknown destination → 404 Resource not found', async () => {
    const url = '/api/companies/1/destinations/999/countries';
    expectError(await get(ctx.app, url), 404, errorMessages.resourceNotFound, url);
  });

  it.each(['2147483647', '2147483648', '9007199254740991'])(
    'modality and destination %s (up to and beyond the integer column) → 404 Resource not found, not 500',
    async (id) => {
      for (const url of [`/api/companies/1/destinations/${id}`, `/api/companies/1/destinations/${id}/countries`]) {
        expectError(await get(ctx.app, url), 404, errorMessages.resourceNotFound, url);
      }
    },
  );

  it('GET /passanger-types answers the 3 age bands 0–74, 75–84 and 85–120', async () => {
    const answer = await get(ctx.app, '/api/companies/1/passanger-types');
    expect(answer.status).toBe(200);
    const body = answer.json<{ id: number; label: string; ageFrom: number; ageTo: number }[]>();
    expect(body).toStrictEqual(demoCompany.passengerTypes);
    expect(body.map((p) => [p.ageFrom, p.ageTo])).toStrictEqual([
      [0, 74],
      [75, 84],
      [85, 120],
    ]);
  });

  it('GET /passanger-type-product answers which passenger types each plan is sold to', async () => {
    const answer = await get(ctx.app, '/api/companies/1/passanger-type-product');
    expect(answer.status).toBe(200);
    const body = answer.json<{ idPassangerTypeProducto: number; idPassangerType: number; idProducto: number }[]>();
    for (const row of body) {
      expect(Object.keys(row).sort()).toStrictEqual(['idPassangerType', 'idPassangerTypeProducto', 'idProducto']);
      expect(Number.isInteger(row.idPassangerTypeProducto)).toBe(true);
    }
    expect(new Set(body.map((row) => row.idPassangerTypeProducto)).size).toBe(body.length);
    const expected = demoCompany.products
      .flatMap((product) => product.passengerTypeIds.map((type) => ({ idProducto: product.id, idPassangerType: type })))
      .sort((a, b) => a.idProducto - b.idProducto || a.idPassangerType - b.idPassangerType);
    expect(body.map(({ idProducto, idPassangerType }) => ({ idProducto, idPassangerType }))).toStrictEqual(expected);
  });

  it('GET /payment-gateways answers the enabled gateways as { id, name, logo, url, testMode }', async () => {
    const answer = await get(ctx.app, '/api/companies/1/payment-gateways');
    expect(answer.status).toBe(200);
    // The tests' store runs Webpay on Transbank's integration environment (the default): both take test payments.
    expect(ctx.config.webpay.testMode).toBe(true);
    expect(answer.json()).toStrictEqual(demoCompany.paymentGateways.map((gateway) => ({ ...gateway, testMode: true })));
  });
});

describeOnEachDatabase('exchange rate', (ctx) => {
  const url = '/api/companies/1/exchange-rate';

  it('converts 100 USD to 94853 CLP at the seeded 948.53', async () => {
    const answer = await get(ctx.app, `${url}?amount=100`);
    expect(answer.status).toBe(200);
    expect(answer.json()).toStrictEqual({ amount: 94853, type: 948.53 });
    expect(Number(demoCompany.exchangeRate.rate)).toBe(948.53);
  });

  it.each([
    // amount, by hand: amount × 948.53, then whole pesos rounded half up
    ['0.5', 474], // 474.265 → 474
    ['50', 47427], // 47426.5 → 47427 (a tie rounds up, not to even)
    ['125.50', 119041], // 119040.515 → 119041
    ['1', 949], // 948.53 → 949
    ['0.01', 9], // 9.4853 → 9
    ['0', 0],
  ])('converts %s USD to %i CLP (whole pesos, half up)', async (amount, clp) => {
    const answer = await get(ctx.app, `${url}?amount=${amount}`);
    expect(answer.status).toBe(200);
    expect(answer.json()).toStrictEqual({ amount: clp, type: 948.53 });
  });

  it("a missing amount → 400 The parameter 'amount' must be defined.", async () => {
    const answer = await get(ctx.app, url);
    expect(answer.status).toBe(400);
    const detail = parameterMustBeDefined('amount');
    expect(detail).toBe("The parameter 'amount' must be defined.");
    expect(answer.json()).toStrictEqual({
      status: 400,
      detail,
      instance: url,
      errors: [{ field: 'amount', code: 'required', message: detail }],
      requestId: anyRequestId,
    });
  });

  it("an empty amount (amount=) → 400 The parameter 'amount' must be defined.", async () => {
    const answer = await get(ctx.app, `${url}?amount=`);
    expect(answer.status).toBe(400);
    expect(answer.json()).toMatchObject({ status: 400, detail: parameterMustBeDefined('amount'), instance: url });
  });

  it.each(['abc', '-5', '1,5', '12e3', '0x10', '1e20', '1E+20', '1234567890123', '1.1234567'])(
    'amount=%s → 400 Invalid input parameters naming the amount',
    async (amount) => {
      const answer = await get(ctx.app, `${url}?amount=${encodeURIComponent(amount)}`);
      const errors = expectBadRequest(answer, errorMessages.invalidInputParameters, url);
      expect(errors.map((e) => e.field)).toContain('amount');
    },
  );

  it.each([
    ['401 digits', '9'.repeat(401)],
    ['10^20 written out', `1${'0'.repeat(20)}`],
    ['13 digits with decimals', '1000000000000.5'],
  ])(
    'a huge amount (%s) → 400 naming the amount, not a 500 (its pesos would not be a finite number)',
    async (_, amount) => {
      const answer = await get(ctx.app, `${url}?amount=${amount}`);
      const errors = expectBadRequest(answer, errorMessages.invalidInputParameters, url);
      expect(errors.map((e) => e.field)).toStrictEqual(['amount']);
    },
  );

  it('the largest amount accepted (12 digits, 6 decimals) converts exactly: 999999999999.999999 → 948530000000000', async () => {
    const answer = await get(ctx.app, `${url}?amount=999999999999.999999`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json()).toStrictEqual({ amount: 948_530_000_000_000, type: 948.53 });
  });
});
