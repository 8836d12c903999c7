/**
 * The field limits of spec §9 as plain numbers, apart from the zod rules (rules.ts re-exports them): a page that
 * only shows a limit (the quoter's «hasta 9» passengers) imports this file and ships no validation code.
 */

/** Spec §9: the newsletter e-mail is at most 50 characters; so are all the others (contact form, travellers…). */
export const emailMaxLength = 50;
export const nameMaxLength = 60;
export const documentMaxLength = 20;
/** Spec §5: a DNI, DNI/CE or passport number has at least 5 characters and no whitespace. */
export const documentMinLength = 5;
/** The most passengers a trip can have. */
export const maxPassengers = 9;
export const discountCodeMaxLength = 30;
/** Spec §9: contact form name 100, e-mail 50, phone 20, detail 1000. */
export const contactFormLimits = { fullName: 100, email: emailMaxLength, phone: 20, detail: 1000 } as const;
/** Billing text fields. */
export const billingLimits = { address: 200, streetNumber: 20, apartment: 20, locality: 100, province: 100 } as const;
export const companyLimits = { name: 100, business: 100, address: 200 } as const;
