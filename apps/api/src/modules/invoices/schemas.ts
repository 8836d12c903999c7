import { uiMessages } from '@travesia/domain/messages';
import { isValidRut } from '@travesia/domain/rut';
import { z } from 'zod';

/** The Spanish messages of the billing step, one per rule. */
export const invoiceMessages = {
  required: uiMessages.required,
  textLength: (max: number) => `Debe tener entre 1 y ${max} caracteres`,
  apartmentLength: 'No puede tener más de 20 caracteres',
  boolean: 'Debe ser verdadero o falso',
  invalidRut: 'RUT inválido',
  emailFormat: uiMessages.emailFormat,
  emailLength: 'El email no puede tener más de 50 caracteres',
  companyRequired: 'Ingrese los datos de la empresa para emitir factura',
  alreadyPaid: 'La compra ya fue pagada; los datos no se pueden modificar',
  quotationId: 'Identificador de cotización inválido',
} as const;

const m = invoiceMessages;

/** A type error reads «Campo Obligatorio» when the value is missing, `message` when it is something else. */
const typeError = (message: string) => ({
  error: (issue: { input?: unknown }) => (issue.input == null ? m.required : message),
});

const text = (max: number) =>
  z
    .string(typeError(m.textLength(max)))
    .trim()
    .min(1, m.textLength(max))
    .max(max, m.textLength(max));

const emailSchema = z
  .string(typeError(m.emailFormat))
  .trim()
  .min(1, { error: m.required, abort: true })
  .max(50, { error: m.emailLength, abort: true })
  .pipe(z.email({ error: m.emailFormat }));

const personalInformationSchema = z.object(
  {
    address: text(200),
    streetNumber: text(20),
    apartment: z
      .string(typeError(m.apartmentLength))
      .trim()
      .max(20, m.apartmentLength)
      .nullish()
      .describe('Optional; blank is stored as null'),
    locality: text(100),
    province: text(100),
  },
  typeError(m.required),
);

const companyDetailsSchema = z.object(
  {
    name: text(100),
    id: z
      .string(typeError(m.invalidRut))
      .trim()
      .refine((value) => isValidRut(value), m.invalidRut)
      .describe("The company's RUT"),
    business: text(100).describe('Giro'),
    address: text(200),
    email: emailSchema,
  },
  typeError(m.companyRequired),
);

/** POST /quotations/{quotationId}/invoice-details (spec §3 Invoice details). */
export const invoiceDetailsBodySchema = z
  .object({
    personalInformation: personalInformationSchema,
    generateInvoice: z.boolean(typeError(m.boolean)),
    companyDetails: companyDetailsSchema
      .nullish()
      .describe('Required when generateInvoice is true; not stored when it is false'),
  })
  .superRefine((body, ctx) => {
    if (body.generateInvoice && !body.companyDetails) {
      ctx.addIssue({ code: 'custom', message: m.companyRequired, path: ['companyDetails'] });
    }
  })
  .meta({ id: 'InvoiceDetailsBody' });

export type InvoiceDetailsBody = z.output<typeof invoiceDetailsBodySchema>;

export const invoiceDetailsSchema = z
  .object({
    personalInformation: z.object({
      address: z.string(),
      streetNumber: z.string(),
      apartment: z.string().nullable(),
      locality: z.string(),
      province: z.string(),
    }),
    generateInvoice: z.boolean(),
    companyDetails: z
      .object({
        name: z.string(),
        id: z.string(),
        business: z.string(),
        address: z.string(),
        email: z.string(),
      })
      .nullable(),
  })
  .meta({ id: 'InvoiceDetails' });

export type InvoiceDetails = z.infer<typeof invoiceDetailsSchema>;

export const quotationIdParams = z.object({ quotationId: z.uuid({ error: m.quotationId }) });
