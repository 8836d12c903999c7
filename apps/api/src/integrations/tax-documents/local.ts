import { formatClp } from '@travesia/domain/money';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import type { DteType, IssueDocument, IssuedDocument, TaxDocumentProvider } from './provider.ts';

/** Printed on every page of a local document: it was never sent to the SII. */
export const noTaxValueText = 'SIN VALOR TRIBUTARIO';

/** Local folios live in a test range far from any real one, so a local document is never mistaken for a real folio. */
export const localFolioStart = 900_000_001;

const typeNames: Record<DteType, string> = {
  39: 'BOLETA ELECTRÓNICA',
  41: 'BOLETA EXENTA ELECTRÓNICA',
  33: 'FACTURA ELECTRÓNICA',
  34: 'FACTURA EXENTA ELECTRÓNICA',
  61: 'NOTA DE CRÉDITO ELECTRÓNICA',
};

export type Issuer = { rut: string; name: string; giro: string; address: string; commune: string };

/**
 * Where the local adapter keeps what it issued, so `find(key)` answers after a restart and from another process
 * (a retry after a crash between the answer and the commit gets the same folio), and where its folios come from
 * (a shared sequence in production wiring). Without it: in memory, folios counted in this process (unit tests).
 */
export type LocalTaxDocumentsStore = {
  nextFolio(type: DteType): Promise<number>;
  save(key: string, issued: IssuedDocument): Promise<void>;
  load(key: string): Promise<IssuedDocument | null>;
};

/** An in-memory store: one process only. */
export function memoryLocalStore(): LocalTaxDocumentsStore {
  const issued = new Map<string, IssuedDocument>();
  const nextFolio: Partial<Record<DteType, number>> = {};
  return {
    async nextFolio(type) {
      const folio = nextFolio[type] ?? localFolioStart;
      nextFolio[type] = folio + 1;
      return folio;
    },
    async save(key, doc) {
      issued.set(key, doc);
    },
    async load(key) {
      return issued.get(key) ?? null;
    },
  };
}

/**
 * The development and demo provider: needs nothing, numbers documents in a test range and renders a real PDF marked
 * «SIN VALOR TRIBUTARIO». Idempotent by key through its store (persisted in the wiring: documents.ts).
 */
export function localTaxDocuments(
  issuer: Issuer,
  store: LocalTaxDocumentsStore = memoryLocalStore(),
): TaxDocumentProvider {
  return {
    id: 'local',
    testMode: true,
    async issue(doc) {
      const known = await store.load(doc.key);
      if (known) return known;
      const folio = await store.nextFolio(doc.type);
      const result: IssuedDocument = {
        providerId: `local-${doc.type}-${folio}`,
        folio,
        pdf: await renderPdf(issuer, doc, folio),
        xml: new TextEncoder().encode(renderXml(issuer, doc, folio)),
      };
      await store.save(doc.key, result);
      return result;
    },
    find: (key) => store.load(key),
  };
}

async function renderPdf(issuer: Issuer, doc: IssueDocument, folio: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([595, 842]);
  let y = 790;
  const line = (text: string, size = 10, f = font) => {
    page.drawText(text, { x: 50, y, size, font: f, color: rgb(0.1, 0.1, 0.1) });
    y -= size + 8;
  };
  line(noTaxValueText, 16, bold);
  line(`${typeNames[doc.type]} N° ${folio}`, 14, bold);
  line(`${issuer.name} · RUT ${issuer.rut}`);
  line(`${issuer.giro} · ${issuer.address}, ${issuer.commune}`);
  line(`Fecha de emisión: ${doc.date.split('-').reverse().join('-')}`);
  line(`Receptor: ${doc.receiver.name} · RUT ${doc.receiver.rut}`);
  if (doc.receiver.giro) line(`Giro: ${doc.receiver.giro}`);
  if (doc.corrects) {
    line(
      `Corrige: ${typeNames[doc.corrects.type]} N° ${doc.corrects.folio} del ${doc.corrects.date} (${doc.corrects.whole ? 'anula el documento' : 'corrige montos'}) — ${doc.corrects.reason}`,
    );
  }
  y -= 8;
  line(doc.item);
  for (const detail of doc.lines ?? []) line(`${detail.name}: ${formatClp(detail.totalClp)}`);
  if (doc.netClp > 0) line(`Neto: ${formatClp(doc.netClp)} · IVA: ${formatClp(doc.ivaClp)}`);
  if (doc.exemptClp > 0) line(`Exento: ${formatClp(doc.exemptClp)}`);
  line(`Total: ${formatClp(doc.totalClp)}`, 12, bold);
  y -= 8;
  line('Documento de prueba emitido sin conexión al SII: no tiene validez tributaria.');
  // Every page carries the mark, whatever is added above.
  for (const p of pdf.getPages()) {
    p.drawText(noTaxValueText, { x: 50, y: 30, size: 12, font: bold, color: rgb(0.7, 0, 0) });
  }
  return pdf.save();
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function renderXml(issuer: Issuer, doc: IssueDocument, folio: number): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<!-- ${noTaxValueText} -->`,
    `<DTE><Documento><Encabezado><IdDoc><TipoDTE>${doc.type}</TipoDTE><Folio>${folio}</Folio><FchEmis>${doc.date}</FchEmis></IdDoc>`,
    `<Emisor><RUTEmisor>${xmlEscape(issuer.rut)}</RUTEmisor><RznSoc>${xmlEscape(issuer.name)}</RznSoc></Emisor>`,
    `<Receptor><RUTRecep>${xmlEscape(doc.receiver.rut)}</RUTRecep><RznSocRecep>${xmlEscape(doc.receiver.name)}</RznSocRecep></Receptor>`,
    `<Totales><MntNeto>${doc.netClp}</MntNeto><IVA>${doc.ivaClp}</IVA><MntExe>${doc.exemptClp}</MntExe><MntTotal>${doc.totalClp}</MntTotal></Totales>`,
    '</Encabezado></Documento></DTE>',
  ].join('');
}
