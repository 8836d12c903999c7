import { z } from 'zod';

export const blogCategorySchema = z
  .object({
    id: z.number().int(),
    slug: z.string().describe('What /blog?categoria= carries'),
    label: z.string(),
    postCount: z.number().int().describe('Published posts in this category'),
  })
  .meta({ id: 'BlogCategory' });

const postCategorySchema = z.object({ id: z.number().int(), slug: z.string(), label: z.string() });

export const blogPostSummarySchema = z
  .object({
    id: z.number().int(),
    slug: z.string().describe('The title as /blog-interior/{id}/{title} carries it'),
    title: z.string(),
    summary: z.string().describe('One or two sentences; the article page uses it as its description'),
    image: z.string().nullable().describe('Path of a local image, or null'),
    category: postCategorySchema,
    publishedAt: z.string().describe('ISO 8601 date and time of publication'),
  })
  .meta({ id: 'BlogPostSummary' });

export const blogPostListSchema = z
  .object({
    categories: z.array(blogCategorySchema).describe('Every category with published posts, in the company order'),
    category: z.string().nullable().describe('The category slug the list is filtered by, or null'),
    posts: z.array(blogPostSummarySchema).describe('Newest first'),
    page: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int().describe('Posts matching the filter, all pages'),
    totalPages: z.number().int(),
  })
  .meta({ id: 'BlogPostList' });

export const blogPostSchema = blogPostSummarySchema
  .extend({
    bodyHtml: z.string().describe('Stored HTML of the article: sanitise before rendering'),
    canonicalUrl: z.string().describe("Absolute URL of the article's page at the store's configured public origin"),
  })
  .meta({ id: 'BlogPost' });

export const blogListQuerySchema = z.object({
  category: z.string().min(1).max(100).optional().describe('A category slug'),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(9),
});

export const blogPostParams = z.object({
  companyId: z.coerce.number().int().positive(),
  postId: z.coerce.number().int().positive(),
});

export type BlogPostSummary = z.infer<typeof blogPostSummarySchema>;
