import { z } from 'zod';
import { uiMessages } from './messages.ts';

/** Spec: the newsletter e-mail is required, in a valid format, at most 50 characters. */
export const emailMaxLength = 50;

/**
 * Newsletter subscription form. The e-mail is trimmed; missing or blank → `uiMessages.required`;
 * not an e-mail, not a string, or longer than {@link emailMaxLength} → `uiMessages.emailFormat`.
 */
export const newsletterSchema = z.object({
  email: z
    .string({ error: (issue) => (issue.input == null ? uiMessages.required : uiMessages.emailFormat) })
    .trim()
    .min(1, { error: uiMessages.required, abort: true })
    .max(emailMaxLength, { error: uiMessages.emailFormat, abort: true })
    .pipe(z.email({ error: uiMessages.emailFormat })),
});

export type NewsletterInput = z.infer<typeof newsletterSchema>;
