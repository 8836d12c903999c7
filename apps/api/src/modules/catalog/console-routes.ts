import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '#app/db/client.ts';
import { ApiError, errorBodySchema } from '#app/errors.ts';
import { typed } from '#app/http.ts';
import { ExchangeRateSourceError } from '#app/integrations/exchange-rates/index.ts';
import { recordAudit } from '../audit/service.ts';
import { actorOf, consoleErrors, consolePageSize } from '../operators/console-routes.ts';
import {
  currentExchangeRate,
  exchangeRateCacheScope,
  exchangeRateHistory,
  fetchExchangeRate,
  jumpOf,
  maxUnconfirmedJump,
  recordManualRate,
} from './exchange-rates.ts';
import type { ExchangeRateRow } from './repository.ts';
import { listModalities } from './service.ts';
import type { ExchangeRateSource } from './tables.ts';

/** How each origin of a rate is named on the console. */
export const rateSourceLabels: Record<ExchangeRateSource, string> = {
  seed: 'Carga inicial',
  manual: 'Ingresado a mano',
  bcch: 'Banco Central de Chile',
  mindicador: 'mindicador.cl',
};

const rateSchema = z.object({
  id: z.number(),
  clpPerUsd: z.string().describe('Pesos per US dollar, a decimal with 4 places'),
  source: z.enum(['seed', 'manual', 'bcch', 'mindicador']),
  sourceLabel: z.string(),
  day: z.string().nullable().describe('The Chile date the rate is of (published day, or the day entered by hand)'),
  validFrom: z.string(),
  reason: z.string().nullable(),
  createdBy: z.string().nullable(),
});

const view = (row: ExchangeRateRow) => ({
  id: row.id,
  clpPerUsd: row.rate,
  source: row.source,
  sourceLabel: rateSourceLabels[row.source],
  day: row.observedOn,
  validFrom: row.validFrom.toISOString(),
  reason: row.reason,
  createdBy: row.createdBy,
});

/** What the audit trail keeps of a rate. */
const audited = (row: ExchangeRateRow | undefined) =>
  row ? { id: row.id, clpPerUsd: row.rate, source: row.source, day: row.observedOn } : null;

const invalidInput = 'Revisa el tipo de cambio ingresado.';
const rateMessage = 'Escribe el valor del dólar en pesos, mayor que 0 y con hasta 4 decimales (por ejemplo 945,32).';
const percent = (fraction: number) => `${(fraction * 100).toFixed(1).replace('.', ',')} %`;

/** A rate as typed by a person: a comma or a dot before the decimals, no thousands separator. */
const typedRate = z
  .string(rateMessage)
  .trim()
  .min(1, rateMessage)
  .transform((value) => value.replace(',', '.'))
  .refine((value) => /^\d{1,6}(\.\d{1,4})?$/.test(value) && Number(value) > 0, rateMessage)
  .transform((value) => Number(value).toFixed(4));

/**
 * «Tipo de cambio» (issue 25, item 4): the USD→CLP rate in force with its source and day, its history (keyset
 * pages), a rate entered by hand with a reason, and «Actualizar ahora», which runs the worker's fetch at once when a
 * source is configured (EXCHANGE_RATE_SOURCE). Each new rate writes one audit row with the before and after, and
 * clears the read cache on every instance, so the storefront's prices in pesos follow at once.
 */
