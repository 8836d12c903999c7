import { errorMessages } from '@travesia/domain/messages';
import { contactFormSchema } from '@travesia/domain/rules';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorBody, errorBodySchema, errorResponses } from '#app/errors.ts';
import { companyParams, typed } from '#app/http.ts';
import { CaptchaUnavailableError } from '#app/integrations/captcha/recaptcha.ts';
import { publicCatalogue } from '#app/lib/http/http-cache.ts';
import { contactFormQuerySchema, contactFormSettingsSchema } from './schemas.ts';
import { submitContactForm } from './service.ts';

const tags = ['contact'];
/** Seconds a client should wait before trying again when Google's siteverify did not answer. */
const retryAfterSeconds = 5;

export async function contactRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = fastify;

  app.get(
    '/companies/:companyId/contact-forms/settings',
    {
      config: publicCatalogue,
      schema: {
        tags,
        description: 'What the browser needs to show the contact form: the public reCAPTCHA v2 site key',
        params: companyParams,
        response: { 200: contactFormSettingsSchema, ...errorResponses },
      },
    },
    () => ({ reCaptchaSiteKey: fastify.integrations.captcha.siteKey }),
  );

  app.post(
    '/companies/:companyId/contact-forms',
    {
      config: {
        invalidInputDetail: errorMessages.invalidInputParameters,
        rateLimit: fastify.config.rateLimits.formSubmit,
      },
      schema: {
        tags,
        description:
          "The contact form (spec §3, §5): stored and e-mailed to the company's contact address with the visitor as Reply-To. The reCAPTCHA token is verified with Google's siteverify after the body is checked: a refused token is a 400 on `reCaptchaToken` (code captcha_failed); siteverify unreachable is a 503 and nothing is stored.",
        params: companyParams,
        querystring: contactFormQuerySchema,
        body: contactFormSchema,
        response: {
          204: z.null().describe('Received'),
          ...errorResponses,
          429: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const { companyId } = request.params;
      let requestId: number;
      try {
        requestId = await submitContactForm(
          {
            db,
            captcha: fastify.integrations.captcha,
            mailer: fastify.mailer,
            contactFormTo: fastify.config.contactFormTo,
          },
          { companyId, form: request.body, token: request.query.reCaptchaToken, remoteIp: request.ip },
        );
      } catch (error) {
        if (!(error instanceof CaptchaUnavailableError)) throw error;
        request.log.warn({ companyId, reason: error.reason }, 'reCAPTCHA verification unavailable');
        return reply
          .code(503)
          .header('retry-after', String(retryAfterSeconds))
          .send(errorBody(503, errorMessages.unexpected, request.url.split('?')[0] ?? '/'));
      }
      request.log.info({ companyId, requestId }, 'contact request stored');
      fastify.work.emit('jobQueued');
      return reply.code(204).send(null);
    },
  );
}
