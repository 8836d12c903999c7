import type { components } from '#app/lib/api-schema.d.ts';
import type { FieldError, Quotation, QuotationBody } from '#app/lib/quotation.ts';

export type { FieldError, Quotation, QuotationBody };

export type ComparatorPlan = components['schemas']['ComparatorPlan'];
export type PreviewPlan = components['schemas']['PreviewPlan'];
export type PlanAddOn = components['schemas']['PlanAddOn'];
