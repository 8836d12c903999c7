import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Rule } from '@travesia/domain/field-errors';
import { errorMessages } from '@travesia/domain/messages';
import { type DocumentKind, detectDocumentKind } from '@travesia/domain/refunds';
import type { FastifyInstance, FastifyReply } from 'fastify';
import sharp from 'sharp';
import { z } from 'zod';
import { ApiError, resourceNotFound } from '#app/errors.ts';
import { typed } from '#app/http.ts';
import { DocumentNotFoundError, type DocumentStore } from '#app/integrations/document-store/index.ts';
import { recordAudit } from '../audit/service.ts';
import { DocumentCheck, DocumentProblem, type DocumentRules } from '../claims/uploads.ts';
import { actorOf, consoleErrors } from '../operators/console-routes.ts';
import { readPlanDetails } from './plan-details.ts';

/**
 * A plan's image and general conditions (issue 25 item 1), uploaded in the console's «Planes»: the request's body is
 * the file itself, streamed into the document store through the claims' DocumentCheck (its kind by its first bytes,
 * its size counted as it arrives, never held whole in memory); an image is then resized from the store by sharp to
 * the sizes the storefront's cards use (docs/content.md). The answer names the paths the draft then points at; the
 * storefront reads them from `/api/plan-images/…` and `/api/plan-conditions/…` (plain, immutable: a new upload is a
 * new name).
 */

export const planFileLimits = { imageBytes: 5 * 1024 * 1024, pdfBytes: 10 * 1024 * 1024 } as const;

/** The sizes the storefront draws a plan's image at, twice for sharp screens (PlanCard 640×280, PreviewPlanCard 280×140). */
export const planImageSizes = {
  large: { width: 1280, height: 560 },
  small: { width: 560, height: 280 },
} as const;

export const planFileMessages = {
  notImage: (name: string) => `«${name}» no es una imagen PNG o JPG.`,
  unreadableImage: (name: string) => `No pudimos leer la imagen «${name}»: súbela de nuevo o elige otra.`,
  notPdf: (name: string) => `«${name}» no es un PDF.`,
  tooLarge: (name: string, bytes: number) => `«${name}» pesa más de ${bytes / 1024 / 1024} MB.`,
  empty: (name: string) => `«${name}» está vacío.`,
  name: 'Indica el nombre del archivo (nombre=…), de hasta 120 caracteres.',
};

function rulesFor(accepted: DocumentKind[], maxBytes: number, wrongKind: (name: string) => string): DocumentRules {
  return {
    maxBytes,
    problem: (name: string, head: Uint8Array): Rule | null => {
      if (head.length === 0) return { code: 'invalid_file_type', message: planFileMessages.empty(name) };
      const kind = detectDocumentKind(head);
      return kind && accepted.includes(kind) ? null : { code: 'invalid_file_type', message: wrongKind(name) };
    },
    tooLarge: (name) => ({ code: 'file_too_large', message: planFileMessages.tooLarge(name, maxBytes) }),
  };
}

export const imageRules = rulesFor(['png', 'jpeg'], planFileLimits.imageBytes, planFileMessages.notImage);
const pdfRules = rulesFor(['pdf'], planFileLimits.pdfBytes, planFileMessages.notPdf);

/** Streams `source` through the check into the store under `key`; a refused file leaves nothing and is a 400 (413). */
export async function streamChecked(
  store: DocumentStore,
  source: Readable,
  name: string,
  rules: DocumentRules,
  key: string,
) {
  const check = new DocumentCheck(name, rules);
  const gone = (error?: Error) => check.destroy(error ?? new Error('The upload ended before its file did'));
  source.once('error', gone);
  source.pipe(check);
  try {
    const kind = await check.kind;
    await store.put(key, check, kind === 'pdf' ? 'application/pdf' : `image/${kind}`);
  } catch (error) {
    if (error instanceof DocumentProblem) {
      source.resume();
      const status = error.rule.code === 'file_too_large' ? 413 : 400;
      throw new ApiError(status, error.rule.message, [{ field: 'archivo', ...error.rule }]);
    }
    throw error;
  } finally {
    source.off('error', gone);
  }
}

/**
 * One size of a stored image, resized (covering its box, or within it: `inside`) and written back to the store as
 * WebP.
 */
export async function storeResized(
  store: DocumentStore,
  original: string,
  key: string,
  size: { width: number; height: number },
  fit: 'cover' | 'inside' = 'cover',
) {
  const resize = sharp({ limitInputPixels: 40_000_000, failOn: 'error' })
    .rotate()
    .resize({ ...size, fit, withoutEnlargement: fit === 'inside' })
    .webp({ quality: 82 });
  (await store.get(original)).pipe(resize);
  await store.put(key, resize, 'image/webp');
}

/** The request's body as the stream an upload route reads (its content type parser hands it over untouched). */
export function uploadBodyOf(body: unknown): Readable {
  if (!body || typeof (body as Readable).pipe !== 'function') {
    throw new ApiError(400, errorMessages.invalidInputs, [
      { field: 'archivo', code: 'required', message: 'Envía el archivo como cuerpo de la solicitud.' },
    ]);
  }
  return body as Readable;
}

const keyParams = z.object({ key: z.string().regex(/^\d{1,9}$/, 'Plan no válido') });
export const nameQuery = z.object({ nombre: z.string().min(1, planFileMessages.name).max(120, planFileMessages.name) });
export const uploadTypes = ['application/octet-stream', 'image/png', 'image/jpeg', 'application/pdf'];

