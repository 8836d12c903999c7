import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { dbId, idParams, typed } from '#app/http.ts';
import { actorOf, consoleErrors } from '../operators/console-routes.ts';
import { messages } from '../operators/service.ts';
import { createAddOn, deactivateAddOn, listAddOnsOfCompany, readAddOn, updateAddOn } from './add-on-console.ts';
import { addOnsCacheScope } from './add-ons.ts';
import { plainTextField } from './plan-details.ts';

const tags = ['backoffice'];

const codeText = z
  .string()
  .max(200)
  .trim()
  .toLowerCase()
  .regex(
    /^[a-z0-9]+(-[a-z0-9]+)*$/,
    'Usa letras sin tilde, números y guiones, sin espacios (por ejemplo deportes-aventura)',
  )
  .max(40, 'A lo más 40 caracteres');

/** Decimal text as typed («2,50», «12.5»): whole part of up to 9 digits, 2 decimals at most; the range is checked after. */
const decimalText = (example: string) =>
  z
    .string()
    .max(20)
    .trim()
    .regex(/^(\d{1,9}([.,]\d{1,2})?)?$/, `Escribe un número como ${example}, con hasta dos decimales`)
    .nullable();

const ids = z.array(dbId).max(200);

/** Every text is plain text (tags and control characters removed on save, like a plan's). */
const editable = z
  .object({
    code: codeText,
    name: plainTextField(80, 'El adicional necesita un nombre'),
    description: plainTextField(300),
    benefits: z
      .array(
        z
          .object({
            label: plainTextField(120, 'Cada beneficio necesita un nombre'),
            value: plainTextField(120, 'Cada beneficio necesita su límite'),
          })
          .strict(),
      )
      .max(20, 'A lo más 20 beneficios'),
    pricing: z.enum(['daily', 'percent']),
    priceUsdPerDay: decimalText('2,50'),
    planPercent: decimalText('30 o 12,5'),
    passengerTypeIds: ids,
    modalityIds: ids,
    destinationIds: ids,
    productIds: ids,
    buyableAfterPurchase: z.boolean(),
    sortOrder: z.number().int().min(0, 'El orden no puede ser negativo').max(10_000, 'El orden es a lo más 10.000'),
    active: z.boolean().optional(),
  })
  .strict();

const addOnView = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  description: z.string(),
  benefits: z.array(z.object({ label: z.string(), value: z.string() })),
  pricing: z.enum(['daily', 'percent']),
  priceUsdPerDay: z.string().nullable().describe('USD per traveller per day as decimal text, e.g. "2.50"'),
  planPercent: z.string().nullable().describe('Percent of the traveller\'s plan net as decimal text, e.g. "30"'),
  priceLabel: z.string().describe('«USD 2,50 por viajero por día», «30 % del plan»'),
  passengerTypeIds: z.array(z.number().int()).describe('Empty: every age band'),
  modalityIds: z.array(z.number().int()).describe('Empty: every modality'),
  destinationIds: z.array(z.number().int()).describe('Empty: every region'),
  productIds: z.array(z.number().int()).describe('Empty: every plan'),
  buyableAfterPurchase: z.boolean(),
  active: z.boolean(),
  sortOrder: z.number().int(),
  priceFixed: z.boolean().describe('The covid upgrade: its code, price and eligibility are not edited here'),
  version: z.number().int(),
  updatedAt: z.string(),
});

const option = z.object({ id: z.number().int(), label: z.string() });

/**
 * «Adicionales» (issue 27 §1): pricing and admin edit, content and finance read (guard.ts). Every change is audited
 * with its before and after; a save from a stale form is a 409 naming what changed. Never deleted: deactivated.
 */
export async function addOnConsoleRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db, config } = fastify;
  const invalid = { invalidInputDetail: messages.invalidInput };

  app.get(
    '/add-ons',
    {
      config: invalid,
      schema: {
        tags,
        description:
          "The company's add-ons in their order, and what their eligibility lists may name: its age bands, modalities, regions and plans.",
        response: {
          200: z.object({
            options: z.object({
              passengerTypes: z.array(option.extend({ ageFrom: z.number().int(), ageTo: z.number().int() })),
              modalities: z.array(option),
              regions: z.array(option),
              plans: z.array(option),
            }),
            addOns: z.array(addOnView),
          }),
          ...consoleErrors,
        },
      },
    },
    () => listAddOnsOfCompany(db, config.companyId),
  );

  app.get(
    '/add-ons/:id',
    {
      config: invalid,
      schema: {
        tags,
        description: 'One add-on of the company (404 for another´s or an unknown one).',
        params: idParams,
        response: { 200: z.object({ addOn: addOnView }), ...consoleErrors },
      },
    },
    async (request) => ({ addOn: await readAddOn(db, config.companyId, request.params.id) }),
  );

  app.post(
    '/add-ons',
    {
      config: invalid,
      schema: {
        tags,
        description:
          'Creates an add-on: exactly one price, of its kind (409 when the company has one with that code; the code `covid` is the covid upgrade´s).',
        body: editable,
        response: { 201: z.object({ addOn: addOnView }), ...consoleErrors },
      },
    },
    async (request, reply) => {
      const created = await createAddOn(db, config.companyId, actorOf(request), request.body, fastify.clock());
      await fastify.invalidateReadCache(addOnsCacheScope);
      return reply.code(201).send({ addOn: created });
    },
  );

  app.put(
    '/add-ons/:id',
    {
      config: invalid,
      schema: {
        tags,
        description:
          'Saves an add-on as the form shows it; `version` is the one the form was loaded with (409, naming what changed, when another save came first). The covid upgrade keeps its code, price and eligibility (400 when the form changes them).',
        params: idParams,
        body: editable.extend({ version: z.number().int().min(1).max(2_147_483_647) }),
        response: { 200: z.object({ addOn: addOnView }), ...consoleErrors },
      },
    },
    async (request) => {
      const addOn = await updateAddOn(
        db,
        config.companyId,
        actorOf(request),
        request.params.id,
        request.body,
        fastify.clock(),
      );
      // Every instance's storefront offers (purchase step, listing) read the add-ons through the read cache.
      await fastify.invalidateReadCache(addOnsCacheScope);
      return { addOn };
    },
  );

  app.post(
    '/add-ons/:id/deactivate',
    {
      config: invalid,
      schema: {
        tags,
        description:
          'Deactivates an add-on: no longer offered from now on; paid purchases keep it. Reactivate by saving it active.',
        params: idParams,
        body: z.object({ version: z.number().int().min(1).max(2_147_483_647) }).strict(),
        response: { 200: z.object({ addOn: addOnView }), ...consoleErrors },
      },
    },
    async (request) => {
      const addOn = await deactivateAddOn(
        db,
        config.companyId,
        actorOf(request),
        request.params.id,
        request.body.version,
        fastify.clock(),
      );
      await fastify.invalidateReadCache(addOnsCacheScope);
      return { addOn };
    },
  );
}
