import { createServer } from 'node:http';
import type { openFacturaBody } from '#app/integrations/tax-documents/openfactura.ts';

export type SentBody = ReturnType<typeof openFacturaBody> & { dte: { Referencia?: unknown } };

/** The configuration of a deployment issuing through OpenFactura (its base URL is the fake's, set once it listens). */
export const openFacturaEnv = (): NodeJS.ProcessEnv => ({
  TAX_DOCUMENTS_PROVIDER: 'openfactura',
  OPENFACTURA_API_KEY: 'test-key',
  TAX_ISSUER_RUT: '76123456-0',
  TAX_ISSUER_NAME: 'Travesía Asistencia SpA',
  TAX_ISSUER_GIRO: 'Asistencia en viaje',
  TAX_ISSUER_ADDRESS: 'Av. Apoquindo 1234',
  TAX_ISSUER_COMMUNE: 'Las Condes',
});

/** A loopback stand-in for OpenFactura built from its published format: one document per Idempotency-Key. */
export async function fakeOpenFactura() {
  const state = {
    requests: [] as { headers: Record<string, unknown>; body: SentBody }[],
    byKey: new Map<string, { TOKEN: string; FOLIO: number; PDF: string; XML: string }>(),
    nextFolio: 1001,
    /** Queued answers for the next requests: a status with an error body, or a hang (timeout). */
    script: [] as ({ status: number; error: { message: string; code: string } } | 'hang')[],
    /** How long each answer takes (ms): lets two workers' calls overlap. */
    delayMs: 0,
  };
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', async () => {
      if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
      const body = JSON.parse(raw || '{}');
      state.requests.push({ headers: req.headers, body });
      if (req.url !== '/v2/dte/document' || req.headers.apikey !== 'test-key') {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'API key inválida', code: 'OF-01', details: null } }));
        return;
      }
      const next = state.script.shift();
      if (next === 'hang') return;
      if (next) {
        res.writeHead(next.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { ...next.error, details: null } }));
        return;
      }
      const key = String(req.headers['idempotency-key']);
      let doc = state.byKey.get(key);
      if (!doc) {
        const folio = state.nextFolio++;
        doc = {
          TOKEN: `tok-${folio}`,
          FOLIO: folio,
          PDF: Buffer.from(`%PDF-1.4 folio ${folio}`).toString('base64'),
          XML: Buffer.from(`<DTE><Folio>${folio}</Folio></DTE>`).toString('base64'),
        };
        state.byKey.set(key, doc);
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(doc));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    state,
    baseUrl: `http://127.0.0.1:${address.port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
