import { index, integer, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { companies } from '../company/tables.ts';

/** The tables the blog module owns. Only its repository reads or writes them (references from other tables aside). */

/** A blog category (spec §3: the home's blog categories; the /blog list filters by it). */
export const blogCategories = pgTable(
  'blog_categories',
  {
    id: integer('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    label: text('label').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [unique('blog_categories_company_slug').on(t.companyId, t.slug)],
);

/**
 * One article of /blog-interior/{id}/{title}. `bodyHtml` is stored HTML (the console's Markdown rendered and
 * sanitised on publish: blog-kind.ts); the storefront sanitises it again before it renders it. A post whose
 * `publishedAt` is still ahead is not shown yet (the seed's scheduled ones); a post with none is a draft never
 * published, or one the console retired. `bodyMarkdown` is what the console edits (null for a seeded post: its HTML
 * is the Markdown then, which Markdown allows).
 */
export const blogPosts = pgTable(
  'blog_posts',
  {
    id: integer('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id')
      .notNull()
      .references(() => blogCategories.id, { onDelete: 'restrict' }),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    summary: text('summary').notNull(),
    image: text('image'),
    bodyHtml: text('body_html').notNull(),
    bodyMarkdown: text('body_markdown'),
    /** An absolute https URL the article's page names as canonical instead of its own (a republished article). */
    canonicalUrl: text('canonical_url'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
  },
  (t) => [
    index('blog_posts_company_published').on(t.companyId, t.publishedAt),
    unique('blog_posts_company_slug').on(t.companyId, t.slug),
  ],
);
