import { errorMessages } from '@travesia/domain/messages';
import { alreadyPaid as alreadyPaidRule } from '@travesia/domain/rules';
import type { Database } from '#app/db/client.ts';
import { ApiError, resourceNotFound } from '#app/errors.ts';
import { findQuotationRecord } from '#app/modules/quotations/service.ts';
import * as repository from './repository.ts';
import type { InvoiceDetails, InvoiceDetailsBody } from './schemas.ts';

const alreadyPaid = () =>
  new ApiError(400, errorMessages.invalidInputs, [{ field: 'quotationId', ...alreadyPaidRule }]);

function toInvoiceDetails(row: repository.InvoiceDetailsRow): InvoiceDetails {
  return {
    personalInformation: {
      address: row.address,
      streetNumber: row.streetNumber,
      apartment: row.apartment,
      locality: row.locality,
      province: row.province,
    },
    generateInvoice: row.generateInvoice,
    companyDetails:
      row.generateInvoice && row.companyName !== null
        ? {
            name: row.companyName,
            id: row.companyRut ?? '',
            business: row.companyBusiness ?? '',
            address: row.companyAddress ?? '',
            email: row.companyEmail ?? '',
          }
        : null,
  };
}

/** The quotation's billing data, or undefined when none was saved (for the payment step). */
export async function findInvoiceDetails(db: Database, quotationId: string): Promise<InvoiceDetails | undefined> {
  const row = await repository.findInvoiceDetails(db, quotationId);
  return row ? toInvoiceDetails(row) : undefined;
}

/** GET …/invoice-details: 404 for an unknown quotation and until the data is saved. */
export async function getInvoiceDetails(db: Database, quotationId: string): Promise<InvoiceDetails> {
  if (!(await findQuotationRecord(db, quotationId))) throw resourceNotFound();
  const details = await findInvoiceDetails(db, quotationId);
  if (!details) throw resourceNotFound();
  return details;
}

/** POST …/invoice-details: creates or replaces the billing data; company details only when an invoice is asked for. */
export async function saveInvoiceDetails(db: Database, quotationId: string, body: InvoiceDetailsBody) {
  const quotation = await findQuotationRecord(db, quotationId);
  if (!quotation) throw resourceNotFound();
  if (quotation.paid) throw alreadyPaid();
  const { personalInformation: personal } = body;
  const company = body.generateInvoice ? (body.companyDetails ?? null) : null;
  const outcome = await repository.upsertInvoiceDetails(db, quotationId, {
    address: personal.address,
    streetNumber: personal.streetNumber,
    apartment: personal.apartment || null,
    locality: personal.locality,
    province: personal.province,
    generateInvoice: body.generateInvoice,
    companyName: company?.name ?? null,
    companyRut: company?.id ?? null,
    companyBusiness: company?.business ?? null,
    companyAddress: company?.address ?? null,
    companyEmail: company?.email ?? null,
  });
  // The sale became paid between the first look and the write: nothing was written.
  if (outcome === 'paid') throw alreadyPaid();
}