export async function exchangeRateConsoleRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db, config } = fastify;
  const source = fastify.integrations.exchangeRateSource;

  app.get(
    '/exchange-rates',
    {
      config: { invalidInputDetail: invalidInput },
      schema: {
        tags: ['backoffice'],
        description: `The rate in force, the configured source (null: rates are entered by hand only) and the history, newest first, ${consolePageSize} a page; \`before\` is the previous page's \`nextBefore\`.`,
        querystring: z.object({ before: z.coerce.number().int().positive().max(2_147_483_647).optional() }),
        response: {
          200: z.object({
            current: rateSchema.nullable(),
            source: z.object({ id: z.string(), label: z.string() }).nullable(),
            maxJumpPercent: z.number(),
            history: z.array(rateSchema),
            nextBefore: z.number().nullable(),
          }),
          ...consoleErrors,
        },
      },
    },
    async (request) => {
      const [current, rows] = await Promise.all([
        currentExchangeRate(db, config.companyId, fastify.clock()),
        exchangeRateHistory(db, config.companyId, consolePageSize + 1, request.query.before),
      ]);
      const page = rows.slice(0, consolePageSize);
      return {
        current: current ? view(current) : null,
        source: source ? { id: source.id, label: source.label } : null,
        maxJumpPercent: maxUnconfirmedJump * 100,
        history: page.map(view),
        nextBefore: rows.length > consolePageSize ? (page.at(-1)?.id ?? null) : null,
      };
    },
  );

  app.post(
    '/exchange-rates',
    {
      config: { invalidInputDetail: invalidInput },
      schema: {
        tags: ['backoffice'],
        description: `Records a rate entered by hand, in force at once, with the reason (audited). A rate that moves more than ${maxUnconfirmedJump * 100} % from the one in force is refused (400 \`rate_jump\`) unless \`confirmJump\` is true.`,
        body: z.object({
          clpPerUsd: typedRate,
          reason: z
            .string('Escribe por qué cambias el tipo de cambio.')
            .trim()
            .min(3, 'Escribe por qué cambias el tipo de cambio (al menos 3 caracteres).')
            .max(300, 'El motivo tiene como máximo 300 caracteres.'),
          confirmJump: z.boolean('Indica si confirmas el cambio grande.').default(false),
        }),
        response: { 201: z.object({ rate: rateSchema }), ...consoleErrors },
      },
    },
    async (request, reply) => {
      const now = fastify.clock();
      const actor = actorOf(request);
      const { clpPerUsd, reason, confirmJump } = request.body;
      const row = await db.transaction(async (txn) => {
        const tx = txn as unknown as Database;
        const before = await currentExchangeRate(tx, config.companyId, now);
        const jump = jumpOf(before?.rate, clpPerUsd);
        if (before && jump > maxUnconfirmedJump && !confirmJump) {
          const message = `El nuevo valor cambia ${percent(jump)} respecto del vigente (${before.rate.replace('.', ',')}): revísalo y confirma el cambio si es correcto.`;
          throw new ApiError(400, message, [{ field: 'clpPerUsd', code: 'rate_jump', message }]);
        }
        const after = await recordManualRate(tx, config.companyId, { clpPerUsd, reason, by: actor.label }, now);
        await recordAudit(
          tx,
          actor,
          {
            action: 'exchange_rate.manual',
            targetType: 'exchange_rate',
            targetId: String(after.id),
            before: audited(before),
            after: { ...audited(after), reason },
          },
          now,
        );
        return after;
      });
      await fastify.invalidateReadCache(exchangeRateCacheScope);
      request.log.info({ exchangeRateId: row.id }, 'exchange rate entered by hand');
      reply.code(201);
      return { rate: view(row) };
    },
  );

  app.post(
    '/exchange-rates/fetch',
    {
      schema: {
        tags: ['backoffice'],
        description:
          '«Actualizar ahora»: asks the configured source for the newest published rate and records it if it is of a newer day than the one in force (audited). `outcome` `unchanged`: nothing newer (a weekend, a holiday); `rejected`: it moves more than the allowed jump (enter it by hand to confirm). 409 without a configured source; 503 when the source does not answer or refuses the credentials.',
        response: {
          200: z.object({
            outcome: z.enum(['recorded', 'unchanged', 'rejected']),
            message: z.string(),
            rate: rateSchema.nullable(),
          }),
          ...consoleErrors,
          503: errorBodySchema,
        },
      },
    },
    async (request) => {
      if (!source) {
        const message =
          'No hay una fuente de tipo de cambio configurada (EXCHANGE_RATE_SOURCE=manual): ingrésalo a mano.';
        throw new ApiError(409, message, [{ field: 'source', code: 'not_available', message }]);
      }
      const now = fastify.clock();
      const actor = actorOf(request);
      let outcomes: Awaited<ReturnType<typeof fetchExchangeRate>>;
      try {
        outcomes = await fetchExchangeRate(db, source, now, {
          companyIds: [config.companyId],
          onRecorded: (tx, before, rate) =>
            recordAudit(
              tx,
              actor,
              {
                action: 'exchange_rate.fetch',
                targetType: 'exchange_rate',
                targetId: String(rate.id),
                before: audited(before),
                after: audited(rate),
              },
              now,
            ),
        });
      } catch (error) {
        if (!(error instanceof ExchangeRateSourceError)) throw error;
        request.log.warn({ source: error.source, reason: error.reason }, 'exchange rate fetch failed');
        const message = `${source.label} no respondió o no entregó un valor (${error.reason}). No se cambió nada; intenta más tarde o ingrésalo a mano.`;
        throw new ApiError(503, message, [{ field: 'source', code: 'source_unavailable', message }]);
      }
      const [outcome] = outcomes;
      if (outcome?.outcome === 'recorded') {
        await fastify.invalidateReadCache(exchangeRateCacheScope);
        return {
          outcome: 'recorded' as const,
          message: `Se registró el dólar observado del ${outcome.rate.observedOn}: ${outcome.rate.rate.replace('.', ',')} pesos.`,
          rate: view(outcome.rate),
        };
      }
      if (outcome?.outcome === 'rejected') {
        return {
          outcome: 'rejected' as const,
          message: `${source.label} publicó ${outcome.published.clpPerUsd.replace('.', ',')} para el ${outcome.published.day}, un cambio de ${percent(outcome.jump)} respecto del vigente: no se aplicó. Si es correcto, ingrésalo a mano y confírmalo.`,
          rate: null,
        };
      }
      return {
        outcome: 'unchanged' as const,
        message: `${source.label} no tiene un valor más reciente que el vigente (fin de semana, feriado o ya registrado).`,
        rate: null,
      };
    },
  );
}

/** «Geografía» (issue 25, item 5): the modalities a region can be sold for, named, for the console's form. */
export async function geographyConsoleRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  app.get(
    '/geography-modalities',
    {
      schema: {
        tags: ['backoffice'],
        description: "The company's modalities (id and name), the choices of a region's «se vende en».",
        response: {
          200: z.object({ modalities: z.array(z.object({ id: z.number(), label: z.string() })) }),
          ...consoleErrors,
        },
      },
    },
    async () => ({
      modalities: (await listModalities(fastify.db, fastify.config.companyId)).map(({ id, label }) => ({ id, label })),
    }),
  );
}
