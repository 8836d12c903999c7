import { checkField, contactFormSchema, ruleMessages } from '@travesia/domain/rules';
import { z } from 'zod';

/** The contact form as its inputs hold it (text; the subject select's value is the id as text). */
export type ContactValues = { fullName: string; email: string; phone: string; idSubject: string; detail: string };

export const contactFieldNames = ['fullName', 'email', 'phone', 'idSubject', 'detail'] as const;

export const emptyContactValues: ContactValues = { fullName: '', email: '', phone: '', idSubject: '', detail: '' };

/** The subject id as the API takes it: a number when the select holds one, else left out (→ «Seleccione un asunto»). */
export function subjectIdOf(value: string): number | undefined {
  return /^[0-9]{1,10}$/.test(value) ? Number(value) : undefined;
}

const rules = contactFormSchema.shape;

/**
 * The rules of spec §5 the browser checks before anything is sent: the API's own field schemas
 * (packages/domain/src/rules.ts), applied to the form's text values.
 */
export const contactSchema = z
  .object({
    fullName: z.string(),
    email: z.string(),
    phone: z.string(),
    idSubject: z.string(),
    detail: z.string(),
  })
  .superRefine((values, ctx) => {
    checkField(ctx, ['fullName'], rules.fullName, values.fullName);
    checkField(ctx, ['email'], rules.email, values.email);
    checkField(ctx, ['phone'], rules.phone, values.phone);
    checkField(ctx, ['idSubject'], rules.idSubject, subjectIdOf(values.idSubject));
    checkField(ctx, ['detail'], rules.detail, values.detail);
  });

/** The checked form as the API's body (spec §3 contact form payload). */
export function toContactBody(values: ContactValues) {
  return {
    fullName: values.fullName.trim(),
    email: values.email.trim(),
    phone: values.phone.trim(),
    idSubject: subjectIdOf(values.idSubject) as number,
    detail: values.detail.trim(),
  };
}

/** What the form says when the token is missing (the API's own message is the §8 English one). */
export const reCaptchaRequiredMessage = ruleMessages.reCaptchaRequired;
