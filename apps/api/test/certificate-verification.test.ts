import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { addDays, todayInChile } from '@travesia/domain/dates';
import { errorMessages } from '@travesia/domain/messages';
import { and, asc, eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { certificateVerifications, sales } from '#app/db/schema.ts';
import { defaultRateLimits } from '#app/lib/http/rate-limit.ts';
import { schengenCountryCodes } from '#app/modules/catalog/schengen.ts';
import { verifyCertificate } from '#app/modules/certificates/service.ts';
import { signedLinkToken } from '#app/modules/purchases/service.ts';
import { certificatePdfOf, freshHolders, paidSaleOf, unitedKingdom } from './support/certificates.ts';
import { drainJobsAfterAll, emailJobsOfSale, useTemporaryDataDir } from './support/checkout.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { call, get } from './support/http.ts';
import { pdfPageTexts, pdfText, qrCodeOnFirstPage } from './support/pdf-text.ts';
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
    it('the PDF prints a verification code, its URL at PUBLIC_URL and a QR code that scans to that URL; the code verifies the trip with initials only', async () => {
      const sale = await paidSaleOf(ctx, freshHolders());
      const pdf = await certificatePdfOf(ctx, sale);
      const text = pdfText(pdf);
      const { code, urlCode } = printedVerification(text);
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{10}$/);
      expect(urlCode).toBe(code);
      expect(await qrCodeOnFirstPage(pdf)).toBe(`${publicUrl}/verificar/${code}`);

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
        replacedAt: null,
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

/** «Mi compra» opened by the buyer's signed link: the bearer token its calls take. */
async function purchaseToken(ctx: TestContext, saleId: number) {
  const link = await signedLinkToken(ctx.database.db, ctx.config.purchases, saleId);
  const opened = await call(ctx.app, { method: 'POST', url: '/api/purchases/access/link', payload: { link } });
  expect(opened.status, opened.text).toBe(200);
  return opened.json<{ token: string }>().token;
}

/** A date change of the same price (same length, other days): applied at once, new certificates issued. */
async function changeDates(ctx: TestContext, token: string, dates: { departureDate: string; returnDate: string }) {
  const changed = await call(ctx.app, {
    method: 'POST',
    url: '/api/purchases/mine/date-change',
    headers: { authorization: `Bearer ${token}` },
    payload: dates,
  });
  expect(changed.status, changed.text).toBe(200);
  expect(changed.json()).toMatchObject({ status: 'applied', action: 'none' });
}

/** The code printed on the sale's PDF now (the whole sale's, and each traveller's: always the same one). */
async function printedCode(ctx: TestContext, sale: { idVenta: number; accessToken: string }) {
  const { code } = printedVerification(pdfText(await certificatePdfOf(ctx, sale)));
  expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{10}$/);
  const listed = await get(ctx.app, `/api/certificates/b2c/${sale.idVenta}/certificados?token=${sale.accessToken}`);
  for (const { certificate } of listed.json<{ certificate: string }[]>()) {
    const own = await ctx.app.inject({
      method: 'GET',
      url: `/api/certificates/b2c/${sale.idVenta}/certificados/${certificate}?token=${sale.accessToken}`,
    });
    expect(printedVerification(pdfText(own.rawPayload)).code, certificate).toBe(code);
  }
  return code ?? '';
}

const verification = async (ctx: TestContext, code: string) => {
  const answer = await get(ctx.app, `/api/certificates/verification/${code}`);
  expect(answer.status, answer.text).toBe(200);
  return { answer: answer.json<{ status: string; replacedAt: string | null }>(), text: answer.text };
};

const versionEnv: NodeJS.ProcessEnv = { PUBLIC_URL: publicUrl };
useTemporaryDataDir(versionEnv);

describeOnEachDatabase(
  'certificate verification: each version of the certificates has its own code (date changes)',
  (ctx) => {
    drainJobsAfterAll(ctx);

    it('a code a date change replaced answers «reemplazado» with when and its own dates, never the new trip or code; the new certificates verify with their own', async () => {
      const sale = await paidSaleOf(ctx, freshHolders());
      const original = tripDates(10);
      const first = await printedCode(ctx, sale);
      const token = await purchaseToken(ctx, sale.idVenta);

      const moved = tripDates(10, 12);
      await changeDates(ctx, token, moved);
      const second = await printedCode(ctx, sale);
      expect(second).not.toBe(first);
      const replaced = await verification(ctx, first);
      expect(replaced.answer).toStrictEqual({
        code: first,
        status: 'replaced',
        ...original,
        destination: 'Europa',
        plan: expect.any(String),
        holders: ['C. R.', 'D. M.', 'R. P.'],
        issuedAt: expect.any(String),
        replacedAt: expect.any(String),
      });
      expect(Math.abs(Date.now() - Date.parse(replaced.answer.replacedAt ?? ''))).toBeLessThan(60_000);
      for (const newer of [moved.departureDate, moved.returnDate, second]) expect(replaced.text).not.toContain(newer);
      // The new certificates: the new trip, not replaced (a sandbox payment: void, as before the change).
      expect((await verification(ctx, second)).answer).toMatchObject({
        code: second,
        status: 'void',
        ...moved,
        replacedAt: null,
      });

      // A second change: each earlier code keeps its own dates and says when it was replaced.
      const later = tripDates(10, 14);
      await changeDates(ctx, token, later);
      const third = await printedCode(ctx, sale);
      expect(new Set([first, second, third]).size).toBe(3);
      const firstAgain = await verification(ctx, first);
      expect(firstAgain.answer).toStrictEqual(replaced.answer);
      const secondReplaced = await verification(ctx, second);
      expect(secondReplaced.answer).toMatchObject({ status: 'replaced', ...moved });
      expect(Date.parse(secondReplaced.answer.replacedAt ?? '')).toBeGreaterThanOrEqual(
        Date.parse(replaced.answer.replacedAt ?? ''),
      );
      for (const newer of [later.departureDate, later.returnDate, third]) {
        expect(secondReplaced.text).not.toContain(newer);
        expect(firstAgain.text).not.toContain(newer);
      }

      // Paid for real, the current code is in force by its dates; the replaced ones stay replaced.
      await ctx.database.db.update(sales).set({ testPayment: false }).where(eq(sales.id, sale.idVenta));
      expect((await verification(ctx, third)).answer).toMatchObject({ status: 'not_started', ...later });
      expect((await verifyCertificate(ctx.database.db, third, later.departureDate)).status).toBe('valid');
      expect((await verifyCertificate(ctx.database.db, first, original.departureDate)).status).toBe('replaced');
      // Withdrawn, the current code is «anulado»; the replaced ones still say replaced.
      const withdrawn = await call(ctx.app, {
        method: 'POST',
        url: '/api/purchases/mine/withdrawal',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(withdrawn.status, withdrawn.text).toBeLessThan(300);
      expect((await verification(ctx, third)).answer).toMatchObject({ status: 'cancelled', ...later });
      expect((await verification(ctx, second)).answer).toMatchObject({ status: 'replaced', ...moved });
    });

    it('while a date change commits, an old code never answers the new trip and a PDF never prints the old dates with the new code', async () => {
      const chilean = (iso: string) => iso.split('-').reverse().join('-');
      for (let round = 0; round < 5; round += 1) {
        const sale = await paidSaleOf(ctx, freshHolders());
        const original = tripDates(10);
        const old = await printedCode(ctx, sale);
        const token = await purchaseToken(ctx, sale.idVenta);
        const moved = tripDates(10, 12 + (round % 3));
        const [, checks, pdfs] = await Promise.all([
          changeDates(ctx, token, moved),
          Promise.all(Array.from({ length: 10 }, () => verification(ctx, old))),
          Promise.all(Array.from({ length: 4 }, () => certificatePdfOf(ctx, sale))),
        ]);
        for (const check of checks) {
          expect(check.text, `round ${round}`).not.toContain(moved.departureDate);
          expect(check.answer).toMatchObject(original);
        }
        for (const pdf of pdfs) {
          const text = pdfText(pdf);
          const printed = printedVerification(text).code;
          if (printed !== old) expect(text, `round ${round}`).toContain(`${chilean(moved.departureDate)} al`);
        }
        expect((await verification(ctx, old)).answer).toMatchObject({ status: 'replaced', ...original });
      }
    });

    it('certificates left without a current code (as migration 0019 leaves a changed sale) get one new code, however many PDFs are asked at once', async () => {
      for (let round = 0; round < 4; round += 1) {
        const sale = await paidSaleOf(ctx, freshHolders());
        const old = await printedCode(ctx, sale);
        await ctx.database.db
          .update(certificateVerifications)
          .set({ replacedAt: new Date(), ...tripDates(10) })
          .where(eq(certificateVerifications.saleId, sale.idVenta));
        const pdfs = await Promise.all(Array.from({ length: 8 }, () => certificatePdfOf(ctx, sale)));
        const codes = new Set(pdfs.map((pdf) => printedVerification(pdfText(pdf)).code));
        expect(codes.size, `round ${round}`).toBe(1);
        expect(codes.has(old)).toBe(false);
        const rows = await ctx.database.db
          .select({ version: certificateVerifications.version, replacedAt: certificateVerifications.replacedAt })
          .from(certificateVerifications)
          .where(eq(certificateVerifications.saleId, sale.idVenta))
          .orderBy(asc(certificateVerifications.version));
        expect(rows.map((row) => [row.version, row.replacedAt === null])).toStrictEqual([
          [1, false],
          [2, true],
        ]);
      }
    });

    it('migration 0019, in SQL: the one code of a sale whose dates changed becomes its replaced first version (original dates); the current certificates get a new code and are e-mailed again', async () => {
      const sale = await paidSaleOf(ctx, freshHolders());
      const shared = await printedCode(ctx, sale);
      const moved = tripDates(10, 13);
      await changeDates(ctx, await purchaseToken(ctx, sale.idVenta), moved);
      // The change's certificate e-mail renders the PDFs, which give the sale a current code: let that run finish
      // first, or it may write a second current code while the rows are being put back as they were before 0019.
      await ctx.app.runJobs();
      const { db } = ctx.database;
      // As before the migration: one code per sale, kept across the change (printed on the new certificates too).
      await db
        .delete(certificateVerifications)
        .where(and(eq(certificateVerifications.saleId, sale.idVenta), eq(certificateVerifications.version, 2)));
      await db
        .update(certificateVerifications)
        .set({ replacedAt: null, departureDate: null, returnDate: null })
        .where(eq(certificateVerifications.saleId, sale.idVenta));
      expect((await verification(ctx, shared)).answer).toMatchObject({ status: 'void', ...moved });

      const migration = await readFile(
        fileURLToPath(new URL('../src/db/migrations/0019_certificate_versions.sql', import.meta.url)),
        'utf8',
      );
      const data = migration
        .split('--> statement-breakpoint')
        .filter((statement) => /^\s*(--.*\n\s*)*(UPDATE|INSERT)/.test(statement));
      expect(data).toHaveLength(2);
      for (const statement of data) await db.execute(sql.raw(statement));

      const old = await verification(ctx, shared);
      expect(old.answer).toMatchObject({ status: 'replaced', ...tripDates(10) });
      for (const newer of [moved.departureDate, moved.returnDate]) expect(old.text).not.toContain(newer);
      const current = await printedCode(ctx, sale);
      expect(current).not.toBe(shared);
      expect((await verification(ctx, current)).answer).toMatchObject({ status: 'void', ...moved, replacedAt: null });
      expect(await emailJobsOfSale(ctx, sale.idVenta, `certificate:new-code:${sale.idVenta}`)).toHaveLength(1);
    });
  },
  versionEnv,
);
