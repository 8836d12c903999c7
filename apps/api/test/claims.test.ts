import { mkdtempSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { DocumentType } from '@travesia/domain/ids';
import { errorMessages } from '@travesia/domain/messages';
import { refundLimits, refundMessages } from '@travesia/domain/refunds';
import { count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { auditEntries, refundFiles, refundRequests } from '#app/db/schema.ts';
import type { ErrorBody } from '#app/errors.ts';
import { defaultRateLimits } from '#app/lib/http/rate-limit.ts';
import { printable } from '#app/lib/security/terminal-text.ts';
import { voidCertificatesOfSale } from '#app/modules/certificates/service.ts';
import { claimBodyLimit } from '#app/modules/claims/routes.ts';
import { claimDocuments } from '#app/modules/claims/service.ts';
import { runRefundsCli } from '#app/refunds-cli.ts';
import {
  passengersBody,
  postInvoiceDetails,
  putPassengers,
  referencePlanId,
  startPayment,
} from './support/checkout.ts';
import { captured, cliEnvironment } from './support/cli.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { type Answer, call, expectBadRequest, expectError, textWithoutRequestId } from './support/http.ts';
import { type CoveredSale, claimBody, coverDays, coveredSale } from './support/refund-claims.ts';
import { type FakeSmtp, startFakeSmtp } from './support/smtp.ts';
import { createQuotation, inDays, tripDates } from './support/trips.ts';

const url = '/api/companies/1/refunds';
const adminToken = 'a-test-admin-token-of-at-least-32-characters';

// Real file beginnings: what each kind's magic bytes look like, with some body after them.
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('IHDR-body-of-a-png'),
]);
const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer\n%%EOF\n');
const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF-body')]);
const b64 = (bytes: Buffer) => bytes.toString('base64');

/**
 * The paid sales a claim stands on: the reference travellers (Camila's RUT 12.345.678-5 first, Diego's DNI
 * AR30111222 second), on a trip that started today, so today is a day of its cover; and one whose second traveller
 * has a passport (PA1234567). Made by {@link useCoveredSales} in each suite.
 */
let covered: CoveredSale = { saleId: 0, certificates: [] };
let withPassport: CoveredSale = { saleId: 0, certificates: [] };

function useCoveredSales(ctx: TestContext) {
  beforeAll(async () => {
    covered = await coveredSale(ctx);
    const passport = passengersBody();
    const second = passport.passangers[1];
    if (second) second.document = { type: DocumentType.passport, id: 'PA1234567' };
    withPassport = await coveredSale(ctx, passport);
  });
}

const certificateOf = (sale: CoveredSale, seq: number) => sale.certificates[seq - 1] ?? '';

function validBody(overrides: Record<string, unknown> = {}) {
  return claimBody(certificateOf(covered, 1), {
    documentos: [
      { nombre: 'boleta.pdf', contenido: b64(pdf) },
      { nombre: 'receta.png', contenido: b64(png) },
    ],
    ...overrides,
  });
}

const postRefund = (ctx: TestContext, payload: unknown, remoteAddress = '192.0.2.10') =>
  call(ctx.app, { method: 'POST', url, payload: payload as object, remoteAddress });

const requestCount = async (ctx: TestContext) =>
  (await ctx.database.db.select({ n: count() }).from(refundRequests))[0]?.n ?? 0;
const fileCount = async (ctx: TestContext) =>
  (await ctx.database.db.select({ n: count() }).from(refundFiles))[0]?.n ?? 0;

const track = (ctx: TestContext, number: string, document: string) =>
  call(ctx.app, { method: 'GET', url: `${url}/${number}?document=${encodeURIComponent(document)}` });

const admin = (ctx: TestContext, number: string, body: object, token = adminToken) =>
  call(ctx.app, {
    method: 'POST',
    url: `/api/admin/refunds/${number}/status`,
    headers: { authorization: `Bearer ${token}` },
    payload: body,
  });

const addDocs = (ctx: TestContext, number: string, document: string, documentos: object[]) =>
  call(ctx.app, {
    method: 'POST',
    url: `${url}/${number}/documents?document=${encodeURIComponent(document)}`,
    payload: { documentos },
  });

/**
 * The admin route, asked with this token (or none) and bodies that would fail validation, answers each time exactly
 * what the catch-all answers for a path that does not exist: the same status, headers' type and body.
 */
