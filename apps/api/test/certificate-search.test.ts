import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { errorMessages } from '@travesia/domain/messages';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { AddressObject } from 'mailparser';
import { expect, it, vi } from 'vitest';
import { certificateSearchKeys, travellers as travellerRows } from '#app/db/schema.ts';
import { defaultRateLimits } from '#app/lib/http/rate-limit.ts';
import { downloadToken, downloadTokenTtlMs, maskEmail } from '#app/modules/certificates/service.ts';
import {
  type FoundCertificate,
  freshHolders,
  type Holders,
  paidSaleOf,
  searchCertificates,
} from './support/certificates.ts';
import { passengersBody, putPassengers, travellers } from './support/checkout.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { anyRequestId, call, expectBadRequest, get } from './support/http.ts';
import { useFakeSmtp } from './support/smtp.ts';
import { createQuotation, tripDates } from './support/trips.ts';

const env: NodeJS.ProcessEnv = {};
const { mailsOfSale } = useFakeSmtp(env);

const addresses = (field: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((a) => a.value.map((v) => v.address));

async function found(ctx: Parameters<typeof searchCertificates>[0], word: string) {
  const answer = await searchCertificates(ctx, word);
  expect(answer.status, answer.text).toBe(200);
  return answer.json<FoundCertificate[]>();
}

const send = (ctx: Parameters<typeof searchCertificates>[0], certificate: string, remoteAddress?: string) =>
  call(ctx.app, {
    method: 'POST',
    url: `/api/certificates/${encodeURIComponent(certificate)}/auto-envio`,
    payload: { type: 0, canal: 'WEB' },
    ...(remoteAddress ? { remoteAddress } : {}),
  });

/**
 * `count` unpaid quotations whose first traveller has the holder's RUT and every traveller the holder's e-mail: the
 * first through the API, the others as copies of its travellers written in one go (PGlite is slow at 200 requests).
 */
async function unpaidDecoys(ctx: TestContext, holders: Holders, count: number) {
  const body = passengersBody();
  body.passangers = body.passangers.map((person, index) => ({
    ...person,
    email: holders.emails[0] ?? person.email,
    document: index === 0 ? { ...person.document, id: holders.rut.dash } : person.document,
  }));
  const first = await createQuotation(ctx);
  const saved = await putPassengers(ctx, first, body);
  expect(saved.status, saved.text).toBe(204);
  const { db } = ctx.database;
  const template = await db.select().from(travellerRows).where(eq(travellerRows.quotationId, first));
  const others: string[] = [];
  for (let i = 1; i < count; i++) others.push(await createQuotation(ctx));
  await db
    .insert(travellerRows)
    .values(others.flatMap((quotationId) => template.map(({ id: _id, ...row }) => ({ ...row, quotationId }))));
  const written = await db
    .select({ id: travellerRows.id })
    .from(travellerRows)
    .where(inArray(travellerRows.quotationId, [first, ...others]));
  expect(written).toHaveLength(count * template.length);
}

describeOnEachDatabase(
  'GET /certificates?word= and «Enviar Certificado»',
  (ctx) => {
    it('201 unpaid quotations with the holder e-mail and RUT do not hide the holder paid certificate', async () => {
      const holders = freshHolders();
      await unpaidDecoys(ctx, holders, 201);
      const sale = await paidSaleOf(ctx, holders);
      for (const word of [holders.emails[0] ?? '', holders.rut.dotsAndDash, holders.rut.plain]) {
        const cards = await found(ctx, word);
        expect(
          cards.map((card) => [card.idVenta, card.name]),
          word,
        ).toStrictEqual([[sale.idVenta, travellers[0]?.firstName]]);
      }
    }, 240_000);

    it('finds the holder by RUT in any accepted form, with only the card fields and the e-mail masked', async () => {
      const holders = freshHolders();
      const sale = await paidSaleOf(ctx, holders);
      const { departureDate, returnDate } = tripDates(10);
      for (const form of [holders.rut.dotsAndDash, holders.rut.dash, holders.rut.plain]) {
        const cards = await found(ctx, form);
        expect(cards, form).toStrictEqual([
          {
            idVenta: sale.idVenta,
            certificate: expect.stringMatching(/^TRV-\d{4}-\d{9,10}-1$/),
            name: travellers[0]?.firstName,
            lastName: travellers[0]?.lastName,
            email: maskEmail(holders.emails[0] ?? ''),
            departureDate,
            returnDate,
            downloadToken: null,
          },
        ]);
      }
      expect(maskEmail('camila@example.cl')).toBe('ca***@ex***.cl');
      expect((await found(ctx, holders.rut.dash))[0]?.email).not.toContain(holders.emails[0]?.split('@')[0]);
    });

    it('migrations 0012 and 0023 backfill, in SQL, the very search keys the API writes when it issues a certificate', async () => {
      const holders = freshHolders();
      holders.emails[0] = (holders.emails[0] ?? '').toUpperCase();
      // Upper-case accents, «Ñ» and a double space: 0023's SQL must fold them as nameSearchKey does.
      const sale = await paidSaleOf(ctx, holders, {
        holderName: { firstName: 'ÁNGELA Begoña', lastName: 'NÚÑEZ  del Río' },
      });
      const { db } = ctx.database;
      const keysNow = () => db.select().from(certificateSearchKeys).orderBy(asc(certificateSearchKeys.certificateId));
      const written = await keysNow();
      expect(written.length).toBeGreaterThanOrEqual(3);
      const migration = await readFile(
        fileURLToPath(new URL('../src/db/migrations/0012_certificate_search_keys.sql', import.meta.url)),
        'utf8',
      );
      const backfill = migration.split('--> statement-breakpoint').at(-1) ?? '';
      expect(backfill).toContain('INSERT INTO "certificate_search_keys"');
      const nameKeys = (
        await readFile(
          fileURLToPath(new URL('../src/db/migrations/0023_console_sale_search.sql', import.meta.url)),
          'utf8',
        )
      )
        .split('--> statement-breakpoint')
        .at(-1);
      expect(nameKeys).toContain('UPDATE "certificate_search_keys"');
      expect(written.map((key) => key.name)).toContain('angela begona nunez del rio');
      expect(written.map((key) => key.surname)).toContain('nunez del rio angela begona');
      // As before the migration: certificates without keys; the backfill gives every one of them the same keys.
      await db.transaction(async (tx) => {
        await tx.delete(certificateSearchKeys);
        expect(await tx.select().from(certificateSearchKeys)).toStrictEqual([]);
        await tx.execute(sql.raw(backfill));
        await tx.execute(sql.raw(nameKeys ?? ''));
      });
      expect(await keysNow()).toStrictEqual(written);
      expect((await found(ctx, holders.emails[0].toLowerCase())).map((card) => card.idVenta)).toStrictEqual([
        sale.idVenta,
      ]);
      expect((await found(ctx, holders.rut.plain)).map((card) => card.idVenta)).toStrictEqual([sale.idVenta]);
    });

    it('finds a passport or DNI holder by the document number (without case)', async () => {
      const holders = freshHolders();
      const sale = await paidSaleOf(ctx, holders);
      const cards = await found(ctx, holders.passport.toLowerCase());
      expect(cards.map((card) => [card.idVenta, card.name, card.lastName])).toStrictEqual([
        [sale.idVenta, travellers[1]?.firstName, travellers[1]?.lastName],
      ]);
      expect(cards[0]?.email).toBe(maskEmail(holders.emails[1] ?? ''));
    });

    it('finds by e-mail without case, and then shows that e-mail unmasked', async () => {
      const holders = freshHolders();
      const sale = await paidSaleOf(ctx, holders);
      const cards = await found(ctx, (holders.emails[2] ?? '').toUpperCase());
      expect(cards.map((card) => [card.idVenta, card.name, card.email])).toStrictEqual([
        [sale.idVenta, travellers[2]?.firstName, holders.emails[2]],
      ]);
    });

    it('finds only paid sales; nothing found is 200 []', async () => {
      const holders = freshHolders();
      await paidSaleOf(ctx, holders, { pay: false });
      expect(await found(ctx, holders.rut.dash)).toStrictEqual([]);
      expect(await found(ctx, holders.emails[0] ?? '')).toStrictEqual([]);
      expect(await found(ctx, 'nadie.compro@example.cl')).toStrictEqual([]);
    });

    it('a bad keyword is a 400 naming `word`: required, not an e-mail, too short or with spaces', async () => {
      const cases: [string, string, string][] = [
        ['/api/certificates?word=', 'required', "The parameter 'word' must be defined."],
        ['/api/certificates?word=%20%20', 'required', 'Campo Obligatorio'],
        ['/api/certificates?word=ana%40', 'invalid_email', 'Ingrese un Email valido'],
        ['/api/certificates?word=1234', 'invalid_document', 'Ingrese un documento valido'],
        ['/api/certificates?word=AB%20123456', 'invalid_document', 'Ingrese un documento valido'],
      ];
      const missing = await get(ctx.app, '/api/certificates');
      expect(missing.status).toBe(400);
      expect(missing.json()).toMatchObject({ detail: "The parameter 'word' must be defined." });
      for (const [url, code, message] of cases) {
        const answer = await get(ctx.app, url);
        expect(answer.status, url).toBe(400);
        // A blank parameter reads as a missing one (spec §8: «The parameter 'word' must be defined.»).
        const detail = url.endsWith('=')
          ? "The parameter 'word' must be defined."
          : errorMessages.invalidInputParameters;
        expect(expectBadRequest(answer, detail, '/api/certificates'), url).toStrictEqual([
          { field: 'word', code, message },
        ]);
      }
    });

    it('«Enviar Certificado» e-mails that certificate to the address on it only, through the job queue', async () => {
      const holders = freshHolders();
      const sale = await paidSaleOf(ctx, holders);
      await ctx.app.runJobs(); // the automatic e-mail after payment, to every traveller
      const before = mailsOfSale(sale.idVenta).length;
      const [card] = await found(ctx, holders.passport);
      expect(card).toBeDefined();
      const answer = await send(ctx, card?.certificate ?? '');
      expect(answer.status, answer.text).toBe(202);
      await ctx.app.runJobs();
      const mails = mailsOfSale(sale.idVenta).slice(before);
      expect(mails).toHaveLength(1);
      expect(addresses(mails[0]?.parsed.to)).toStrictEqual([holders.emails[1]]);
      // Only the holder's own certificate travels: the other travellers' data stays out of this e-mail.
      expect(mails[0]?.parsed.attachments.map((a) => a.filename)).toStrictEqual([
        `certificado-${card?.certificate}.pdf`,
      ]);
      // Pressing again within 10 minutes is accepted and sends nothing more.
      expect((await send(ctx, card?.certificate ?? '')).status).toBe(202);
      await ctx.app.runJobs();
      expect(mailsOfSale(sale.idVenta).slice(before)).toHaveLength(1);
    });

    it('e-mails on request go only to the sale own addresses, at most 3 an hour per sale however they are asked for', async () => {
      const holders = freshHolders();
      const sale = await paidSaleOf(ctx, holders);
      await ctx.app.runJobs(); // the automatic e-mail after payment: not counted in the cap
      const before = mailsOfSale(sale.idVenta).length;
      const cards = [];
      for (const email of holders.emails) cards.push(...(await found(ctx, email)));
      expect(cards).toHaveLength(3);
      const [first, second, third] = cards.map((card) => card.certificate);
      const resend = () =>
        call(ctx.app, {
          method: 'POST',
          url: `/api/quotations/${sale.quotationId}/auto-envio`,
          payload: { type: 0, canal: 'WEB' },
        });
      expect((await send(ctx, first ?? '')).status).toBe(202);
      expect((await send(ctx, second ?? '')).status).toBe(202);
      expect((await resend()).status).toBe(202);
      for (const refused of [await send(ctx, third ?? ''), await resend()]) {
        expect(refused.status).toBe(429);
        expect(refused.json()).toMatchObject({ status: 429, detail: errorMessages.tooManyRequests, errors: [] });
        const retryAfter = Number(refused.headers['retry-after']);
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(3600);
      }
      await ctx.app.runJobs();
      const mails = mailsOfSale(sale.idVenta).slice(before);
      // Three sends: two holders' (one e-mail each) and one resend of the sale (the buyer's and the two others').
      expect(mails).toHaveLength(2 + holders.emails.length);
      const sent = mails.flatMap((mail) => addresses(mail.parsed.to));
      expect(sent.length).toBeGreaterThan(0);
      for (const address of sent) expect(holders.emails).toContain(address);
    });

    it('sending an unknown certificate is the catalogue 404', async () => {
      const answer = await send(ctx, 'TRV-2026-000000001-1');
      expect(answer.status).toBe(404);
      expect(answer.json()).toMatchObject({ status: 404, detail: errorMessages.resourceNotFound });
    });
  },
  env,
);

describeOnEachDatabase(
  'certificate search and send are rate-limited per client',
  (ctx) => {
    it('the eleventh search in a minute from one client is 429 in the §8 body; another client goes on', async () => {
      const { max } = defaultRateLimits.certificateSearch;
      for (let i = 0; i < max; i++) {
        expect((await searchCertificates(ctx, `nadie${i}@example.cl`, '203.0.113.20')).status).toBe(200);
      }
      const refused = await searchCertificates(ctx, 'otra.vez@example.cl', '203.0.113.20');
      expect(refused.status).toBe(429);
      expect(refused.json()).toStrictEqual({
        status: 429,
        detail: errorMessages.tooManyRequests,
        instance: '/api/certificates',
        errors: [],
        requestId: anyRequestId,
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await searchCertificates(ctx, 'otra.vez@example.cl', '198.51.100.20')).status).toBe(200);
    });

    it('sends are limited too (e-mail sends: 5 a minute)', async () => {
      const { max } = defaultRateLimits.emailSend;
      for (let i = 0; i < max; i++) {
        expect((await send(ctx, `TRV-2026-00000000${i}-1`, '203.0.113.21')).status).toBe(404);
      }
      expect((await send(ctx, 'TRV-2026-000000009-1', '203.0.113.21')).status).toBe(429);
    });
  },
  { ...env, RATE_LIMIT_FACTOR: '1' },
);

describeOnEachDatabase(
  'certificate downloads from the search (FEATURE_DOWNLOAD_CERTIFICATES=true)',
  (ctx) => {
    it('a search by the holder e-mail carries a download token that opens the PDF; by RUT it carries none', async () => {
      const holders = freshHolders();
      const sale = await paidSaleOf(ctx, holders);
      const [byRut] = await found(ctx, holders.rut.dash);
      expect(byRut?.downloadToken).toBeNull();
      const [byEmail] = await found(ctx, holders.emails[0] ?? '');
      const token = byEmail?.downloadToken ?? '';
      expect(token).toMatch(/^d\.\d{13}\.[A-Za-z0-9_-]{43}$/);
      const link = await get(ctx.app, `/api/certificates/b2c/${sale.idVenta}?token=${token}`);
      expect(link.status, link.text).toBe(200);
      const pdf = await ctx.app.inject({ method: 'GET', url: link.json<{ message: string }>().message });
      expect(pdf.statusCode).toBe(200);
      expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      // A token is bound to its sale and to its signature.
      const other = await paidSaleOf(ctx, freshHolders());
      expect((await get(ctx.app, `/api/certificates/b2c/${other.idVenta}?token=${token}`)).status).toBe(404);
      const forged = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
      expect((await get(ctx.app, `/api/certificates/b2c/${sale.idVenta}?token=${forged}`)).status).toBe(404);
    });

    it('a download token gets a link carrying that same token, never the sale access token, dead when it expires', async () => {
      const holders = freshHolders();
      const sale = await paidSaleOf(ctx, holders);
      const [byEmail] = await found(ctx, holders.emails[0] ?? '');
      const token = byEmail?.downloadToken ?? '';
      const link = await get(ctx.app, `/api/certificates/b2c/${sale.idVenta}?token=${token}`);
      expect(link.status, link.text).toBe(200);
      const { message } = link.json<{ message: string }>();
      expect(message).not.toContain(sale.accessToken);
      expect(message).toBe(`/api/certificates/b2c/${sale.idVenta}/certificado.pdf?token=${token}`);
      expect((await ctx.app.inject({ method: 'GET', url: message })).statusCode).toBe(200);
      // The buyer's own link (with the access token) is as it was.
      const own = await get(ctx.app, `/api/certificates/b2c/${sale.idVenta}?token=${sale.accessToken}`);
      expect(own.json<{ message: string }>().message).toContain(sale.accessToken);
      // Ten minutes later the link got from the download token opens nothing (only Date is faked: timers run).
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(Date.now() + downloadTokenTtlMs + 1000);
        expect((await ctx.app.inject({ method: 'GET', url: message })).statusCode).toBe(404);
        expect((await get(ctx.app, `/api/certificates/b2c/${sale.idVenta}?token=${token}`)).status).toBe(404);
      } finally {
        vi.useRealTimers();
      }
      // A token signed with an expiry in the past opens neither the link nor the PDF.
      const expired = downloadToken(
        { id: sale.idVenta, accessToken: sale.accessToken },
        Date.now() - downloadTokenTtlMs - 1000,
      );
      expect((await get(ctx.app, `/api/certificates/b2c/${sale.idVenta}?token=${expired}`)).status).toBe(404);
      const pdf = await ctx.app.inject({
        method: 'GET',
        url: `/api/certificates/b2c/${sale.idVenta}/certificado.pdf?token=${expired}`,
      });
      expect(pdf.statusCode).toBe(404);
    });
  },
  { ...env, FEATURE_DOWNLOAD_CERTIFICATES: 'true' },
);
