import { checkField, companyDetails, personalInformation } from '@travesia/domain/rules';
import { formatRut, isValidRut } from '@travesia/domain/rut';
import { z } from 'zod';
import type { components } from '#app/lib/api-schema.d.ts';
import { postedCheckbox, postedText } from './posted-form.ts';

export type InvoiceDetailsBody = components['schemas']['InvoiceDetailsBody'];
export type InvoiceDetails = components['schemas']['InvoiceDetails'];

export type BillingValues = {
  personalInformation: { address: string; streetNumber: string; apartment: string; locality: string; province: string };
  generateInvoice: boolean;
  companyDetails: { name: string; id: string; business: string; address: string; email: string };
};

export function initialBillingValues(saved: InvoiceDetails | null): BillingValues {
  const personal = saved?.personalInformation;
  const company = saved?.companyDetails;
  return {
    personalInformation: {
      address: personal?.address ?? '',
      streetNumber: personal?.streetNumber ?? '',
      apartment: personal?.apartment ?? '',
      locality: personal?.locality ?? '',
      province: personal?.province ?? '',
    },
    generateInvoice: saved?.generateInvoice ?? false,
    companyDetails: {
      name: company?.name ?? '',
      id: company?.id ?? '',
      business: company?.business ?? '',
      address: company?.address ?? '',
      email: company?.email ?? '',
    },
  };
}

/**
 * The billing rules the browser checks before anything is sent: the API's (packages/domain/src/rules.ts), on the
 * form's values; the company's only when an invoice is asked for.
 */
export const billingSchema = z
  .object({
    personalInformation: z.object({
      address: z.string(),
      streetNumber: z.string(),
      apartment: z.string(),
      locality: z.string(),
      province: z.string(),
    }),
    generateInvoice: z.boolean(),
    companyDetails: z.object({
      name: z.string(),
      id: z.string(),
      business: z.string(),
      address: z.string(),
      email: z.string(),
    }),
  })
  .superRefine((values, ctx) => {
    checkField(ctx, ['personalInformation'], personalInformation, values.personalInformation);
    if (values.generateInvoice) checkField(ctx, ['companyDetails'], companyDetails, values.companyDetails);
  });

export function tidyRut(value: string): string {
  const text = value.trim();
  return isValidRut(text) ? formatRut(text, 'both') : text;
}

/** The checked form as the API's body (POST /quotations/{id}/invoice-details). */
export function toInvoiceBody(values: BillingValues): InvoiceDetailsBody {
  const personal = values.personalInformation;
  const company = values.companyDetails;
  return {
    personalInformation: {
      address: personal.address.trim(),
      streetNumber: personal.streetNumber.trim(),
      apartment: personal.apartment.trim() || null,
      locality: personal.locality.trim(),
      province: personal.province.trim(),
    },
    generateInvoice: values.generateInvoice,
    companyDetails: values.generateInvoice
      ? {
          name: company.name.trim(),
          id: tidyRut(company.id),
          business: company.business.trim(),
          address: company.address.trim(),
          email: company.email.trim(),
        }
      : null,
  };
}

/**
 * A posted billing form (inputs named personalInformation.address, companyDetails.id…) as the form's values. The
 * company's fields are always in the page (shown by CSS when «Necesito factura» is ticked, so it works without
 * JavaScript); they count only with the box ticked.
 */
export function billingValuesOfForm(form: FormData): BillingValues {
  const text = (name: string) => postedText(form, name);
  return {
    personalInformation: {
      address: text('personalInformation.address'),
      streetNumber: text('personalInformation.streetNumber'),
      apartment: text('personalInformation.apartment'),
      locality: text('personalInformation.locality'),
      province: text('personalInformation.province'),
    },
    generateInvoice: postedCheckbox(form, 'generateInvoice'),
    companyDetails: {
      name: text('companyDetails.name'),
      id: text('companyDetails.id'),
      business: text('companyDetails.business'),
      address: text('companyDetails.address'),
      email: text('companyDetails.email'),
    },
  };
}

const billingFields = new Set([
  'personalInformation.address',
  'personalInformation.streetNumber',
  'personalInformation.apartment',
  'personalInformation.locality',
  'personalInformation.province',
  'companyDetails.name',
  'companyDetails.id',
  'companyDetails.business',
  'companyDetails.address',
  'companyDetails.email',
]);

/** The API's field names are the form's; anything else is for the whole form. */
export function billingFieldOfApi(field: string): string | null {
  return billingFields.has(field) ? field : null;
}