async function expectHiddenAdminRoute(ctx: TestContext, token?: string) {
  const path = '/api/admin/refunds/R-AAAAAAAA/status';
  const catchAll = await call(ctx.app, { method: 'POST', url: `${path}x`, payload: {} });
  expectError(catchAll, 404, errorMessages.resourceNotFound, `${path}x`);
  const authorization = token === undefined ? {} : { authorization: `Bearer ${token}` };
  const attempts: { payload?: string; headers?: Record<string, string> }[] = [
    { payload: '{}', headers: { 'content-type': 'application/json' } },
    { payload: '{"status":"nope","amount":"x"}', headers: { 'content-type': 'application/json' } },
    { payload: '{not json', headers: { 'content-type': 'application/json' } },
    { payload: 'status=aprobada', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    {},
  ];
  for (const attempt of attempts) {
    const answer = await call(ctx.app, {
      method: 'POST',
      url: path,
      ...(attempt.payload === undefined ? {} : { payload: attempt.payload }),
      headers: { ...attempt.headers, ...authorization },
    });
    expectError(answer, 404, errorMessages.resourceNotFound, path);
    expect(answer.headers['content-type'], JSON.stringify(attempt)).toBe(catchAll.headers['content-type']);
    expect(textWithoutRequestId(answer).replace(path, ''), JSON.stringify(attempt)).toBe(
      textWithoutRequestId(catchAll).replace(`${path}x`, ''),
    );
  }
}

const fieldErrors = (answer: Answer) =>
  expectBadRequest(answer, errorMessages.invalidInputParameters, url).map(({ field, code }) => ({ field, code }));

async function created(ctx: TestContext, body = validBody()): Promise<string> {
  const answer = await postRefund(ctx, body);
  expect(answer.status, answer.text).toBe(204);
  return String(answer.headers['x-refund-number']);
}

/** The local document store of these suites (DATA_DIR/documents), removed after them. */
const dataDir = mkdtempSync(join(tmpdir(), 'refunds-test-'));
const env: NodeJS.ProcessEnv = { ADMIN_TOKEN: adminToken, WORKER: 'off', DATA_DIR: dataDir };

/** The documents of a request as the operator's export reads them: from the document store. */
async function storedDocuments(ctx: TestContext, number: string) {
  const files = await claimDocuments(ctx.database.db, ctx.app.documentStore, number);
  return Promise.all(files.map(async (file) => ({ ...file, content: await buffer(await file.open()) })));
}
let smtp: FakeSmtp;
beforeAll(async () => {
  smtp = await startFakeSmtp();
  env.SMTP_URL = smtp.url;
});
afterAll(async () => {
  await smtp?.close();
  await rm(dataDir, { recursive: true, force: true });
});
const mailsAbout = (number: string) => smtp.received.filter((m) => m.parsed.subject?.includes(number));

describeOnEachDatabase(
  'refund requests',
  (ctx) => {
    useCoveredSales(ctx);
    it('a valid request answers 204 with an unguessable number in X-Refund-Number and the tracking resource in Location', async () => {
      const answer = await postRefund(ctx, validBody());
      expect(answer.status).toBe(204);
      expect(answer.text).toBe('');
      const number = String(answer.headers['x-refund-number']);
      expect(number).toMatch(/^R-[0-9A-HJKMNP-TV-Z]{8}$/);
      expect(answer.headers.location).toBe(`${url}/${number}`);
      const other = await created(ctx);
      expect(other).not.toBe(number);
    });

    it('the stored documents read back byte-identical, typed by their content', async () => {
      const number = await created(
        ctx,
        validBody({
          documentos: [
            { nombre: 'boleta.pdf', contenido: b64(pdf) },
            { nombre: 'foto.JPG', contenido: b64(jpeg) },
            { nombre: 'Receta.Png', contenido: b64(png) },
          ],
        }),
      );
      const files = await storedDocuments(ctx, number);
      expect(files.map((f) => [f.fileName, f.contentType])).toStrictEqual([
        ['boleta.pdf', 'application/pdf'],
        ['foto.JPG', 'image/jpeg'],
        ['Receta.Png', 'image/png'],
      ]);
      expect(Buffer.compare(files[0]?.content ?? Buffer.alloc(0), pdf)).toBe(0);
      expect(Buffer.compare(files[1]?.content ?? Buffer.alloc(0), jpeg)).toBe(0);
      expect(Buffer.compare(files[2]?.content ?? Buffer.alloc(0), png)).toBe(0);
    });

    it.each([
      ['nombreTitular', { nombreTitular: '  ' }, 'required'],
      ['nombreTitular', { nombreTitular: 'x'.repeat(101) }, 'too_long'],
      ['tipoDocumento', { tipoDocumento: 7 }, 'invalid_option'],
      ['numeroDocumento', { numeroDocumento: '12.345.678-9' }, 'invalid_rut'],
      ['numeroDocumento', { tipoDocumento: 2, numeroDocumento: 'AB 1' }, 'invalid_document'],
      ['numeroDocumento', { tipoDocumento: 3, numeroDocumento: 'P12' }, 'invalid_document'],
      ['numeroDocumento', { tipoDocumento: 3, numeroDocumento: 'P 1234567' }, 'invalid_document'],
      ['email', { email: 'ana@' }, 'invalid_email'],
      ['telefono', { telefono: '12' }, 'invalid_phone'],
      ['numeroCertificado', { numeroCertificado: '' }, 'required'],
      ['numeroCertificado', { numeroCertificado: 'TRV 123;' }, 'invalid_format'],
      ['descripcion', { descripcion: '' }, 'required'],
      ['descripcion', { descripcion: 'x'.repeat(2001) }, 'too_long'],
      ['fechaIncidente', { fechaIncidente: '2026-02-30' }, 'invalid_date'],
      ['fechaIncidente', { fechaIncidente: inDays(1) }, 'future_date'],
      ['monto', { monto: 0 }, 'out_of_range'],
      ['monto', { monto: -5 }, 'out_of_range'],
      ['monto', { monto: '1000' }, 'invalid_type'],
      ['monto', { monto: 1000.5 }, 'invalid_format'],
      ['monto', { monto: 12.345, moneda: 'USD' }, 'invalid_format'],
      ['monto', { monto: 100_000_001 }, 'out_of_range'],
      ['monto', { monto: 100_000.01, moneda: 'USD' }, 'out_of_range'],
      ['moneda', { moneda: 'EUR' }, 'invalid_option'],
      ['banco', { banco: '999' }, 'invalid_option'],
      ['tipoCuenta', { tipoCuenta: 'plazo' }, 'invalid_option'],
      ['numeroCuenta', { numeroCuenta: '12ab' }, 'invalid_format'],
      ['documentos', { documentos: [] }, 'required'],
      [
        'documentos',
        { documentos: Array.from({ length: 6 }, (_, i) => ({ nombre: `${i}.pdf`, contenido: b64(pdf) })) },
        'too_many',
      ],
    ])('%s: %j → %s, and nothing is stored', async (field, override, code) => {
      const before = await requestCount(ctx);
      const errors = fieldErrors(await postRefund(ctx, validBody(override)));
      expect(errors).toContainEqual({ field, code });
      expect(await requestCount(ctx)).toBe(before);
    });

    it('a USD amount with cents and a DNI holder are accepted', async () => {
      await created(
        ctx,
        validBody({
          monto: 85.5,
          moneda: 'USD',
          tipoDocumento: 2,
          numeroDocumento: 'AR30111222',
          numeroCertificado: certificateOf(covered, 2),
        }),
      );
    });

    it('DNI and passport are distinct types: stored as 2 and 3, named so in the company’s e-mail, tracked by number', async () => {
      const dni = await created(
        ctx,
        validBody({ tipoDocumento: 2, numeroDocumento: 'AR30111222', numeroCertificado: certificateOf(covered, 2) }),
      );
      const passport = await created(
        ctx,
        validBody({
          tipoDocumento: 3,
          numeroDocumento: 'PA1234567',
          numeroCertificado: certificateOf(withPassport, 2),
        }),
      );
      const types = await ctx.database.db
        .select({ number: refundRequests.number, type: refundRequests.documentType })
        .from(refundRequests)
        .where(inArray(refundRequests.number, [dni, passport]));
      expect(Object.fromEntries(types.map((row) => [row.number, row.type]))).toStrictEqual({ [dni]: 2, [passport]: 3 });
      await ctx.app.runJobs();
      const companyText = (number: string) =>
        mailsAbout(number).find((m) => m.to.includes('reembolsos@travesia.cl'))?.parsed.text ?? '';
      expect(companyText(dni)).toContain('Documento: DNI AR30111222');
      expect(companyText(passport)).toContain('Documento: Pasaporte PA1234567');
      expect(companyText(passport)).not.toContain('DNI');
      expect((await track(ctx, passport, 'pa1234567')).status).toBe(200);
      // The passport number is checked as the passenger form checks it: its own message.
      const refused = await postRefund(ctx, validBody({ tipoDocumento: 3, numeroDocumento: 'AB 12' }));
      expect(expectBadRequest(refused, errorMessages.invalidInputParameters, url)).toContainEqual({
        field: 'numeroDocumento',
        code: 'invalid_document',
        message: 'Pasaporte inválido',
      });
    });

    it('a PNG renamed .pdf, or text named .pdf, is refused with an error naming the file; nothing is stored', async () => {
      const requests = await requestCount(ctx);
      const files = await fileCount(ctx);
      const answer = await postRefund(
        ctx,
        validBody({
          documentos: [
            { nombre: 'boleta.pdf', contenido: b64(pdf) },
            { nombre: 'informe.pdf', contenido: b64(png) },
            { nombre: 'notas.pdf', contenido: b64(Buffer.from('solo texto, no un PDF')) },
          ],
        }),
      );
      const errors = expectBadRequest(answer, errorMessages.invalidInputParameters, url);
      expect(errors).toHaveLength(2);
      expect(errors[0]).toMatchObject({ field: 'documentos.1', code: 'invalid_file_type' });
      expect(errors[0]?.message).toContain('informe.pdf');
      expect(errors[1]).toMatchObject({ field: 'documentos.2', code: 'invalid_file_type' });
      expect(errors[1]?.message).toContain('notas.pdf');
      expect(await requestCount(ctx)).toBe(requests);
      expect(await fileCount(ctx)).toBe(files);
    });

    it('a real PDF/PNG/JPEG under any name that is not its own extension is refused, naming the file; nothing is stored', async () => {
      const batch = Buffer.from('%PDF-1.4\r\n@echo off\r\nstart calc.exe\r\n');
      const requests = await requestCount(ctx);
      const files = await fileCount(ctx);
      const disguised = [
        { nombre: 'boleta.bat', contenido: b64(batch) },
        { nombre: 'boleta.html', contenido: b64(pdf) },
        { nombre: 'receta.hta', contenido: b64(png) },
        { nombre: 'boleta.svg', contenido: b64(png) },
        { nombre: 'sin-extension', contenido: b64(jpeg) },
      ];
      const answer = await postRefund(ctx, validBody({ documentos: disguised }));
      const errors = expectBadRequest(answer, errorMessages.invalidInputParameters, url);
      expect(errors.map(({ field, code }) => ({ field, code }))).toStrictEqual(
        disguised.map((_, i) => ({ field: `documentos.${i}`, code: 'invalid_file_type' })),
      );
      for (const [i, document] of disguised.entries()) expect(errors[i]?.message).toContain(`«${document.nombre}»`);
      for (const [i, nombre] of ['boleta.pdf.exe', '.pdf', 'boleta.'].entries()) {
        const one = await postRefund(
          ctx,
          validBody({ documentos: [{ nombre, contenido: b64(pdf) }] }),
          `192.0.2.${60 + i}`,
        );
        expect(fieldErrors(one), nombre).toStrictEqual([{ field: 'documentos.0', code: 'invalid_file_type' }]);
      }
      expect(await requestCount(ctx)).toBe(requests);
      expect(await fileCount(ctx)).toBe(files);
      // Their own extensions, in any case, are accepted.
      await created(
        ctx,
        validBody({
          documentos: [
            { nombre: 'BOLETA.PDF', contenido: b64(pdf) },
            { nombre: 'foto.jpeg', contenido: b64(jpeg) },
            { nombre: 'foto.Jpg', contenido: b64(jpeg) },
            { nombre: 'receta.PNG', contenido: b64(png) },
          ],
        }),
      );
    });

    it('a file sent inline (base64 in the JSON) over 256 KB is refused, pointing to the upload; nothing is stored', async () => {
      const requests = await requestCount(ctx);
      const big = Buffer.alloc(refundLimits.maxInlineFileBytes + 1, 0x20);
      pdf.copy(big);
      const answer = await postRefund(ctx, validBody({ documentos: [{ nombre: 'grande.pdf', contenido: b64(big) }] }));
      const errors = expectBadRequest(answer, errorMessages.invalidInputParameters, url);
      expect(errors).toStrictEqual([
        { field: 'documentos.0.contenido', code: 'too_long', message: expect.stringContaining('refunds/files') },
      ]);
      expect(await requestCount(ctx)).toBe(requests);
    });

    it('the JSON body stays small (1 MiB: a claim names its uploads): inline files of 256 KB are stored, a larger body is 413', async () => {
      expect(claimBodyLimit).toBe(1024 * 1024);
      const full = Buffer.alloc(refundLimits.maxInlineFileBytes, 0x20);
      pdf.copy(full);
      const documentos = Array.from({ length: 2 }, (_, i) => ({ nombre: `anexo${i}.pdf`, contenido: b64(full) }));
      const number = await created(ctx, validBody({ documentos }));
      const stored = await storedDocuments(ctx, number);
      expect(stored.map((f) => f.content.length)).toStrictEqual([
        refundLimits.maxInlineFileBytes,
        refundLimits.maxInlineFileBytes,
      ]);
      expect(Buffer.compare(stored[1]?.content ?? Buffer.alloc(0), full)).toBe(0);
      // Four inline files of 256 KB are more than 1 MiB of base64: refused before the body is parsed.
      const tooMuch = Array.from({ length: 4 }, (_, i) => ({ nombre: `anexo${i}.pdf`, contenido: b64(full) }));
      const requests = await requestCount(ctx);
      const answer = await postRefund(ctx, validBody({ documentos: tooMuch }));
      expect(answer.status).toBe(413);
      expect(await requestCount(ctx)).toBe(requests);
    });

    it('the holder gets the number and how to track it; the company its refunds address with the details', async () => {
      const number = await created(ctx);
      await ctx.app.runJobs();
      const mails = mailsAbout(number);
      const holder = mails.find((m) => m.to.includes('ana.perez@example.cl'));
      expect(holder?.parsed.subject).toBe(`Recibimos tu solicitud de reembolso ${number}`);
      expect(holder?.parsed.text).toContain('/reembolsos/seguimiento');
      expect(holder?.parsed.text).toContain('tu número de documento');
      const company = mails.find((m) => m.to.includes('reembolsos@travesia.cl'));
      expect(company?.parsed.subject).toBe(`Nueva solicitud de reembolso ${number}`);
      expect(company?.parsed.text).toContain('Ana María Pérez');
      expect(company?.parsed.text).toContain('12.345.678-5');
      expect(company?.parsed.text).toContain('$185.000');
      expect(company?.parsed.text).toContain('BancoEstado');
      expect(company?.parsed.text).toContain('boleta.pdf');
      expect(mails).toHaveLength(2);
    });

    it('tracking: the right document in any format shows the status; a wrong one answers exactly like an unknown number', async () => {
      const number = await created(ctx);
      const right = await track(ctx, number.toLowerCase(), '12345678-5');
      expect(right.status).toBe(200);
      expect(right.json()).toMatchObject({
        numero: number,
        estado: 'recibida',
        estadoTexto: 'Recibida',
        monto: 185000,
        moneda: 'CLP',
        montoAprobado: null,
        documentos: [
          { nombre: 'boleta.pdf', tipo: 'application/pdf' },
          { nombre: 'receta.png', tipo: 'image/png' },
        ],
      });
      expect(right.text).not.toContain('12345678');
      expect(right.text).not.toContain('ana.perez');
      const wrong = await track(ctx, number, '11.111.111-1');
      const unknown = await track(ctx, 'R-ZZZZZZZZ', '12.345.678-5');
      expect(wrong.status).toBe(404);
      expect(unknown.status).toBe(404);
      expect(wrong.json<ErrorBody>().detail).toBe(errorMessages.resourceNotFound);
      // The same answer but for the request's own id.
      expect({ ...wrong.json<ErrorBody>(), instance: '', requestId: '' }).toStrictEqual({
        ...unknown.json<ErrorBody>(),
        instance: '',
        requestId: '',
      });
      const missing = await call(ctx.app, { method: 'GET', url: `${url}/${number}` });
      expect(missing.status).toBe(400);
    });

    it('documents can be added only while missing; then the request is back in review and the company told', async () => {
      const number = await created(ctx);
      const early = await addDocs(ctx, number, '12.345.678-5', [{ nombre: 'extra.pdf', contenido: b64(pdf) }]);
      expect(early.status).toBe(400);
      expect(early.json<ErrorBody>().errors).toMatchObject([{ field: 'documentos', code: 'documents_not_requested' }]);
      expect(
        (await admin(ctx, number, { status: 'faltan_documentos', missing: 'Boleta original de la clínica' })).status,
      ).toBe(200);
      const shown = await track(ctx, number, '123456785');
      expect(shown.json()).toMatchObject({
        estado: 'faltan_documentos',
        documentosFaltantes: 'Boleta original de la clínica',
      });
      const wrongDocument = await addDocs(ctx, number, '11.111.111-1', [{ nombre: 'extra.pdf', contenido: b64(pdf) }]);
      expect(wrongDocument.status).toBe(404);
      const badFile = await addDocs(ctx, number, '12.345.678-5', [{ nombre: 'extra.pdf', contenido: b64(png) }]);
      expect(badFile.status).toBe(400);
      for (const nombre of ['boleta.html', 'boleta.bat', 'boleta']) {
        const disguised = await addDocs(ctx, number, '12.345.678-5', [{ nombre, contenido: b64(pdf) }]);
        expect(disguised.status, nombre).toBe(400);
        expect(disguised.json<ErrorBody>().errors, nombre).toMatchObject([
          { field: 'documentos.0', code: 'invalid_file_type', message: expect.stringContaining(`«${nombre}»`) },
        ]);
      }
      expect((await track(ctx, number, '123456785')).json()).toMatchObject({ estado: 'faltan_documentos' });
      const added = await addDocs(ctx, number, '12.345.678-5', [
        { nombre: 'boleta-original.jpg', contenido: b64(jpeg) },
      ]);
      expect(added.status, added.text).toBe(200);
      expect(added.json()).toMatchObject({ estado: 'en_revision', documentosFaltantes: null });
      const files = await storedDocuments(ctx, number);
      expect(files.map((f) => f.fileName)).toStrictEqual(['boleta.pdf', 'receta.png', 'boleta-original.jpg']);
      expect(Buffer.compare(files[2]?.content ?? Buffer.alloc(0), jpeg)).toBe(0);
      await ctx.app.runJobs();
      expect(
        mailsAbout(number).some(
          (m) => m.to.includes('reembolsos@travesia.cl') && /adjuntó/.test(m.parsed.subject ?? ''),
        ),
      ).toBe(true);
    });

    it('with ADMIN_TOKEN set, a wrong or missing token gets exactly the catch-all 404 whatever the body', async () => {
      await expectHiddenAdminRoute(ctx, 'not-the-token');
      await expectHiddenAdminRoute(ctx, `${adminToken}x`);
      await expectHiddenAdminRoute(ctx);
      // With the token, the same bad bodies are the ordinary 400.
      expect((await admin(ctx, 'R-AAAAAAAA', {})).status).toBe(400);
    });

    it('the admin API changes the status with checked transitions and e-mails the holder; wrong or no token is 404', async () => {
      const number = await created(ctx);
      expect((await admin(ctx, number, { status: 'en_revision' }, 'not-the-token')).status).toBe(404);
      const noAmount = await admin(ctx, number, { status: 'aprobada' });
      expect(noAmount.status).toBe(400);
      expect(noAmount.json<ErrorBody>().errors[0]).toMatchObject({ field: 'amount', code: 'required' });
      expect((await admin(ctx, number, { status: 'aprobada', amount: 150000 })).status).toBe(200);
      expect((await track(ctx, number, '12.345.678-5')).json()).toMatchObject({
        estado: 'aprobada',
        montoAprobado: 150000,
      });
      expect((await admin(ctx, number, { status: 'pagada' })).json()).toStrictEqual({
        number,
        from: 'aprobada',
        to: 'pagada',
      });
      const back = await admin(ctx, number, { status: 'en_revision' });
      expect(back.status).toBe(400);
      expect(back.json<ErrorBody>().errors[0]).toMatchObject({ field: 'status', code: 'invalid_transition' });
      expect((await track(ctx, number, '12.345.678-5')).json()).toMatchObject({
        estado: 'pagada',
        montoAprobado: 150000,
      });
      await ctx.app.runJobs();
      const subjects = mailsAbout(number)
        .filter((m) => m.to.includes('ana.perez@example.cl'))
        .map((m) => m.parsed.subject);
      expect(subjects).toContain(`Tu solicitud de reembolso ${number}: Aprobada`);
      expect(subjects).toContain(`Tu solicitud de reembolso ${number}: Pagada`);
      const approved = mailsAbout(number).find((m) => m.parsed.subject?.endsWith('Aprobada'));
      expect(approved?.parsed.text).toContain('$150.000');
    });

    it('the admin API status change by API key leaves one audit row as the key, in its transaction; ADMIN_TOKEN none', async () => {
      const number = await created(ctx);
      const { apiKey, env } = await cliEnvironment(ctx, ['finance'], 'api-reembolsos');
      const rows = () => ctx.database.db.select().from(auditEntries).where(eq(auditEntries.targetId, number));
      expect((await admin(ctx, number, { status: 'en_revision' })).status).toBe(200);
      expect(await rows()).toHaveLength(0);
      const byKey = await admin(ctx, number, { status: 'aprobada', amount: 1000 }, env.TRAVESIA_API_KEY);
      expect(byKey.status, byKey.text).toBe(200);
      // A refused change writes nothing.
      expect((await admin(ctx, number, { status: 'recibida' }, env.TRAVESIA_API_KEY)).status).toBe(400);
      expect(await rows()).toMatchObject([
        {
          action: 'claim.status',
          actorApiKeyId: apiKey.id,
          actorLabel: 'api-key:api-reembolsos',
          targetType: 'claim',
          before: { status: 'en_revision' },
          after: { status: 'aprobada' },
        },
      ]);
      expect(await rows()).toHaveLength(1);
    });

    it('the CLI rejects with a reason, refuses a change a paid request cannot make, and the holder is e-mailed', async () => {
      const number = await created(ctx);
      const { env } = await cliEnvironment(ctx, ['support']);
      const lines: string[] = [];
      const run = async (...args: string[]) => {
        const answer = await captured(() => runRefundsCli(args, env));
        lines.push(answer.out, answer.err);
        return answer.code;
      };
      expect(await run('status', number, 'rechazada')).toBe(1);
      expect(await run('status', number, 'rechazada', '--reason', 'El gasto no está cubierto')).toBe(0);
      expect(await run('status', number, 'pagada')).toBe(1);
      expect(await run('status', 'R-ZZZZZZZZ', 'en_revision')).toBe(1);
      // The server's jobs send the holder's e-mail (the worker; here run by hand).
      await ctx.app.runJobs();
      expect(lines.join('\n')).toContain('Para rechazar indica el motivo');
      expect(lines.join('\n')).toContain('Recibida → Rechazada');
      expect(lines.join('\n')).toContain('Error: Un reembolso se marca «Pagada» registrando el pago');
      expect(lines.join('\n')).toContain('No refund request R-ZZZZZZZZ');
      expect((await track(ctx, number, '12.345.678-5')).json()).toMatchObject({
        estado: 'rechazada',
        motivoRechazo: 'El gasto no está cubierto',
      });
      const rejected = mailsAbout(number).find((m) => m.parsed.subject?.endsWith('Rechazada'));
      expect(rejected?.to).toStrictEqual(['ana.perez@example.cl']);
      expect(rejected?.parsed.text).toContain('El gasto no está cubierto');
    });

    it("the holder e-mails carry none of the sender's free text (no relay of their words from our domain); the company's keeps it", async () => {
      const lure = 'Ganaste $1.000.000 reclama en https://evil.example/x';
      const pitch = 'Haz clic en https://evil.example/premio para cobrar tu premio hoy mismo';
      const number = await created(
        ctx,
        validBody({ nombreTitular: lure, descripcion: pitch, email: 'victima@example.org' }),
      );
      expect((await admin(ctx, number, { status: 'en_revision' })).status).toBe(200);
      await ctx.app.runJobs();
      const toHolder = mailsAbout(number).filter((m) => m.to.includes('victima@example.org'));
      expect(toHolder.map((m) => m.parsed.subject)).toStrictEqual([
        `Recibimos tu solicitud de reembolso ${number}`,
        `Tu solicitud de reembolso ${number}: En revisión`,
      ]);
      for (const mail of toHolder) {
        const whole = `${mail.parsed.subject}\n${mail.parsed.text}\n${mail.parsed.html}`;
        expect(mail.parsed.text).toMatch(/^Hola:\n/);
        expect(mail.parsed.text).toContain(number);
        expect(mail.parsed.text).toContain('/reembolsos/seguimiento');
        expect(whole).not.toContain('Ganaste');
        expect(whole).not.toContain('evil.example');
        expect(whole).not.toContain('Haz clic');
      }
      const company = mailsAbout(number).find((m) => m.to.includes('reembolsos@travesia.cl'));
      expect(company?.parsed.text).toContain(lure);
      expect(company?.parsed.text).toContain(pitch);
    });

    it('the CLI writes each document as {n}-{stem}.{extension of its stored type}, inside the folder, whatever its stored name', async () => {
      const number = await created(ctx);
      const [row] = await ctx.database.db.select().from(refundRequests).where(eq(refundRequests.number, number));
      // Names stored before they were checked: the CLI must not write them under those extensions.
      const batch = Buffer.from('%PDF-1.4\r\n@echo off\r\n');
      const stored = async (key: string, bytes: Buffer, contentType: string) => {
        await ctx.app.documentStore.put(key, Readable.from([bytes]), contentType);
        return key;
      };
      await ctx.database.db.insert(refundFiles).values([
        {
          requestId: row?.id ?? 0,
          fileName: '../../boleta.bat',
          contentType: 'application/pdf',
          storageKey: await stored(`refund-documents/cli-${number}-1`, batch, 'application/pdf'),
          size: batch.length,
        },
        {
          requestId: row?.id ?? 0,
          fileName: 'receta.hta',
          contentType: 'image/png',
          storageKey: await stored(`refund-documents/cli-${number}-2`, png, 'image/png'),
          size: png.length,
        },
        {
          requestId: row?.id ?? 0,
          fileName: 'sin-extension',
          contentType: 'image/jpeg',
          storageKey: await stored(`refund-documents/cli-${number}-3`, jpeg, 'image/jpeg'),
          size: jpeg.length,
        },
      ]);
      const { env } = await cliEnvironment(ctx, ['support']);
      const parent = await mkdtemp(join(tmpdir(), 'refunds-cli-'));
      const folder = join(parent, 'out');
      const log = console.log;
      console.log = () => {};
      try {
        expect(await runRefundsCli(['files', number, folder], env)).toBe(0);
        expect((await readdir(folder)).sort()).toStrictEqual([
          '1-boleta.pdf',
          '2-receta.png',
          '3-boleta.pdf',
          '4-receta.png',
          '5-sin-extension.jpg',
        ]);
        expect(await readdir(parent)).toStrictEqual(['out']);
        expect(Buffer.compare(await readFile(join(folder, '3-boleta.pdf')), batch)).toBe(0);
      } finally {
        console.log = log;
        await rm(parent, { recursive: true, force: true });
      }
    });

    it('a claim stands on a real, paid, valid certificate of the document given, for a day of its cover: else 400 with field codes, nothing stored', async () => {
      const before = await requestCount(ctx);
      const notHeld = [
        { field: 'numeroCertificado', code: 'certificate_not_found', message: refundMessages.certificateNotHeld },
        { field: 'numeroDocumento', code: 'certificate_not_found', message: refundMessages.certificateNotHeld },
      ];
      const errorsOf = (answer: Answer) =>
        expectBadRequest(answer, errorMessages.invalidInputParameters, url).map(({ field, code, message }) => ({
          field,
          code,
          message,
        }));
      // No such certificate, and a real one with another traveller's document: the very same answer, so it tells
      // no one without the holder's document whether the number exists.
      const unknown = await postRefund(ctx, validBody({ numeroCertificado: 'TRV-2026-999999999-1' }));
      const wrongDocument = await postRefund(ctx, validBody({ numeroDocumento: '7.654.321-6' }));
      const otherSale = await postRefund(
        ctx,
        validBody({ numeroCertificado: certificateOf(withPassport, 1), numeroDocumento: '7.654.321-6' }),
      );
      expect(errorsOf(unknown)).toStrictEqual(notHeld);
      for (const answer of [wrongDocument, otherSale]) {
        expect(answer.status).toBe(unknown.status);
        expect(textWithoutRequestId(answer)).toBe(textWithoutRequestId(unknown));
      }
      // A day before the trip (and the purchase) is outside the cover, whose days the message gives.
      const cover = `del ${inDays(0).split('-').reverse().join('-')} al ${inDays(coverDays - 1)
        .split('-')
        .reverse()
        .join('-')}`;
      expect(errorsOf(await postRefund(ctx, validBody({ fechaIncidente: inDays(-1) })))).toStrictEqual([
        {
          field: 'fechaIncidente',
          code: 'outside_cover',
          message: `La fecha del incidente debe estar dentro de la vigencia del certificado: ${cover}.`,
        },
      ]);
      // A sale that was never paid has no certificate to claim on, by its sale number either.
      const unpaidQuotation = await createQuotation(ctx, { planId: referencePlanId, ...tripDates(coverDays, 0) });
      expect((await putPassengers(ctx, unpaidQuotation)).status).toBe(204);
      expect((await postInvoiceDetails(ctx, unpaidQuotation)).status).toBe(204);
      const unpaid = await startPayment(ctx, unpaidQuotation);
      expect(errorsOf(await postRefund(ctx, validBody({ numeroCertificado: String(unpaid.idVenta) })))).toStrictEqual(
        notHeld,
      );
      expect(await requestCount(ctx)).toBe(before);

      // The sale number of a paid sale stands for the certificate of the traveller whose document is given.
      await created(ctx, validBody({ numeroCertificado: String(covered.saleId) }));
    });

    it('a voided certificate (withdrawn, or replaced by a date change) is refused to its holder as void; to others as unknown', async () => {
      const sale = await coveredSale(ctx);
      await ctx.database.db.transaction((tx) => voidCertificatesOfSale(tx, sale.saleId, 'withdrawal'));
      const before = await requestCount(ctx);
      for (const numeroCertificado of [certificateOf(sale, 1), String(sale.saleId)]) {
        const refused = await postRefund(ctx, validBody({ numeroCertificado }));
        expect(expectBadRequest(refused, errorMessages.invalidInputParameters, url)).toStrictEqual([
          { field: 'numeroCertificado', code: 'certificate_void', message: refundMessages.certificateVoid },
        ]);
        const stranger = await postRefund(ctx, validBody({ numeroCertificado, numeroDocumento: '76.086.428-5' }));
        expect(fieldErrors(stranger)).toStrictEqual([
          { field: 'numeroCertificado', code: 'certificate_not_found' },
          { field: 'numeroDocumento', code: 'certificate_not_found' },
        ]);
      }
      expect(await requestCount(ctx)).toBe(before);
    });

    it('control characters in any visitor text are stripped before storing (a description keeps its line breaks)', async () => {
      const esc = '\u001b';
      const number = await created(
        ctx,
        validBody({
          nombreTitular: `Ana${esc}[2J María\u0007 Pérez`,
          descripcion: `Me caí en Madrid.\r\nPagué la consulta.${esc}]0;owned\u0007\u202e`,
          documentos: [{ nombre: `bo${esc}[31mleta\u009b\n.pdf`, contenido: b64(pdf) }],
        }),
      );
      const [row] = await ctx.database.db.select().from(refundRequests).where(eq(refundRequests.number, number));
      expect(row).toMatchObject({
        holderName: 'Ana[2J María Pérez',
        description: 'Me caí en Madrid.\nPagué la consulta.]0;owned',
      });
      const files = await claimDocuments(ctx.database.db, ctx.app.documentStore, number);
      expect(files.map((file) => file.fileName)).toStrictEqual(['bo[31mleta .pdf']);
      await ctx.app.runJobs();
      const company = mailsAbout(number).find((m) => m.to.includes('reembolsos@travesia.cl'));
      expect(company?.parsed.text).toContain('Pagué la consulta.]0;owned');
      // biome-ignore lint/suspicious/noControlCharactersInRegex: what must not be there
      expect(company?.parsed.text ?? '').not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    });

    it('the CLI neither prints nor writes an escape sequence of a name stored before the rules stripped them', async () => {
      const number = await created(ctx);
      const [row] = await ctx.database.db.select().from(refundRequests).where(eq(refundRequests.number, number));
      await ctx.database.db.insert(refundFiles).values({
        requestId: row?.id ?? 0,
        fileName: 'boleta\u001b[2J\u001b]0;pwned\u0007\n\u202efdp.pdf',
        contentType: 'application/pdf',
        storageKey: `refund-documents/escaped-${number}`,
        size: pdf.length,
      });
      await ctx.app.documentStore.put(`refund-documents/escaped-${number}`, Readable.from([pdf]), 'application/pdf');
      const { env } = await cliEnvironment(ctx, ['support']);
      const parent = await mkdtemp(join(tmpdir(), 'refunds-cli-'));
      const printed: string[] = [];
      const log = console.log;
      console.log = (...args: unknown[]) => printed.push(args.join(' '));
      try {
        expect(await runRefundsCli(['files', number, parent], env)).toBe(0);
        const written = (await readdir(parent)).sort();
        expect(written).toStrictEqual(['1-boleta.pdf', '2-receta.png', '3-boleta[2J]0;pwned fdp.pdf']);
        expect(printed).toHaveLength(3);
        // biome-ignore lint/suspicious/noControlCharactersInRegex: what must not reach the terminal
        for (const line of printed) expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
      } finally {
        console.log = log;
        await rm(parent, { recursive: true, force: true });
      }
      // Whatever else it prints from the database (a gateway's error, an operator's words) is escaped, not obeyed.
      expect(printable('ok\u001b[2J\u0007\nfin\u202e')).toBe('ok\\u001b[2J\\u0007\\u000afin\\u202e');
    });

    it('the stored request keeps what was sent', async () => {
      const number = await created(ctx);
      const [row] = await ctx.database.db.select().from(refundRequests).where(eq(refundRequests.number, number));
      expect(row).toMatchObject({ status: 'recibida', documentKey: '123456785', amount: '185000.00', bankCode: '012' });
    });
  },
  env,
);

describeOnEachDatabase(
  'refund admin API without ADMIN_TOKEN',
  (ctx) => {
    useCoveredSales(ctx);
    it('answers 404 whatever token is sent', async () => {
      const number = await created(ctx);
      expect((await admin(ctx, number, { status: 'en_revision' })).status).toBe(404);
      expect((await admin(ctx, number, { status: 'en_revision' }, '')).status).toBe(404);
    });

    it('answers exactly the catch-all 404 for any body, token or none: nothing shows the route exists', async () => {
      await expectHiddenAdminRoute(ctx);
      await expectHiddenAdminRoute(ctx, adminToken);
    });
  },
  { WORKER: 'off' },
);

describeOnEachDatabase(
  'refund rate limits',
  (ctx) => {
    useCoveredSales(ctx);
    it('requests over the form limit get 429; tracking over the look-up limit too', async () => {
      for (let i = 0; i < defaultRateLimits.formSubmit.max; i++) {
        expect((await postRefund(ctx, validBody(), '203.0.113.40')).status).toBe(204);
      }
      const before = await requestCount(ctx);
      const refused = await postRefund(ctx, validBody(), '203.0.113.40');
      expect(refused.status).toBe(429);
      expect(refused.json<ErrorBody>()).toMatchObject({ status: 429, detail: errorMessages.tooManyRequests });
      expect(await requestCount(ctx)).toBe(before);
      const lookup = (remoteAddress: string) =>
        call(ctx.app, { method: 'GET', url: `${url}/R-ZZZZZZZZ?document=1`, remoteAddress });
      for (let i = 0; i < defaultRateLimits.lookup.max; i++) expect((await lookup('203.0.113.41')).status).toBe(404);
      expect((await lookup('203.0.113.41')).status).toBe(429);
      expect((await lookup('203.0.113.42')).status).toBe(404);
    });
  },
  { RATE_LIMIT_FACTOR: '1', WORKER: 'off' },
);
