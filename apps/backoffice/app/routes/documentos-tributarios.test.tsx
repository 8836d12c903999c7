import { describe, expect, it } from 'vitest';
import { navigationFor } from '#app/lib/navigation.ts';
import { answerOf, contractApi, formPost, meAnswer, pageRequest, thrownBy } from '#app/test/fake-api.ts';
import { renderPage } from '#app/test/render.tsx';
import {
  action,
  loader,
  type NotIssuedDocument,
  type TaxDocumentsResult,
  TaxDocumentsView,
} from './documentos-tributarios.tsx';

const documents: NotIssuedDocument[] = [
  {
    id: 7,
    saleId: 1201,
    typeName: 'Factura electrónica',
    totalClp: 104_510,
    state: 'fallido',
    tries: 1,
    lastError: 'El proveedor rechazó el documento: RUT del receptor inválido',
    createdAt: '2026-11-27T10:00:00.000Z',
  },
  {
    id: 8,
    saleId: 1202,
    typeName: 'Boleta electrónica',
    totalClp: 45_990,
    state: 'pendiente',
    tries: 4,
    lastError: 'No se pudo conectar con el proveedor; se reintentará',
    createdAt: '2026-11-28T10:00:00.000Z',
  },
];

describe('«Documentos tributarios sin emitir» (admin, finance)', () => {
  it('lists refused and still-retrying documents with the provider error in words, «Reintentar» only for refused', async () => {
    const { context } = contractApi({
      'GET /me': meAnswer(['finance']),
      'GET /tax-documents': { status: 200, body: { documents } },
    });
    const data = await loader({ request: pageRequest('/documentos-tributarios'), context } as never);
    const html = renderPage(<TaxDocumentsView {...data} csrfToken="c" />);
    expect(html).toContain('Factura electrónica');
    expect(html).toContain('RUT del receptor inválido');
    expect(html).toContain('$104.510');
    expect(html).toContain('href="/ventas/1201"');
    expect(html).toContain('Rechazado');
    expect(html).toContain('Reintentando (4 intentos)');
    expect(html).toContain('Reintentar<span class="sr-only"> el documento 7</span>');
    expect(html).not.toContain('el documento 8');
    expect(renderPage(<TaxDocumentsView documents={[]} csrfToken="c" />)).toContain(
      'Todos los documentos tributarios están emitidos.',
    );
  });

  it('shows the API error in words when the list cannot be read', async () => {
    const { context } = contractApi({
      'GET /me': meAnswer(['admin']),
      'GET /tax-documents': { status: 503, body: { message: 'El servicio no está disponible.' } },
    });
    const data = await loader({ request: pageRequest('/documentos-tributarios'), context } as never);
    const html = renderPage(<TaxDocumentsView {...data} csrfToken="c" />);
    expect(html).toContain('El servicio no está disponible.');
    expect(html).not.toContain('Todos los documentos tributarios están emitidos.');
  });

  it('retries with the CSRF token and says when another operator already did', async () => {
    const { context, calls } = contractApi({
      'GET /me': meAnswer(['finance']),
      'POST /tax-documents/7/retry': { status: 200, body: { retried: true } },
    });
    const ok = answerOf<TaxDocumentsResult>(
      await action({ request: formPost('/documentos-tributarios', { csrf: 'csrf-3', id: '7' }), context } as never),
    );
    expect(calls.find((call) => call.path.endsWith('/tax-documents/7/retry'))?.headers.get('x-csrf-token')).toBe(
      'csrf-3',
    );
    expect(ok.data).toMatchObject({ ok: true });
    expect(ok.data.message).toContain('Documento 7 enviado de nuevo al proveedor');

    const stale = contractApi({
      'GET /me': meAnswer(['finance']),
      'POST /tax-documents/7/retry': { status: 409, body: { message: 'Este documento ya no está fallido.' } },
    });
    const refused = answerOf<TaxDocumentsResult>(
      await action({
        request: formPost('/documentos-tributarios', { csrf: 'c', id: '7' }),
        context: stale.context,
      } as never),
    );
    expect(refused).toMatchObject({ status: 409, data: { ok: false, message: 'Este documento ya no está fallido.' } });
  });

  it('is for administrators and finance only, and shows in their navigation', async () => {
    for (const role of ['support', 'content', 'pricing'] as const) {
      const { context } = contractApi({ 'GET /me': meAnswer([role]) });
      const thrown = await thrownBy(() =>
        loader({ request: pageRequest('/documentos-tributarios'), context } as never),
      );
      expect(thrown).toMatchObject({ init: { status: 403 } });
      expect(navigationFor([role]).map((entry) => entry.path)).not.toContain('/documentos-tributarios');
    }
    expect(navigationFor(['finance']).map((entry) => entry.path)).toContain('/documentos-tributarios');
  });
});
