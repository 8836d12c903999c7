import { ruleMessages } from '@travesia/domain/rules';
import { z } from 'zod';

/** Google's tokens are a few hundred to about two thousand characters; anything far longer is not one. */
export const reCaptchaTokenMaxLength = 4096;

export const contactFormQuerySchema = z.object({
  reCaptchaToken: z
    .string()
    .min(1)
    .max(reCaptchaTokenMaxLength, { error: ruleMessages.reCaptchaFailed })
    .describe('The token the reCAPTCHA v2 widget gave the browser (g-recaptcha-response); verified once with Google'),
});

export const contactFormSettingsSchema = z
  .object({
    reCaptchaSiteKey: z.string().describe('The public reCAPTCHA v2 site key the browser renders the widget with'),
  })
  .meta({ id: 'ContactFormSettings' });
