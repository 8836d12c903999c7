import type { Issuer } from './local.ts';
import { type IssueDocument, type IssuedDocument, type TaxDocumentProvider, TaxDocumentRefused } from './provider.ts';

/**
 * Haulmer's OpenFactura REST API (ADR 020): POST {base}/v2/dte/document with the `apikey` header and an
 * `Idempotency-Key` (our document's source key), answering {TOKEN, FOLIO, PDF, XML} (PDF and XML in base64).
 * Errors come as {error: {message, code, details}}: a 4xx is a refusal (not retried as is), a 5xx or a timeout
 * is thrown as an ordinary error so the job retries with back-off under the same key.
 */
export type OpenFacturaOptions = {
  baseUrl: string;
  apiKey: string;
  issuer: Issuer & { acteco?: number | undefined; branchCode?: number | undefined };
  timeoutMs?: number;
};

/** The document's detail: its lines (the plan and each add-on kind), or one line of the whole. */
const detailLines = (doc: IssueDocument) => {
  // Boletas (39/41) state gross prices; facturas (33/34) and their credit notes, net ones.
  const gross = doc.type === 39 || doc.type === 41;
  const lines = doc.lines ?? [{ name: doc.item, ...doc }];
  return lines.map((line, index) => {
    const exempt = line.exemptClp > 0;
    const price = exempt ? line.exemptClp : gross ? line.totalClp : line.netClp;
    return {
      NroLinDet: index + 1,
      NmbItem: line.name,
      QtyItem: 1,
      PrcItem: price,
      MontoItem: price,
      ...(exempt ? { IndExe: 1 } : {}),
    };
  });
};

export function openFacturaBody(doc: IssueDocument, issuer: OpenFacturaOptions['issuer']) {
  return {
    response: ['PDF', 'FOLIO', 'XML'],
    dte: {
      Encabezado: {
        IdDoc: { TipoDTE: doc.type, Folio: 0, FchEmis: doc.date },
        Emisor: {
          RUTEmisor: issuer.rut,
          RznSoc: issuer.name,
          RznSocEmisor: issuer.name,
          GiroEmis: issuer.giro,
          Acteco: issuer.acteco,
          DirOrigen: issuer.address,
          CmnaOrigen: issuer.commune,
          CdgSIISucur: issuer.branchCode,
        },
        Receptor: {
          RUTRecep: doc.receiver.rut,
          RznSocRecep: doc.receiver.name,
          GiroRecep: doc.receiver.giro,
          DirRecep: doc.receiver.address,
          CmnaRecep: doc.receiver.commune,
        },
        Totales: {
          MntNeto: doc.netClp,
          TasaIVA: doc.ivaClp > 0 ? 19 : undefined,
          IVA: doc.ivaClp,
          MntExe: doc.exemptClp,
          MntTotal: doc.totalClp,
        },
      },
      Detalle: detailLines(doc),
      ...(doc.corrects
        ? {
            Referencia: [
              {
                NroLinRef: 1,
                TpoDocRef: doc.corrects.type,
                FolioRef: doc.corrects.folio,
                FchRef: doc.corrects.date,
                // 1: anula el documento de referencia; a partial refund corrects its amounts (3).
                CodRef: doc.corrects.whole ? 1 : 3,
                RazonRef: doc.corrects.reason,
              },
            ],
          }
        : {}),
    },
  };
}

type Answer = { TOKEN?: string; FOLIO?: number | string; PDF?: string; XML?: string };
type ErrorAnswer = { error?: { message?: string; code?: string | number; details?: unknown } };

export function openFactura(options: OpenFacturaOptions): TaxDocumentProvider {
  const base = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 20_000;
  // Keys answered in this process: OpenFactura replays the original answer for a repeated key, so `find` asks again.
  const byKey = new Map<string, IssuedDocument>();

  async function post(doc: IssueDocument): Promise<IssuedDocument> {
    const response = await fetch(`${base}/v2/dte/document`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: options.apiKey, 'Idempotency-Key': doc.key },
      body: JSON.stringify(openFacturaBody(doc, options.issuer)),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    if (!response.ok) {
      const error = (json as ErrorAnswer | null)?.error;
      const message = error?.message ?? `OpenFactura respondió ${response.status}`;
      if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429) {
        throw new TaxDocumentRefused(message, error?.code === undefined ? null : String(error.code));
      }
      throw new Error(`OpenFactura ${response.status}: ${message}`);
    }
    const answer = (json ?? {}) as Answer;
    const folio = Number(answer.FOLIO);
    if (!answer.TOKEN || !Number.isInteger(folio) || folio <= 0 || !answer.PDF || !answer.XML) {
      throw new Error('OpenFactura answered without TOKEN, FOLIO, PDF or XML');
    }
    return {
      providerId: answer.TOKEN,
      folio,
      pdf: new Uint8Array(Buffer.from(answer.PDF, 'base64')),
      xml: new Uint8Array(Buffer.from(answer.XML, 'base64')),
    };
  }

  return {
    id: 'openfactura',
    testMode: false,
    async issue(doc) {
      const issued = await post(doc);
      byKey.set(doc.key, issued);
      return issued;
    },
    async find(key) {
      return byKey.get(key) ?? null;
    },
  };
}
