/**
 * A quotation's status, one list for the column, the API schema and the code (docs/decisions/010-one-owner-of-paid.md).
 *
 * The column stores only how far the visitor got before paying. Whether the quotation is paid is not stored with
 * it: the payments module's sale is the one owner of «paid», and the public status reads 'paid' exactly when the
 * sale is paid (read in the same statement as the quotation).
 */
export const quotationProgress = ['quoted', 'plan-selected', 'payment-started'] as const;

/** What GET /quotations/{companyId}/{quotationId} answers as `status`. */
export const quotationStatuses = [...quotationProgress, 'paid'] as const;
export type QuotationStatus = (typeof quotationStatuses)[number];