/** The console's uploads (`/api/backoffice/plans/:key/image|conditions`, `content` and admin: guard.ts). */
export async function planFileConsoleRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const tags = ['backoffice'];
  // The file is the body, handed to the route as the request's stream (nothing is read before the route does).
  fastify.addContentTypeParser(uploadTypes, (_request, payload, done) => done(null, payload));

  const planOf = async (key: string) => {
    const plan = await readPlanDetails(fastify.db, key, fastify.config.companyId);
    if (!plan) throw resourceNotFound();
    return plan;
  };

  app.post(
    '/plans/:key/image',
    {
      schema: {
        tags,
        description: `A plan's image: the body is a PNG or JPG of at most ${planFileLimits.imageBytes / 1024 / 1024} MB (checked by its first bytes), resized to the storefront's sizes. Answers the paths a draft points its image at.`,
        params: keyParams,
        querystring: nameQuery,
        response: { 200: z.object({ image: z.object({ large: z.string(), small: z.string() }) }), ...consoleErrors },
      },
    },
    async (request) => {
      const { key } = request.params;
      await planOf(key);
      const store = fastify.documentStore;
      const folder = `plan-images/${randomUUID()}`;
      const original = `${folder}/original`;
      await streamChecked(store, uploadBodyOf(request.body), request.query.nombre, imageRules, original);
      try {
        await Promise.all(
          (['large', 'small'] as const).map((size) =>
            storeResized(store, original, `${folder}/${size}.webp`, planImageSizes[size]),
          ),
        );
      } catch {
        // Its first bytes said PNG or JPG, but sharp cannot decode it (cut, corrupt, too many pixels).
        await Promise.allSettled(
          ['original', 'large.webp', 'small.webp'].map((file) => store.delete(`${folder}/${file}`)),
        );
        const message = planFileMessages.unreadableImage(request.query.nombre);
        throw new ApiError(400, message, [{ field: 'archivo', code: 'invalid_file_type', message }]);
      }
      const image = { large: `/api/${folder}/large.webp`, small: `/api/${folder}/small.webp` };
      await recordAudit(
        fastify.db,
        actorOf(request),
        { action: 'plans.image_uploaded', targetType: 'plan', targetId: key, before: null, after: image },
        fastify.clock(),
      );
      return { image };
    },
  );

  app.post(
    '/plans/:key/conditions',
    {
      schema: {
        tags,
        description: `A plan's general conditions: the body is a PDF of at most ${planFileLimits.pdfBytes / 1024 / 1024} MB (checked by its first bytes). Answers the key a draft points its conditions at, and where the storefront links it.`,
        params: keyParams,
        querystring: nameQuery,
        response: { 200: z.object({ conditionsKey: z.string(), url: z.string() }), ...consoleErrors },
      },
    },
    async (request) => {
      const { key } = request.params;
      await planOf(key);
      const conditionsKey = `plan-conditions/${randomUUID()}.pdf`;
      await streamChecked(
        fastify.documentStore,
        uploadBodyOf(request.body),
        request.query.nombre,
        pdfRules,
        conditionsKey,
      );
      const url = `/api/${conditionsKey}`;
      await recordAudit(
        fastify.db,
        actorOf(request),
        { action: 'plans.conditions_uploaded', targetType: 'plan', targetId: key, before: null, after: { url } },
        fastify.clock(),
      );
      return { conditionsKey, url };
    },
  );
}

/** A stored upload as a plain, immutable answer (names are never reused); a missing one is a 404. */
export async function sendStoredFile(
  store: DocumentStore,
  reply: FastifyReply,
  key: string,
  type: string,
  disposition?: string,
) {
  let body: Readable;
  try {
    body = await store.get(key);
  } catch (error) {
    if (error instanceof DocumentNotFoundError) throw resourceNotFound();
    throw error;
  }
  reply.type(type).header('cache-control', 'public, max-age=31536000, immutable');
  reply.header('x-content-type-options', 'nosniff');
  if (disposition) reply.header('content-disposition', disposition);
  return reply.send(body);
}

/** The storefront's side: a plan's image sizes and its conditions, from the document store (names never reused). */
export async function planFileRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const send = (reply: FastifyReply, key: string, type: string, disposition?: string) =>
    sendStoredFile(fastify.documentStore, reply, key, type, disposition);
  app.get(
    '/plan-images/:id/:size',
    {
      schema: {
        tags: ['plans'],
        description: "Not in spec §7 (issue 25): a plan's uploaded image, in one of the storefront's sizes (WebP).",
        params: z.object({ id: z.uuid(), size: z.enum(['large.webp', 'small.webp']) }),
      },
    },
    (request, reply) => send(reply, `plan-images/${request.params.id}/${request.params.size}`, 'image/webp'),
  );
  app.get(
    '/plan-conditions/:file',
    {
      schema: {
        tags: ['plans'],
        description: "Not in spec §7 (issue 25): a plan's general conditions (PDF).",
        params: z.object({ file: z.string().regex(/^[0-9a-f-]{36}\.pdf$/) }),
      },
    },
    (request, reply) =>
      send(
        reply,
        `plan-conditions/${request.params.file}`,
        'application/pdf',
        'inline; filename="condiciones-generales.pdf"',
      ),
  );
}
