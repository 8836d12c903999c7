import { errorMessages } from '@travesia/domain/messages';
import { alreadyPaid, companyDetailsMissing, ruleMessages as r } from '@travesia/domain/rules';
import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { invoiceDetails, sales } from '#app/db/schema.ts';
import { quotationIdMessage } from '#app/http.ts';
import { findInvoiceDetails } from '#app/modules/invoices/service.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { type Answer, call, expectBadRequest, expectError, get } from './support/http.ts';
import { createQuotation } from './support/trips.ts';

const unknownId = '7d8f3a52-1c4b-4e8a-9f0e-2b6c1d3e4f50';

/** The code and message of each field error these tests expect. */
const m = {
  required: { code: 'required', message: r.required },
  textLength: (max: number) => ({ code: 'too_long', message: r.tooLong(max) }),
  invalidRut: { code: 'invalid_rut', message: r.invalidRut },
  emailFormat: { code: 'invalid_email', message: r.invalidEmail },
  boolean: { code: 'invalid_type', message: r.notBoolean },
  companyRequired: companyDetailsMissing,
  alreadyPaid,
  quotationId: { code: 'invalid_format', message: quotationIdMessage },
};

/*
 * Company RUT with its check digit computed by hand (weights 2,3,4,5,6,7,2,3 from the rightmost digit):
 * 76.543.210 → 0·2 + 1·3 + 2·4 + 3·5 + 4·6 + 5·7 + 6·2 + 7·3 = 118; 118 mod 11 = 8; 11 − 8 = 3 → 76.543.210-3.
 */
const companyRut = '76.543.210-3';
const wrongCompanyRut = '76.543.210-4';

type Company = { name: string; id: string; business: string; address: string; email: string };
type InvoiceBody = {
  personalInformation: {
    address: string;
    streetNumber: string;
    apartment?: string | null;
    locality: string;
    province: string;
  };
  generateInvoice: boolean;
  companyDetails: Company | null;
};

const personal = {
  address: 'Av. Providencia',
  streetNumber: '1234',
  apartment: 'Depto 56',
  locality: 'Providencia',
  province: 'Santiago',
};

const company: Company = {
  name: 'Viajes Andinos SpA',
  id: companyRut,
  business: 'Agencia de viajes',
  address: 'Huérfanos 1160, Santiago',
  email: 'facturas@viajesandinos.cl',
};

const withoutCompany = (overrides: Partial<InvoiceBody> = {}): InvoiceBody => ({
  personalInformation: personal,
  generateInvoice: false,
  companyDetails: null,
  ...overrides,
});

const withCompany = (overrides: Partial<Company> = {}): InvoiceBody => ({
  personalInformation: personal,
  generateInvoice: true,
  companyDetails: { ...company, ...overrides },
});

const url = (id: string) => `/api/quotations/${id}/invoice-details`;
const postInvoice = (ctx: TestContext, id: string, body: unknown) =>
  call(ctx.app, { method: 'POST', url: url(id), payload: body as Record<string, unknown> });

function expectInvalid(answer: Answer, instance: string, expected: { field: string; code: string; message: string }[]) {
  const errors = expectBadRequest(answer, errorMessages.invalidInputs, instance);
  const byField = (a: { field: string }, b: { field: string }) => a.field.localeCompare(b.field);
  expect([...errors].sort(byField)).toStrictEqual([...expected].sort(byField));
}

async function expectSaved(answer: Answer) {
  expect(answer.status, answer.text).toBe(204);
  expect(answer.text).toBe('');
}

const readInvoice = async (ctx: TestContext, id: string) => {
  const answer = await get(ctx.app, url(id));
  expect(answer.status, answer.text).toBe(200);
  return answer.json<InvoiceBody>();
};

describeOnEachDatabase('invoice details: save and read', (ctx) => {
  it('without an invoice: POST 204, GET answers what was sent', async () => {
    const id = await createQuotation(ctx);
    await expectSaved(await postInvoice(ctx, id, withoutCompany()));
    expect(await readInvoice(ctx, id)).toStrictEqual(withoutCompany());
  });

  it('with an invoice: the company (RUT 76.543.210-3) is stored and answered', async () => {
    const id = await createQuotation(ctx);
    await expectSaved(await postInvoice(ctx, id, withCompany()));
    expect(await readInvoice(ctx, id)).toStrictEqual(withCompany());
  });

  it('a second POST replaces the first (one row per quotation)', async () => {
    const id = await createQuotation(ctx);
    await expectSaved(await postInvoice(ctx, id, withCompany()));
    const second = withoutCompany({ personalInformation: { ...personal, streetNumber: '99', apartment: null } });
    await expectSaved(await postInvoice(ctx, id, second));
    expect(await readInvoice(ctx, id)).toStrictEqual(second);
    const rows = await ctx.database.db.select().from(invoiceDetails).where(eq(invoiceDetails.quotationId, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ companyName: null, companyRut: null, companyEmail: null });
  });

  it('no apartment (absent or blank) is answered as null; texts are trimmed', async () => {
    const id = await createQuotation(ctx);
    const { apartment: _apartment, ...noApartment } = personal;
    await expectSaved(await postInvoice(ctx, id, withoutCompany({ personalInformation: noApartment })));
    expect((await readInvoice(ctx, id)).personalInformation.apartment).toBeNull();
    const padded = { ...personal, apartment: '   ', locality: '  Ñuñoa ' };
    await expectSaved(await postInvoice(ctx, id, withoutCompany({ personalInformation: padded })));
    expect((await readInvoice(ctx, id)).personalInformation).toStrictEqual({
      ...personal,
      apartment: null,
      locality: 'Ñuñoa',
    });
  });

  it('without an invoice, company details sent anyway are not stored', async () => {
    const id = await createQuotation(ctx);
    await expectSaved(await postInvoice(ctx, id, { ...withCompany(), generateInvoice: false }));
    expect(await readInvoice(ctx, id)).toStrictEqual(withoutCompany());
  });

  it('GET before any POST → 404 Resource not found', async () => {
    const id = await createQuotation(ctx);
    expectError(await get(ctx.app, url(id)), 404, errorMessages.resourceNotFound, url(id));
  });

  it('findInvoiceDetails (for payments) answers the stored data, undefined when none', async () => {
    const id = await createQuotation(ctx);
    expect(await findInvoiceDetails(ctx.database.db, id)).toBeUndefined();
    await expectSaved(await postInvoice(ctx, id, withCompany()));
    expect(await findInvoiceDetails(ctx.database.db, id)).toStrictEqual(withCompany());
  });
});

