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
 * One article of /blog-interior/{id}/{title}. `bodyHtml` is stored HTML: the storefront sanitises it before it
 * renders it. A post whose `publishedAt` is still ahead is not shown yet (scheduled).
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
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('blog_posts_company_published').on(t.companyId, t.publishedAt)],
);
