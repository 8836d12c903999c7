import { uiMessages } from '@travesia/domain/messages';
import { formatRut, isValidRut } from '@travesia/domain/rut';
import { z } from 'zod';
import type { components } from '#app/lib/api-schema.d.ts';

export type InvoiceDetailsBody = components['schemas']['InvoiceDetailsBody'];
export type InvoiceDetails = components['schemas']['InvoiceDetails'];

export type BillingValues = {
  personalInformation: { address: string; streetNumber: string; apartment: string; locality: string; province: string };
  generateInvoice: boolean;
  companyDetails: { name: string; id: string; business: string; address: string; email: string };
};

export const billingMessages = {
  required: uiMessages.required,
  textLength: (max: number) => `Puede tener hasta ${max} caracteres`,
  invalidRut: 'RUT inválido',
  emailFormat: uiMessages.emailFormat,
  emailLength: 'El email no puede tener más de 50 caracteres',
} as const;

const m = billingMessages;

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

const textProblem = (value: string, max: number) => {
  const text = value.trim();
  if (text.length === 0) return m.required;
  return text.length > max ? m.textLength(max) : null;
};

const emailProblem = (value: string) => {
  const text = value.trim();
  if (text.length === 0) return m.required;
  if (text.length > 50) return m.emailLength;
  return z.email().safeParse(text).success ? null : m.emailFormat;
};

/** The billing rules the browser checks before anything is sent (the API checks them again). */
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
    const report = (path: string[], message: string | null) => {
      if (message) ctx.addIssue({ code: 'custom', path, message });
    };
    const personal = values.personalInformation;
    report(['personalInformation', 'address'], textProblem(personal.address, 200));
    report(['personalInformation', 'streetNumber'], textProblem(personal.streetNumber, 20));
    report(['personalInformation', 'apartment'], personal.apartment.trim().length > 20 ? m.textLength(20) : null);
    report(['personalInformation', 'locality'], textProblem(personal.locality, 100));
    report(['personalInformation', 'province'], textProblem(personal.province, 100));
    if (!values.generateInvoice) return;
    const company = values.companyDetails;
    report(['companyDetails', 'name'], textProblem(company.name, 100));
    report(
      ['companyDetails', 'id'],
      company.id.trim() === '' ? m.required : isValidRut(company.id) ? null : m.invalidRut,
    );
    report(['companyDetails', 'business'], textProblem(company.business, 100));
    report(['companyDetails', 'address'], textProblem(company.address, 200));
    report(['companyDetails', 'email'], emailProblem(company.email));
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
