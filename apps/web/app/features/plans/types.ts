import type { components } from '#app/lib/api-schema.d.ts';

export type ComparatorPlan = components['schemas']['ComparatorPlan'];
export type PreviewPlan = components['schemas']['PreviewPlan'];
export type Quotation = components['schemas']['Quotation'];
export type QuotationBody = components['schemas']['QuotationBody'];
export type FieldError = components['schemas']['ErrorBody']['errors'][number];
