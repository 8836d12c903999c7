import { randomUUID } from 'node:crypto';
import { slugOf } from '@travesia/domain/slug';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '#app/db/client.ts';
import { ApiError } from '#app/errors.ts';
import { typed } from '#app/http.ts';
import { recordAudit } from '../audit/service.ts';
import { actorOf, consoleErrors } from '../operators/console-routes.ts';
import {
  imageRules,
  nameQuery,
  planFileMessages,
  sendStoredFile,
  storeResized,
  streamChecked,
  uploadBodyOf,
  uploadTypes,
} from '../plans/plan-files.ts';
import { scheduledKeys } from '../publishing/service.ts';
import { blogKindName, blogMessages, renderMarkdown } from './blog-kind.ts';
import * as repository from './repository.ts';

/** The width an uploaded blog image is stored at (twice the article's 640 px column), its height kept in proportion. */
export const blogImageSize = { width: 1280, height: 1280 } as const;

const postStateOf = (publishedAt: Date | null, scheduled: boolean, now: Date): 'published' | 'scheduled' | 'draft' =>
  publishedAt !== null && publishedAt <= now ? 'published' : scheduled || publishedAt !== null ? 'scheduled' : 'draft';

/**
 * The console's «Blog» beyond the publishing model's routes for the kind `blog` (issue 25 item 7): the list of posts
 * with their state, a new post (never published, a draft to edit), the Markdown preview the editor shows as you type,
 * and image uploads (streamed and checked like a plan's image, stored at one width as WebP).
 */
export async function blogConsoleRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const tags = ['backoffice'];
  const db = () => fastify.db as Database;
  const companyId = () => fastify.config.companyId;
  fastify.addContentTypeParser(uploadTypes, (_request, payload, done) => done(null, payload));

  app.get(
    '/blog-posts',
    {
      schema: {
        tags,
        description:
          "Every post with its state: published (shown now), scheduled (shown from a later time) or draft (never shown, or retired), and the company's categories.",
        response: {
          200: z.object({
            posts: z.array(
              z.object({
                id: z.number(),
                title: z.string(),
                slug: z.string(),
                category: z.string(),
                state: z.enum(['published', 'scheduled', 'draft']),
                publishedAt: z.string().nullable(),
              }),
            ),
            categories: z.array(z.object({ id: z.number(), label: z.string() })),
          }),
          ...consoleErrors,
        },
      },
    },
    async () => {
      const [posts, categories, scheduled] = await Promise.all([
        repository.listAllPosts(db(), companyId()),
        repository.listCategoryChoices(db(), companyId()),
        scheduledKeys(db(), blogKindName),
      ]);
      const now = fastify.clock();
      return {
        posts: posts.map((post) => ({
          id: post.id,
          title: post.title,
          slug: post.slug,
          category: post.categoryLabel,
          state: postStateOf(post.publishedAt, scheduled.has(String(post.id)), now),
          publishedAt: post.publishedAt?.toISOString() ?? null,
        })),
        categories,
      };
    },
  );

  app.post(
    '/blog-posts',
    {
      schema: {
        tags,
        description:
          'A new post, not shown: its title and category (the slug is made from the title, numbered if taken). Edit it as the kind `blog`, key its id, and publish it.',
        body: z.object({
          title: z.string().trim().min(1, 'Escribe el título').max(160, 'Máximo 160 caracteres'),
          categoryId: z.number({ error: blogMessages.category }).int().positive().max(2_147_483_647),
        }),
        response: { 200: z.object({ id: z.number(), slug: z.string() }), ...consoleErrors },
      },
    },
    async (request) => {
      const { title, categoryId } = request.body;
      if (!(await repository.categoryExists(db(), companyId(), categoryId))) {
        throw new ApiError(400, blogMessages.category, [
          { field: 'categoryId', code: 'invalid', message: blogMessages.category },
        ]);
      }
      const base = slugOf(title) || 'articulo';
      return db().transaction(async (txn) => {
        const tx = txn as unknown as Database;
        let slug = base;
        for (let n = 2; await repository.slugTaken(tx, companyId(), slug, null); n += 1) slug = `${base}-${n}`;
        const id = await repository.insertDraftPost(tx, companyId(), { categoryId, slug, title });
        await recordAudit(
          tx,
          actorOf(request),
          {
            action: 'blog.post_created',
            targetType: blogKindName,
            targetId: String(id),
            before: null,
            after: { title, slug, categoryId },
          },
          fastify.clock(),
        );
        return { id, slug };
      });
    },
  );

  app.post(
    '/blog-markdown',
    {
      schema: {
        tags,
        description: "The editor's live preview: Markdown rendered and sanitised as publishing will (nothing stored).",
        body: z.object({ markdown: z.string().max(100_000) }),
        response: { 200: z.object({ html: z.string() }), ...consoleErrors },
      },
    },
    async (request) => ({ html: renderMarkdown(request.body.markdown) }),
  );

  app.post(
    '/blog-images',
    {
      schema: {
        tags,
        description:
          'An image for a post (cover or in its text): the body is a PNG or JPG of at most 5 MB (checked by its first bytes), stored as WebP at most 1280 px wide. Answers its path and a Markdown line to paste.',
        querystring: nameQuery,
        response: { 200: z.object({ url: z.string(), markdown: z.string() }), ...consoleErrors },
      },
    },
    async (request) => {
      const store = fastify.documentStore;
      const folder = `blog-images/${randomUUID()}`;
      const original = `${folder}/original`;
      await streamChecked(store, uploadBodyOf(request.body), request.query.nombre, imageRules, original);
      try {
        await storeResized(store, original, `${folder}/large.webp`, blogImageSize, 'inside');
      } catch {
        await Promise.allSettled(['original', 'large.webp'].map((file) => store.delete(`${folder}/${file}`)));
        const message = planFileMessages.unreadableImage(request.query.nombre);
        throw new ApiError(400, message, [{ field: 'archivo', code: 'invalid_file_type', message }]);
      }
      const url = `/api/${folder}/large.webp`;
      await recordAudit(
        db(),
        actorOf(request),
        { action: 'blog.image_uploaded', targetType: blogKindName, targetId: 'imagenes', before: null, after: { url } },
        fastify.clock(),
      );
      const alt = request.query.nombre.replace(/\.[a-z0-9]+$/i, '').replace(/[[\]]/g, '');
      return { url, markdown: `![${alt}](${url})` };
    },
  );
}

/** The storefront's side: an uploaded blog image (WebP, immutable: a new upload is a new name). */
export async function blogImageRoutes(fastify: FastifyInstance) {
  typed(fastify).get(
    '/blog-images/:id/:size',
    {
      schema: {
        tags: ['blog'],
        description: 'Not in spec §7 (issue 25): an image uploaded for a blog post in the console (WebP).',
        params: z.object({ id: z.uuid(), size: z.literal('large.webp') }),
      },
    },
    (request, reply) =>
      sendStoredFile(fastify.documentStore, reply, `blog-images/${request.params.id}/large.webp`, 'image/webp'),
  );
}
