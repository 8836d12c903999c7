import { markdownToHtml } from '@travesia/domain/markdown';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { typed } from '#app/http.ts';
import { consoleErrors } from '../operators/console-routes.ts';
import { blogBodySchema, listBlogCategories } from './blog-kind.ts';

/** «Blog» (issue 25 item 7): the categories a post may take, for the console's form; the posts are the kind `blog`. */
export async function blogConsoleRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  app.get(
    '/blog-categories',
    {
      schema: {
        tags: ['backoffice'],
        description: "The blog's categories (id and name), the choices of a post's category.",
        response: {
          200: z.object({ categories: z.array(z.object({ id: z.number(), label: z.string() })) }),
          ...consoleErrors,
        },
      },
    },
    async () => ({ categories: await listBlogCategories(fastify.db, fastify.config.companyId) }),
  );

  const markdownField = blogBodySchema.shape.posts.element.shape.markdown;
  app.post(
    '/blog-preview',
    {
      schema: {
        tags: ['backoffice'],
        description:
          "A post's Markdown rendered as the store will show it (the same rendering and allow-list as on save); 400 with the field error for a text the blog refuses. Writes nothing.",
        body: z.object({ markdown: markdownField }).strict(),
        response: { 200: z.object({ html: z.string() }), ...consoleErrors },
      },
    },
    async (request) => ({ html: markdownToHtml(request.body.markdown) }),
  );
}
