import { errorMessages, parameterMustBeDefined } from '@travesia/domain/messages';
import { expect, it } from 'vitest';
import { demoCompany } from '#app/db/seed/demo-company.ts';
import { describeOnEachDatabase } from './support/harness.ts';
import { anyRequestId, expectBadRequest, get } from './support/http.ts';

/** A seeded contact as the wire carries it (spec §7: e-mails wrapped as `{ email }`). */
const onTheWire = (contact: (typeof demoCompany.contacts)[number]) => ({
  category: contact.category,
  label: contact.label,
  isEmergency: contact.isEmergency,
  isSaleContact: contact.isSaleContact,
  isPrioritized: contact.isPrioritized,
  phones: contact.phones,
  whatsapp: { phone1: contact.whatsappPhone1, phone2: contact.whatsappPhone2 },
  emails: contact.emails.map((email) => ({ email })),
  url: contact.urlHref ? { href: contact.urlHref, label: contact.urlLabel ?? contact.urlHref } : null,
  banner: contact.banner,
});

type WireContact = ReturnType<typeof onTheWire>;

describeOnEachDatabase('content', (ctx) => {
  it('GET /frequently-asked-questions groups the seeded questions in 4 categories, all in seed order', async () => {
    const answer = await get(ctx.app, '/api/companies/1/frequently-asked-questions');
    expect(answer.status).toBe(200);
    const body = answer.json<{ category: string; contents: { question: string; answer: string }[] }[]>();
    expect(body.map((group) => group.category)).toStrictEqual([
      'Compra y pago',
      'Coberturas',
      'Durante el viaje',
      'Reembolsos y certificados',
    ]);
    for (const group of body) {
      expect(group).toStrictEqual({
        category: group.category,
        contents: demoCompany.faqs
          .filter((faq) => faq.category === group.category)
          .map(({ question, answer }) => ({ question, answer })),
      });
    }
    expect(body.flatMap((group) => group.contents.map((c) => c.question))).toStrictEqual(
      demoCompany.faqs.map((faq) => faq.question),
    );
  });

  it('GET /subjects answers the seeded contact-form subjects as { id, label }, in order', async () => {
    const answer = await get(ctx.app, '/api/companies/1/subjects');
    expect(answer.status).toBe(200);
    expect(answer.json()).toStrictEqual(demoCompany.subjects);
  });

  it('GET /contacts-info answers the help-modal entries with their emergency and sale marks', async () => {
    const answer = await get(ctx.app, '/api/companies/1/contacts-info');
    expect(answer.status).toBe(200);
    const body = answer.json<{ whatsapp: string | null }[]>();
    expect(body).toStrictEqual(demoCompany.contactInfos);
    expect(body.some((entry) => entry.whatsapp === null)).toBe(true);
  });

  it('GET /contacts?isEmergencyOrSaleContact=false answers the whole directory, e-mails wrapped as { email }', async () => {
    const answer = await get(ctx.app, '/api/companies/1/contacts?isEmergencyOrSaleContact=false');
    expect(answer.status).toBe(200);
    const body = answer.json<WireContact[]>();
    expect(body).toStrictEqual(demoCompany.contacts.map(onTheWire));
    const business = body.find((contact) => contact.category === 'Empresas y alianzas');
    expect(business?.emails).toStrictEqual([{ email: 'empresas@travesia.cl' }, { email: 'alianzas@travesia.cl' }]);
  });

  it('GET /contacts?isEmergencyOrSaleContact=true answers exactly the emergency and sale contacts', async () => {
    const answer = await get(ctx.app, '/api/companies/1/contacts?isEmergencyOrSaleContact=true');
    expect(answer.status).toBe(200);
    const body = answer.json<WireContact[]>();
    const expected = demoCompany.contacts.filter((c) => c.isEmergency || c.isSaleContact).map(onTheWire);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(demoCompany.contacts.length);
    expect(body).toStrictEqual(expected);
    expect(body.map((c) => c.category)).toStrictEqual(['Asistencia en viaje 24/7', 'Ventas']);
  });

  it('a contact without a URL has url null; one with a URL has { href, label }', async () => {
    const body = (await get(ctx.app, '/api/companies/1/contacts?isEmergencyOrSaleContact=false')).json<WireContact[]>();
    expect(body.find((c) => c.category === 'Asistencia en viaje 24/7')?.url).toBeNull();
    expect(body.find((c) => c.category === 'Ventas')?.url).toStrictEqual({
      href: '/cotizador',
      label: 'Cotizar ahora',
    });
  });

  it("a missing isEmergencyOrSaleContact → 400 The parameter 'isEmergencyOrSaleContact' must be defined.", async () => {
    const url = '/api/companies/1/contacts';
    const answer = await get(ctx.app, url);
    expect(answer.status).toBe(400);
    const detail = "The parameter 'isEmergencyOrSaleContact' must be defined.";
    expect(parameterMustBeDefined('isEmergencyOrSaleContact')).toBe(detail);
    expect(answer.json()).toStrictEqual({
      status: 400,
      detail,
      instance: url,
      errors: [{ field: 'isEmergencyOrSaleContact', code: 'required', message: detail }],
      requestId: anyRequestId,
    });
  });

  it.each(['maybe', 'TRUE', '1', 'yes'])(
    'isEmergencyOrSaleContact=%s → 400 Invalid input parameters naming the parameter',
    async (value) => {
      const url = '/api/companies/1/contacts';
      const answer = await get(ctx.app, `${url}?isEmergencyOrSaleContact=${value}`);
      const errors = expectBadRequest(answer, errorMessages.invalidInputParameters, url);
      expect(errors.map((e) => e.field)).toContain('isEmergencyOrSaleContact');
    },
  );
});
