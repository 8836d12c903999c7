import type { Database } from '#app/db/client.ts';
import { resourceNotFound } from '#app/errors.ts';
import { type BlogPostBody, renderMarkdown } from './blog-kind.ts';
import * as repository from './repository.ts';
import type { BlogPostSummary } from './schemas.ts';

export type { BlogSeed } from './repository.ts';

type SummaryRow = Awaited<ReturnType<typeof repository.listPublishedPosts>>[number];

const summaryOf = (row: SummaryRow): BlogPostSummary => ({
  id: row.id,
  slug: row.slug,
  title: row.title,
  summary: row.summary,
  image: row.image,
  category: { id: row.categoryId, slug: row.categorySlug, label: row.categoryLabel },
  // Listed rows are published (by `now`): their date is never null.
  publishedAt: (row.publishedAt ?? new Date(0)).toISOString(),
});

/**
 * One page of the published posts, newest first, maybe of one category (its slug), with the categories that have
 * posts. An unknown category is a missing resource; a page past the last one is an empty page.
 */
export async function listPosts(
  db: Database,
  companyId: number,
  query: { category?: string | undefined; page: number; pageSize: number },
  now = new Date(),
) {
  const categories = (await repository.listCategories(db, companyId, now)).filter((c) => c.postCount > 0);
  let categoryId: number | null = null;
  let total = categories.reduce((sum, c) => sum + c.postCount, 0);
  if (query.category !== undefined) {
    const category = categories.find((c) => c.slug === query.category);
    if (!category) throw resourceNotFound();
    categoryId = category.id;
    total = category.postCount;
  }
  const rows =
    total === 0
      ? []
      : await repository.listPublishedPosts(db, {
          companyId,
          categoryId,
          now,
          limit: query.pageSize,
          offset: (query.page - 1) * query.pageSize,
        });
  return {
    categories,
    category: query.category ?? null,
    posts: rows.map(summaryOf),
    page: query.page,
    pageSize: query.pageSize,
    total,
    totalPages: Math.ceil(total / query.pageSize),
  };
}

/** A published post with its body; unknown, another company's or not yet published: a missing resource. */
export async function getPost(db: Database, companyId: number, postId: number, origin: string, now = new Date()) {
  const row = await repository.findPublishedPost(db, companyId, postId, now);
  if (!row) throw resourceNotFound();
  return {
    ...summaryOf(row),
    bodyHtml: row.bodyHtml,
    canonicalUrl: row.canonicalUrl ?? `${origin}/blog-interior/${row.id}/${row.slug}`,
  };
}

/**
 * A post as a console preview link shows it (issue 25): its saved draft, rendered and sanitised like publishing
 * does, dated as it is (or now, if it was never shown).
 */
export async function previewPost(
  db: Database,
  companyId: number,
  postId: number,
  draft: BlogPostBody,
  origin: string,
  now = new Date(),
) {
  const [row, category] = await Promise.all([
    repository.findPost(db, companyId, postId),
    repository.findCategory(db, companyId, draft.categoryId),
  ]);
  if (!row || !category) throw resourceNotFound();
  return {
    id: row.id,
    slug: draft.slug,
    title: draft.title,
    summary: draft.summary,
    image: draft.image,
    category,
    publishedAt: (row.publishedAt ?? now).toISOString(),
    bodyHtml: renderMarkdown(draft.markdown),
    canonicalUrl: draft.canonicalUrl ?? `${origin}/blog-interior/${row.id}/${draft.slug}`,
  };
}

/** Writes a company's blog, inside the caller's transaction (the seed). */
export const seedBlog = repository.insertBlog;
