import { addDays, todayInChile } from '@travesia/domain/dates';
import { errorMessages } from '@travesia/domain/messages';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { sales } from '#app/db/schema.ts';
import { defaultRateLimits } from '#app/lib/rate-limit.ts';
import { schengenCountryCodes } from '#app/modules/certificates/schengen.ts';
import { verifyCertificate } from '#app/modules/certificates/service.ts';
import { certificatePdfOf, freshHolders, paidSaleOf, unitedKingdom } from './support/certificates.ts';
import { describeOnEachDatabase } from './support/harness.ts';
import { get } from './support/http.ts';
import { pdfPageTexts, pdfText } from './support/pdf-text.ts';
import { tripDates } from './support/trips.ts';

const publicUrl = 'https://tienda.travesia.example';

/** The verification code and URL as the PDF prints them. */
function printedVerification(text: string) {
  const code = /Verificación: código ([0-9A-Z]{10})/.exec(text)?.[1];
  const url = new RegExp(`${publicUrl.replace(/\./g, '\\.')}/verificar/([0-9A-Z]{10})`).exec(text);
  return { code, urlCode: url?.[1] };
}

describeOnEachDatabase(
  'certificate verification: code and QR code in the PDF, GET /certificates/verification/{code}',
  (ctx) => {
    it('the PDF prints a verification code, its URL at PUBLIC_URL and a QR image; the code verifies the trip with initials only', async () => {
      const sale = await paidSaleOf(ctx, freshHolders());
      const pdf = await certificatePdfOf(ctx, sale);
      const text = pdfText(pdf);
      const { code, urlCode } = printedVerification(text);
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{10}$/);
      expect(urlCode).toBe(code);
      expect(Buffer.from(pdf).toString('latin1')).toMatch(/\/Subtype\s*\/Image/);

      const answer = await get(ctx.app, `/api/certificates/verification/${code}`);
      expect(answer.status, answer.text).toBe(200);
      const { departureDate, returnDate } = tripDates(10);
      expect(answer.json()).toStrictEqual({
        code,
        // Paid through the sandbox: a test payment covers nobody.
        status: 'void',
        departureDate,
        returnDate,
        destination: 'Europa',
        plan: expect.any(String),
        holders: ['C. R.', 'D. M.', 'R. P.'],
        issuedAt: expect.any(String),
      });
      expect(answer.text).not.toMatch(/Camila|Rojas|example|PX\d/);
      // Typed by hand: lower case, with a hyphen, O for 0 and I/L for 1 are the same code.
      const typed = `${code?.slice(0, 5)}-${code?.slice(5)}`.toLowerCase().replace(/0/g, 'o').replace(/1/g, 'l');
      expect((await get(ctx.app, `/api/certificates/verification/${typed}`)).status).toBe(200);

      // A real (not test) payment is valid between its dates, by today in Chile.
      await ctx.database.db.update(sales).set({ testPayment: false }).where(eq(sales.id, sale.idVenta));
      expect((await get(ctx.app, `/api/certificates/verification/${code}`)).json()).toMatchObject({
        status: 'not_started',
      });
      const db = ctx.database.db;
      expect((await verifyCertificate(db, code ?? '', departureDate)).status).toBe('valid');
      expect((await verifyCertificate(db, code ?? '', returnDate)).status).toBe('valid');
      expect((await verifyCertificate(db, code ?? '', addDays(returnDate, 1))).status).toBe('expired');
      expect((await verifyCertificate(db, code ?? '', todayInChile())).status).toBe('not_started');
    });

    it('an unknown or malformed code is the catalogue 404', async () => {
      for (const code of ['ZZZZZZZZZZ', 'abc', '%3Cscript%3E']) {
        const answer = await get(ctx.app, `/api/certificates/verification/${code}`);
        expect(answer.status, code).toBe(404);
        expect(answer.json()).toMatchObject({ status: 404, detail: errorMessages.resourceNotFound, errors: [] });
      }
    });

    it('a trip to a Schengen state has the English part (EUR 30,000, no deductible, dates, documents); another has not', async () => {
      expect(schengenCountryCodes.has('ES')).toBe(true);
      expect(schengenCountryCodes.has('GB')).toBe(false);
      const holders = freshHolders();
      const spain = pdfText(await certificatePdfOf(ctx, await paidSaleOf(ctx, holders)));
      expect(spain).toContain('Travel medical insurance certificate (Schengen visa)');
      expect(spain).toContain('At least EUR 30,000 per person');
      expect(spain).toContain('None (EUR 0)');
      expect(spain).toMatch(/Chilean ID \(RUT\)/);
      expect(spain).toContain(holders.passport);
      const { departureDate } = tripDates(10);
      const englishDeparture = new Intl.DateTimeFormat('en-GB', {
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      }).format(new Date(`${departureDate}T00:00:00Z`));
      expect(spain).toContain(englishDeparture);
      // The Spanish part is still there.
      expect(spain).toContain('Pasajeros cubiertos');

      const london = pdfText(
        await certificatePdfOf(ctx, await paidSaleOf(ctx, freshHolders(), { country: unitedKingdom })),
      );
      expect(london).toContain('Pasajeros cubiertos');
      expect(london).not.toContain('Schengen');
      expect(london).not.toContain('EUR 30,000');
    });

    it('the certificate e-mailed to each traveller (one traveller on it) keeps its Schengen block on one page', async () => {
      const sale = await paidSaleOf(ctx, freshHolders());
      // A real payment: no test mark drawn across the text.
      await ctx.database.db.update(sales).set({ testPayment: false }).where(eq(sales.id, sale.idVenta));
      const listed = await get(ctx.app, `/api/certificates/b2c/${sale.idVenta}/certificados?token=${sale.accessToken}`);
      const numbers = listed.json<{ certificate: string }[]>().map((item) => item.certificate);
      expect(numbers).toHaveLength(3);
      for (const number of numbers) {
        const own = await ctx.app.inject({
          method: 'GET',
          url: `/api/certificates/b2c/${sale.idVenta}/certificados/${number}?token=${sale.accessToken}`,
        });
        expect(own.statusCode, own.body).toBe(200);
        const pages = (await pdfPageTexts(own.rawPayload)).map((page) => page.replace(/\s+/g, ' '));
        const heading = 'Travel medical insurance certificate (Schengen visa)';
        const at = pages.filter((page) => page.includes(heading));
        expect(at, number).toHaveLength(1);
        for (const line of [
          'Period of cover',
          'Days covered',
          'At least EUR 30,000 per person',
          'Deductible (excess)',
          'None (EUR 0)',
          'Insured:',
          number,
          'Costs are paid directly by the assistance company',
        ]) {
          expect(at[0], `${number}: «${line}» beside the heading`).toContain(line);
        }
      }
    });
  },
  { PUBLIC_URL: publicUrl },
);

describeOnEachDatabase(
  'certificate verification is rate-limited per client',
  (ctx) => {
    it('the 21st look-up in a minute from one client is 429 in the §8 body', async () => {
      const { max } = defaultRateLimits.lookup;
      for (let i = 0; i < max; i++) {
        const answer = await ctx.app.inject({
          method: 'GET',
          url: '/api/certificates/verification/ZZZZZZZZZZ',
          remoteAddress: '203.0.113.30',
        });
        expect(answer.statusCode).toBe(404);
      }
      const refused = await ctx.app.inject({
        method: 'GET',
        url: '/api/certificates/verification/ZZZZZZZZZZ',
        remoteAddress: '203.0.113.30',
      });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ status: 429, detail: errorMessages.tooManyRequests, errors: [] });
    });
  },
  { RATE_LIMIT_FACTOR: '1' },
);
