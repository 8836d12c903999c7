import { describe, expect, it } from 'vitest';
import { type ClaimDetail, claimApiQuery, parsePesos } from '#app/features/claims.ts';
import { answerOf, contractApi, formPost, meAnswer, pageRequest, thrownBy } from '#app/test/fake-api.ts';
import { renderPage } from '#app/test/render.tsx';
import { action, type ClaimResult, ClaimView, loader as claimLoader } from './reembolso.tsx';
import { ClaimsInboxView, loader as inboxLoader } from './reembolsos.tsx';

const listed = {
  number: 'R-7K3M9XQ2',
  status: 'recibida',
  statusText: 'Recibida',
  holderName: 'Ana María Pérez',
  certificateNumber: 'C-100',
  amount: 185000,
  currency: 'CLP',
  assignedTo: null,
  receivedAt: '2026-11-20T12:00:00.000Z',
  waitingDays: 8,
};

const claim: ClaimDetail = {
  number: 'R-7K3M9XQ2',
  version: 3,
  status: 'en_revision',
  statusText: 'En revisión',
  nextStatuses: ['faltan_documentos', 'aprobada', 'rechazada'],
  canRecordPayment: false,
  receivedAt: '2026-11-20T12:00:00.000Z',
  updatedAt: '2026-11-21T12:00:00.000Z',
  waitingDays: 8,
  assignedTo: null,
  claimant: {
    name: 'Ana María Pérez',
    documentType: 'RUT',
    documentNumber: '12.345.678-5',
    email: 'ana.perez@example.cl',
    phone: '+56 9 1234 5678',
    bank: 'Banco de Chile',
    accountType: 'Cuenta vista',
    accountNumber: '12345678',
  },
  certificateNumber: 'C-100',
  incident: { date: '2026-11-18', description: 'Consulta en una clínica de Madrid.' },
  amounts: { currency: 'CLP', claimed: 185000, approved: null, paidClp: null },
  missingDocuments: null,
  rejectionReason: null,
  documents: [
    {
      id: 11,
      name: 'boleta.pdf',
      type: 'application/pdf',
      size: 2048,
      uploadedAt: '2026-11-20T12:00:00.000Z',
      link: { url: '/api/backoffice/claim-documents/11?expires=1&signature=s1', expiresAt: '2026-11-28T12:05:00Z' },
    },
    {
      id: 12,
      name: 'receta.png',
      type: 'image/png',
      size: 4096,
      uploadedAt: '2026-11-20T12:00:00.000Z',
      link: { url: '/api/backoffice/claim-documents/12?expires=1&signature=s2', expiresAt: '2026-11-28T12:05:00Z' },
    },
  ],
  history: [
    {
      id: 1,
      kind: 'status',
      at: '2026-11-21T12:00:00.000Z',
      by: 'luis@travesia.cl',
      from: 'recibida',
      to: 'en_revision',
      text: 'Revisando tu boleta',
    },
  ],
  notes: [
    {
      id: 2,
      kind: 'note',
      at: '2026-11-21T13:00:00.000Z',
      by: 'eva@travesia.cl',
      from: null,
      to: null,
      text: 'Llamar a la clínica',
    },
  ],
};

describe('claims inbox («Reembolsos»)', () => {
  it('refuses a role that does not read claims with a 403 page', async () => {
    const { context } = contractApi({ 'GET /me': meAnswer(['content']) });
    const thrown = await thrownBy(() => inboxLoader({ request: pageRequest('/reembolsos'), context } as never));
    expect(thrown).toMatchObject({ init: { status: 403 } });
  });

  it('passes the URL filters to the API in its names, and lists the claims with days waiting', async () => {
    const { context, calls } = contractApi({
      'GET /me': meAnswer(['support']),
      'GET /claims?status=waiting&assigned=unassigned&olderThanDays=7': {
        status: 200,
        body: { claims: [listed], nextCursor: '41' },
      },
    });
    const data = await inboxLoader({
      request: pageRequest('/reembolsos?estado=esperando&asignado=sin-asignar&antiguedad=7&bogus=1'),
      context,
    } as never);
    expect(calls.at(-1)?.path).toBe('/claims?status=waiting&assigned=unassigned&olderThanDays=7');
    const html = renderPage(<ClaimsInboxView {...data} />);
    expect(html).toContain('href="/reembolsos/R-7K3M9XQ2"');
    expect(html).toContain('8 días');
    expect(html).toContain('$185.000');
    expect(html).toContain('Sin asignar');
    expect(html).toContain(
      'href="/reembolsos?estado=esperando&amp;asignado=sin-asignar&amp;antiguedad=7&amp;cursor=41"',
    );
  });

  it('says so when nothing matches, and shows an API failure as a notice', async () => {
    const empty = renderPage(
      <ClaimsInboxView filters={{ estado: 'pagada' }} claims={[]} nextCursor={null} continued={false} />,
    );
    expect(empty).toContain('No hay reembolsos con estos filtros.');
    const failed = renderPage(
      <ClaimsInboxView filters={{}} claims={[]} nextCursor={null} continued={false} error="No pudimos comunicarnos." />,
    );
    expect(failed).toContain('role="alert"');
    expect(failed).not.toContain('Todavía no hay solicitudes');
  });

  it('ignores unknown filter values and cursors', () => {
    expect(claimApiQuery({}, 'x; drop')).toBe('');
    expect(parsePesos('150.000')).toBe(150000);
    expect(parsePesos('$ 150000')).toBe(150000);
    expect(parsePesos('150000,5')).toBeUndefined();
    expect(parsePesos('0')).toBeUndefined();
  });
});