describeOnEachDatabase('invoice details: rules', (ctx) => {
  let id = '';
  beforeAll(async () => {
    id = await createQuotation(ctx);
  });

  it('an invoice without company details → 400 on companyDetails', async () => {
    const answer = await postInvoice(ctx, id, { ...withCompany(), companyDetails: null });
    expectInvalid(answer, url(id), [{ field: 'companyDetails', ...m.companyRequired }]);
  });

  it('a company RUT with a wrong check digit → RUT inválido on companyDetails.id', async () => {
    expectInvalid(await postInvoice(ctx, id, withCompany({ id: wrongCompanyRut })), url(id), [
      { field: 'companyDetails.id', ...m.invalidRut },
    ]);
  });

  it('a company e-mail that is not one → 400 on companyDetails.email', async () => {
    expectInvalid(await postInvoice(ctx, id, withCompany({ email: 'facturas@' })), url(id), [
      { field: 'companyDetails.email', ...m.emailFormat },
    ]);
  });

  it('every problem at once: blank address, missing province, blank company name', async () => {
    const { province: _province, ...noProvince } = personal;
    const body = { ...withCompany({ name: ' ' }), personalInformation: { ...noProvince, address: '' } };
    expectInvalid(await postInvoice(ctx, id, body), url(id), [
      { field: 'personalInformation.address', ...m.required },
      { field: 'personalInformation.province', ...m.required },
      { field: 'companyDetails.name', ...m.required },
    ]);
  });

  it('texts longer than their field → too_long, with the limit in the message', async () => {
    const body = withCompany({ business: 'g'.repeat(101) });
    body.personalInformation = { ...personal, address: 'a'.repeat(201), apartment: 'b'.repeat(21) };
    expectInvalid(await postInvoice(ctx, id, body), url(id), [
      { field: 'personalInformation.address', ...m.textLength(200) },
      { field: 'personalInformation.apartment', ...m.textLength(20) },
      { field: 'companyDetails.business', ...m.textLength(100) },
    ]);
  });

  it('generateInvoice must be a boolean', async () => {
    expectInvalid(await postInvoice(ctx, id, { ...withoutCompany(), generateInvoice: 'si' }), url(id), [
      { field: 'generateInvoice', ...m.boolean },
    ]);
  });

  it('a refused POST leaves the saved data as it was', async () => {
    await expectSaved(await postInvoice(ctx, id, withCompany()));
    expect((await postInvoice(ctx, id, withCompany({ id: wrongCompanyRut, name: 'Otra' }))).status).toBe(400);
    expect(await readInvoice(ctx, id)).toStrictEqual(withCompany());
  });
});

describeOnEachDatabase('invoice details: unknown, malformed, paid', (ctx) => {
  it('GET and POST for an unknown quotation → 404 Resource not found', async () => {
    expectError(await get(ctx.app, url(unknownId)), 404, errorMessages.resourceNotFound, url(unknownId));
    expectError(
      await postInvoice(ctx, unknownId, withoutCompany()),
      404,
      errorMessages.resourceNotFound,
      url(unknownId),
    );
  });

  it('a malformed quotation id → 400 Invalid inputs supplied on quotationId', async () => {
    const expected = [{ field: 'quotationId', ...m.quotationId }];
    expectInvalid(await get(ctx.app, url('123')), url('123'), expected);
    expectInvalid(await postInvoice(ctx, '123', withoutCompany()), url('123'), expected);
  });

  it('once the sale is paid the POST is refused (La compra ya fue pagada…) and nothing changes', async () => {
    const id = await createQuotation(ctx, { planId: 411 });
    await expectSaved(await postInvoice(ctx, id, withoutCompany()));
    await ctx.database.db.insert(sales).values({
      id: 910_001,
      companyId: 1,
      quotationId: id,
      productId: 411,
      amountUsdCents: 10_000,
      amountClp: 94_853,
      status: 'paid',
      paidAt: new Date(),
    });
    expectInvalid(await postInvoice(ctx, id, withCompany()), url(id), [{ field: 'quotationId', ...m.alreadyPaid }]);
    expect(await readInvoice(ctx, id)).toStrictEqual(withoutCompany());
  });

  it('while the sale is pending the data can still change', async () => {
    const id = await createQuotation(ctx, { planId: 411 });
    await ctx.database.db.insert(sales).values({
      id: 910_002,
      companyId: 1,
      quotationId: id,
      productId: 411,
      amountUsdCents: 10_000,
      amountClp: 94_853,
      status: 'pending',
    });
    await expectSaved(await postInvoice(ctx, id, withCompany()));
    expect(await readInvoice(ctx, id)).toStrictEqual(withCompany());
  });
});
