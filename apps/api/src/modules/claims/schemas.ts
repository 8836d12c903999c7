import { refundDocuments, refundRequestSchema, refundStatusList } from '@travesia/domain/refunds';
import { z } from 'zod';
import { companyParams } from '#app/http.ts';

/** Spec §7 `POST /companies/{companyId}/refunds`: the fields and rules of packages/domain/refunds.ts. */
export const claimRequestBody = refundRequestSchema.meta({ id: 'RefundRequest' });

export const claimParams = companyParams.extend({
  number: z.string().max(20).describe('The request number, e.g. R-7K3M9XQ2'),
});

export const documentQuery = z.object({
  document: z
    .string()
    .min(1)
    .max(30)
    .describe("The holder's document number (RUT with or without dots and dash, DNI or passport)"),
});

export const addDocumentsBody = z.object({ documentos: refundDocuments }).meta({ id: 'RefundDocuments' });

export const claimTrackingSchema = z
  .object({
    numero: z.string(),
    estado: z.enum(refundStatusList),
    estadoTexto: z.string().describe('The status in words (Spanish)'),
    fechaSolicitud: z.string().describe('ISO timestamp'),
    fechaActualizacion: z.string().describe('ISO timestamp of the last status change'),
    fechaIncidente: z.string(),
    numeroCertificado: z.string(),
    monto: z.number(),
    moneda: z.enum(['CLP', 'USD']),
    montoAprobado: z.number().nullable().describe('When aprobada or pagada'),
    motivoRechazo: z.string().nullable().describe('When rechazada'),
    documentosFaltantes: z.string().nullable().describe('When faltan_documentos: which documents, in words'),
    documentos: z.array(
      z.object({ nombre: z.string(), tipo: z.string(), tamano: z.number().int(), fecha: z.string() }),
    ),
  })
  .meta({ id: 'RefundTracking' });

export const statusChangeBody = z.object({
  status: z.enum(refundStatusList),
  amount: z.number().positive().optional().describe('Required for aprobada'),
  reason: z.string().max(1000).optional().describe('Required for rechazada'),
  missing: z.string().max(1000).optional().describe('Required for faltan_documentos'),
});

export const adminParams = z.object({ number: z.string().max(20) });