describe('a claim’s page', () => {
  it('shows the claim, the PDF in a frame and each form with the CSRF token and version', async () => {
    const { context } = contractApi({
      'GET /me': meAnswer(['support']),
      'GET /claims/R-7K3M9XQ2': { status: 200, body: claim },
    });
    const data = await claimLoader({
      request: pageRequest('/reembolsos/R-7K3M9XQ2'),
      context,
      params: { numero: 'R-7K3M9XQ2' },
    } as never);
    expect(data.shown).toBe(11);
    const html = renderPage(<ClaimView {...data} csrfToken="csrf-123" roles={['support']} />);
    // The frame's document is sandboxed by its own answer's policy (Chromium shows no PDF under a sandbox attribute).
    expect(html).toContain(
      '<iframe src="/api/backoffice/claim-documents/11?expires=1&amp;signature=s1" title="Documento boleta.pdf"',
    );
    expect(html).toContain('Asignarme');
    expect(html).toContain('Cambiar estado y avisar');
    expect(html).toContain('Pedir documentos');
    expect(html).not.toContain('Registrar pago');
    expect(html).toContain('Llamar a la clínica');
    expect(html).toContain('Revisando tu boleta');
    expect(html).toContain('name="csrf" value="csrf-123"');
    expect(html).toContain('name="version" value="3"');
    // Ids stay unique though three forms have a message field.
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('shows an image as an image, chosen by ?documento=', async () => {
    const { context } = contractApi({
      'GET /me': meAnswer(['finance']),
      'GET /claims/R-7K3M9XQ2': { status: 200, body: { ...claim, status: 'aprobada', canRecordPayment: true } },
    });
    const data = await claimLoader({
      request: pageRequest('/reembolsos/R-7K3M9XQ2?documento=12'),
      context,
      params: { numero: 'R-7K3M9XQ2' },
    } as never);
    const html = renderPage(<ClaimView {...data} csrfToken="c" roles={['finance']} />);
    expect(html).toContain(
      '<img src="/api/backoffice/claim-documents/12?expires=1&amp;signature=s2" alt="Documento receta.png"',
    );
    expect(html).not.toContain('<iframe');
    // Finance records payments and writes notes; it does not change status or assign.
    expect(html).toContain('Registrar pago y avisar');
    expect(html).not.toContain('Cambiar estado y avisar');
    expect(html).not.toContain('Asignarme');
  });

  it('an unknown claim is a 404 page', async () => {
    const { context } = contractApi({ 'GET /me': meAnswer(['support']) });
    const thrown = await thrownBy(() =>
      claimLoader({ request: pageRequest('/reembolsos/R-NOPE'), context, params: { numero: 'R-NOPE' } } as never),
    );
    expect(thrown).toMatchObject({ init: { status: 404 } });
  });

  it('posts a status change with the message, and «faltan documentos» with the list, with token and version', async () => {
    const { context, calls } = contractApi({
      'POST /claims/R-7K3M9XQ2/status': { status: 200, body: { number: 'R-7K3M9XQ2', version: 4, status: 'x' } },
    });
    const status = answerOf<ClaimResult>(
      await action({
        request: formPost('/reembolsos/R-7K3M9XQ2', {
          intent: 'status',
          csrf: 'csrf-123',
          version: '3',
          estado: 'aprobada',
          moneda: 'CLP',
          monto: '150.000',
          mensaje: 'Descontamos el deducible.',
        }),
        context,
        params: { numero: 'R-7K3M9XQ2' },
      } as never),
    );
    expect(status.data).toMatchObject({ ok: true, intent: 'status' });
    await action({
      request: formPost('/reembolsos/R-7K3M9XQ2', {
        intent: 'missing',
        csrf: 'csrf-123',
        version: '4',
        faltantes: 'Boleta original',
      }),
      context,
      params: { numero: 'R-7K3M9XQ2' },
    } as never);
    expect(calls.map((c) => [c.path, c.body, c.headers.get('x-csrf-token')])).toEqual([
      [
        '/claims/R-7K3M9XQ2/status',
        { version: 3, status: 'aprobada', amount: 150000, message: 'Descontamos el deducible.' },
        'csrf-123',
      ],
      [
        '/claims/R-7K3M9XQ2/status',
        { version: 4, status: 'faltan_documentos', missing: 'Boleta original' },
        'csrf-123',
      ],
    ]);
  });

  it('refuses a fractional peso before calling, and shows a 409 in the API’s words', async () => {
    const stale = 'Otro operador cambió este reembolso mientras lo mirabas. Recarga la página.';
    const { context, calls } = contractApi({
      'POST /claims/R-7K3M9XQ2/assign': {
        status: 409,
        body: { status: 409, detail: stale, errors: [{ field: 'version', code: 'stale', message: stale }] },
      },
    });
    const bad = answerOf<ClaimResult>(
      await action({
        request: formPost('/reembolsos/R-7K3M9XQ2', { intent: 'payment', csrf: 'c', version: '3', pagado: '1500,5' }),
        context,
        params: { numero: 'R-7K3M9XQ2' },
      } as never),
    );
    expect(bad.status).toBe(400);
    expect(bad.data.errors?.paidAmountClp).toContain('sin decimales');
    expect(calls).toHaveLength(0);
    const lost = answerOf<ClaimResult>(
      await action({
        request: formPost('/reembolsos/R-7K3M9XQ2', { intent: 'assign', csrf: 'c', version: '3' }),
        context,
        params: { numero: 'R-7K3M9XQ2' },
      } as never),
    );
    expect(lost.status).toBe(409);
    expect(lost.data.message).toBe(stale);
    const html = renderPage(
      <ClaimView claim={claim} shown={11} csrfToken="c" roles={['support']} result={lost.data} />,
    );
    expect(html).toContain(stale);
  });
});
