import { buffer } from 'node:stream/consumers';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { errorResponses, resourceNotFound } from '#app/errors.ts';
import { typed } from '#app/http.ts';
import { configuredOrigin } from '#app/lib/security/origins.ts';
import {
  listCertificates,
  ownCertificatePdf,
  travellerCertificateFileName,
} from '#app/modules/certificates/service.ts';
import { documentPdf, listSaleDocuments, presentDocument } from '#app/modules/tax-documents/service.ts';
import { dateChangeHistory } from './date-change.ts';
import { bearer, buyerOnly, purchaseAnswerSchema, tags, tokenOf } from './schemas.ts';
import {
  type PurchaseAccess,
  purchaseCertificatePdf,
  purchaseView,
  receiptPdf,
  requireAccess,
  requireBuyer,
  travellerPurchaseView,
} from './service.ts';

function sendPdf(reply: FastifyReply, pdf: Uint8Array, fileName: string) {
  return reply
    .type('application/pdf')
    .header('Content-Disposition', `attachment; filename="${fileName}"`)
    .header('Cache-Control', 'private, no-store')
    .send(Buffer.from(pdf));
}

export const receiptFileName = 'comprobante.pdf';

/** GET /purchases/mine: the buyer's whole purchase or a traveller's own trip. */
export function purchaseViewRoute(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db, config } = fastify;
  const origin = configuredOrigin(config);

  app.get(
    '/purchases/mine',
    {
      schema: {
        tags,
        description:
          "The purchase an access token opens. The buyer's (role buyer): plan, trip, travellers (documents masked), amounts, payment and documents. A traveller's (role traveller): her own trip and certificate only. Without a live token: 404.",
        headers: bearer,
        response: { 200: purchaseAnswerSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const access = await requireAccess(db, tokenOf(request));
      reply.header('Cache-Control', 'private, no-store');
      if (access.role === 'traveller') {
        return purchaseAnswerSchema.parse(await travellerPurchaseView(db, access.saleId, access.travellerSeq, origin));
      }
      const [view, dateChanges] = await Promise.all([
        purchaseView(db, access.saleId),
        dateChangeHistory({ db }, access.saleId),
      ]);
      const taxDocuments = await issuedTaxDocuments(db, access.saleId);
      return purchaseAnswerSchema.parse({ role: 'buyer' as const, ...view, dateChanges, taxDocuments });
    },
  );
}

/** The path of an issued tax document's PDF in «Mi compra» (the buyer's access token fetches it). */
export const taxDocumentPdfPath = (id: number) => `/api/purchases/mine/documentos-tributarios/${id}.pdf`;

/** The issued tax documents of a sale as «Mi compra» lists them. */
async function issuedTaxDocuments(db: FastifyInstance['db'], saleId: number) {
  const rows = await listSaleDocuments(db, saleId);
  return rows
    .filter((row) => row.state === 'emitido')
    .map((row) => ({ ...presentDocument(row), pdfUrl: taxDocumentPdfPath(row.id) }));
}

/** The PDFs of the open purchase: the receipt and the certificates. */
export function purchaseDocumentRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db, config } = fastify;
  const origin = configuredOrigin(config);

  /** The buyer opens any certificate of the sale; a traveller only her own (current) one. */
  const mayOpenCertificate = async (access: PurchaseAccess, certificate: string) => {
    if (access.role === 'buyer') return true;
    const people = await listCertificates(db, access.saleId);
    return people.some((person) => person.seq === access.travellerSeq && person.number === certificate.toUpperCase());
  };

  /** A PDF of the whole purchase, for the buyer only. */
  const buyerPdf = (
    path: string,
    description: string,
    fileName: string,
    pdfOf: (saleId: number) => Promise<Uint8Array>,
  ) =>
    app.get(path, { schema: { tags, description, headers: bearer, response: buyerOnly } }, async (request, reply) => {
      const saleId = requireBuyer(await requireAccess(db, tokenOf(request)));
      return sendPdf(reply, await pdfOf(saleId), fileName);
    });
  buyerPdf(
    `/purchases/mine/${receiptFileName}`,
    "The purchase receipt PDF of the open purchase (the buyer's only)",
    receiptFileName,
    (saleId) => receiptPdf(db, saleId),
  );
  buyerPdf(
    '/purchases/mine/certificado.pdf',
    "The certificate PDF of the open purchase, every traveller's (the buyer's only)",
    'certificado.pdf',
    (saleId) => purchaseCertificatePdf(db, saleId, origin),
  );
  app.get(
    '/purchases/mine/documentos-tributarios/:document',
    {
      schema: {
        tags,
        description:
          "An issued tax document's PDF (boleta, factura, nota de crédito) of the open purchase: personal data, the buyer's only (a traveller: 403); another sale's or not issued: 404",
        headers: bearer,
        params: z.object({ document: z.string().regex(/^\d{1,9}\.pdf$/) }),
        response: buyerOnly,
      },
    },
    async (request, reply) => {
      const saleId = requireBuyer(await requireAccess(db, tokenOf(request)));
      const found = await documentPdf(db, fastify.documentStore, saleId, Number.parseInt(request.params.document, 10));
      if (!found) throw resourceNotFound();
      return sendPdf(reply, await buffer(found.body), `documento-${found.row.type}-${found.row.folio}.pdf`);
    },
  );
  app.get(
    '/purchases/mine/certificados/:certificate',
    {
      schema: {
        tags,
        description:
          "One traveller's certificate PDF of the open purchase (only that traveller's data); a number not of this purchase, or for a traveller's access not her own: 404",
        headers: bearer,
        params: z.object({ certificate: z.string().min(1).max(40) }),
      },
    },
    async (request, reply) => {
      const access = await requireAccess(db, tokenOf(request));
      const { saleId } = access;
      const { certificate } = request.params;
      if (!(await mayOpenCertificate(access, certificate))) throw resourceNotFound();
      const pdf = await ownCertificatePdf(db, saleId, certificate, origin);
      return sendPdf(reply, pdf, travellerCertificateFileName(certificate));
    },
  );
}
