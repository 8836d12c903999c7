import {
  booleanField,
  companyDetails,
  companyDetailsMissing,
  personalInformation,
  reportRule,
} from '@travesia/domain/rules';
import { z } from 'zod';

/** POST /quotations/{quotationId}/invoice-details (spec §3 Invoice details); the rules are packages/domain's. */
export const invoiceDetailsBodySchema = z
  .object({
    personalInformation,
    generateInvoice: booleanField,
    companyDetails: companyDetails
      .nullish()
      .describe('Required when generateInvoice is true; not stored when it is false'),
  })
  .superRefine((body, ctx) => {
    if (body.generateInvoice && !body.companyDetails) reportRule(ctx, ['companyDetails'], companyDetailsMissing);
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
