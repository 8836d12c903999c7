import type { FastifyInstance } from 'fastify';
import { errorResponses } from '#app/errors.ts';
import { companyParams, typed } from '#app/http.ts';
import { publicCatalogue } from '#app/lib/http/http-cache.ts';
import { publicBaseUrl } from '#app/lib/security/public-origin.ts';
import { blogListQuerySchema, blogPostListSchema, blogPostParams, blogPostSchema } from './schemas.ts';
import * as blog from './service.ts';

const tags = ['blog'];

export async function blogRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db, config } = fastify;

  app.get(
    '/companies/:companyId/blog-posts',
    {
      config: publicCatalogue,
      schema: {
        tags,
        description:
          'The published blog posts, newest first, a page at a time (page from 1, pageSize up to 50), maybe of one category (its slug; an unknown one is a 404), with the categories that have posts.',
        params: companyParams,
        querystring: blogListQuerySchema,
        response: { 200: blogPostListSchema, ...errorResponses },
      },
    },
    (request) => blog.listPosts(db, request.params.companyId, request.query),
  );

  app.get(
    '/companies/:companyId/blog-posts/:postId',
    {
      schema: {
        tags,
        description:
          'One published post with its stored HTML body and its canonical URL at the configured public origin (PUBLIC_URL). An unknown or unpublished post is a 404.',
        params: blogPostParams,
        response: { 200: blogPostSchema, ...errorResponses },
      },
    },
    (request) => blog.getPost(db, request.params.companyId, request.params.postId, publicBaseUrl(request, config)),
  );
}
