import type { FastifyInstance } from 'fastify';
import { ApiError, errorBodySchema, errorResponses } from '#app/errors.ts';
import { companyParams, typed } from '#app/http.ts';
import { publicCatalogue } from '#app/lib/http/http-cache.ts';
import { publicBaseUrl } from '#app/lib/security/public-origin.ts';
import { previewHeaderSchema, previewMessages, previewTokenOf } from '../publishing/preview.ts';
import type { BlogPostBody } from './blog-kind.ts';
import { blogListQuerySchema, blogPostListSchema, blogPostParams, blogPostSchema } from './schemas.ts';
import * as blog from './service.ts';

const tags = ['blog'];

/** A console preview link's draft of a post (app.ts: the publishing model checks the token against the post). */
export type BlogRoutesOptions = { previewPost?: (token: string, postId: number) => Promise<BlogPostBody> };

const refusePreview = async (): Promise<never> => {
  throw new ApiError(403, previewMessages.invalid);
};

export async function blogRoutes(fastify: FastifyInstance, options: BlogRoutesOptions) {
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
          'One published post with its stored HTML body and its canonical URL (its own, or the one the console set: absolute https). An unknown or unpublished post is a 404. With a preview token for the post (x-vista-previa), its draft, never kept nor indexed (403 for a token of anything else).',
        params: blogPostParams,
        headers: previewHeaderSchema,
        response: { 200: blogPostSchema, ...errorResponses, 403: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { companyId, postId } = request.params;
      const origin = publicBaseUrl(request, config);
      const token = previewTokenOf(request, reply);
      if (token === undefined) return blog.getPost(db, companyId, postId, origin);
      const draft = await (options.previewPost ?? refusePreview)(token, postId);
      return blog.previewPost(db, companyId, postId, draft, origin);
    },
  );
}
