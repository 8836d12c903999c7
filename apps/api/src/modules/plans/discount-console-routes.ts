import { parseIsoDate } from '@travesia/domain/dates';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { dbId, typed } from '#app/http.ts';
import { actorOf, consoleErrors } from '../operators/console-routes.ts';
import { messages } from '../operators/service.ts';
import {
  createDiscountCode,
  deactivateDiscountCode,
  discountCodeStates,
  listDiscountCodes,
  updateDiscountCode,
} from './discount-console.ts';

const tags = ['backoffice'];

const codeText = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9][A-Z0-9_-]{2,29}$/, 'Usa de 3 a 30 letras sin tilde, números, guion o guion bajo, sin espacios');
const day = z.string().refine((value) => parseIsoDate(value) !== null, {
  message: 'Usa una fecha AAAA-MM-DD',
  params: { code: 'invalid_date' },
});
const limit = z.number().int().min(1, 'Debe ser al menos 1').max(1_000_000).nullable();

const editable = z.object({
  kind: z.enum(['percent', 'amount']),
  percent: z
    .string()
    .trim()
    .regex(/^\d{1,3}([.,]\d{1,2})?$/, 'Escribe un porcentaje como 10 o 12,5')
    .nullish(),
  amountUsd: z
    .string()
    .trim()
    .regex(/^\d{1,6}([.,]\d{1,2})?$/, 'Escribe un monto en dólares como 10 o 12,50')
    .nullish(),
  validFrom: day,
  validTo: day,
  maxUses: limit,
  maxUsesPerBuyer: limit,
  productIds: z.array(dbId).min(1, 'Elige al menos un plan, o todos').max(200).nullable(),
  note: z.string().trim().max(500).optional(),
  active: z.boolean().optional(),
});

const codeView = z.object({
  code: z.string(),
  kind: z.enum(['percent', 'amount']),
  percent: z.string().nullable().describe('Percent as decimal text, e.g. "12.5"'),
  amountUsd: z.string().nullable().describe('USD as decimal text, e.g. "10.00"'),
  label: z.string(),
  validFrom: z.string(),
  validTo: z.string(),
  maxUses: z.number().int().nullable(),
  maxUsesPerBuyer: z.number().int().nullable(),
  productIds: z.array(z.number().int()).nullable(),
  active: z.boolean(),
  note: z.string(),
  version: z.number().int(),
  updatedAt: z.string(),
});

const listed = codeView.extend({
  state: z.enum(discountCodeStates),
  usage: z.object({
    paidSales: z.number().int(),
    reserved: z.number().int().describe('Payments under way holding a use'),
    discountUsdCents: z.number().int(),
    discountClp: z.number().int(),
    revenueUsdCents: z.number().int(),
    revenueClp: z.number().int(),
    formatted: z.object({
      discountUsd: z.string(),
      discountClp: z.string(),
      revenueUsd: z.string(),
      revenueClp: z.string(),
    }),
  }),
});

const codeParams = z.object({ code: codeText });

/**
 * «Códigos de descuento» (issue 25 item 3): pricing and admin edit, finance reads (guard.ts). Every change is audited
 * with its before and after; a save from a stale form is a 409 naming what changed.
 */
export async function discountCodeConsoleRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db, config } = fastify;
  const invalid = { invalidInputDetail: messages.invalidInput };

  app.get(
    '/discount-codes',
    {
      config: invalid,
      schema: {
        tags,
        description:
          "The company's discount codes with their state, paid sales, discount given and revenue (from the paid sales), and the plans a code can name.",
        response: {
          200: z.object({
            today: z.string(),
            plans: z.array(z.object({ id: z.number().int(), label: z.string() })),
            codes: z.array(listed),
          }),
          ...consoleErrors,
        },
      },
    },
    () => listDiscountCodes(db, config.companyId, fastify.clock()),
  );

  app.post(
    '/discount-codes',
    {
      config: invalid,
      schema: {
        tags,
        description: 'Creates a code (409 when the company has one of that name).',
        body: editable.extend({ code: codeText }),
        response: { 201: z.object({ code: codeView }), ...consoleErrors },
      },
    },
    async (request, reply) => {
      const { code, ...input } = request.body;
      const created = await createDiscountCode(db, config.companyId, actorOf(request), code, input, fastify.clock());
      return reply.code(201).send({ code: created });
    },
  );

  app.put(
    '/discount-codes/:code',
    {
      config: invalid,
      schema: {
        tags,
        description:
          'Saves a code as the form shows it; `version` is the one the form was loaded with (409, naming what changed, when another save came first).',
        params: codeParams,
        body: editable.extend({ version: z.number().int().min(1) }),
        response: { 200: z.object({ code: codeView }), ...consoleErrors },
      },
    },
    async (request) => ({
      code: await updateDiscountCode(
        db,
        config.companyId,
        actorOf(request),
        request.params.code,
        request.body,
        fastify.clock(),
      ),
    }),
  );

  app.post(
    '/discount-codes/:code/deactivate',
    {
      config: invalid,
      schema: {
        tags,
        description: 'Deactivates a code: from now on the store refuses it in words. Payments already started keep it.',
        params: codeParams,
        body: z.object({ version: z.number().int().min(1) }),
        response: { 200: z.object({ code: codeView }), ...consoleErrors },
      },
    },
    async (request) => ({
      code: await deactivateDiscountCode(
        db,
        config.companyId,
        actorOf(request),
        request.params.code,
        request.body.version,
        fastify.clock(),
      ),
    }),
  );
}
