import { and, asc, count, desc, eq, isNull, lte, ne, sql } from 'drizzle-orm';
import { type Database, maxIntegerId } from '#app/db/client.ts';
import { blogCategories, blogPosts } from './tables.ts';

/** The company's categories, each with how many posts are published by `now`. */
export function listCategories(db: Database, companyId: number, now: Date) {
  return db
    .select({
      id: blogCategories.id,
      slug: blogCategories.slug,
      label: blogCategories.label,
      postCount: count(blogPosts.id),
    })
    .from(blogCategories)
    .leftJoin(blogPosts, and(eq(blogPosts.categoryId, blogCategories.id), lte(blogPosts.publishedAt, now)))
    .where(eq(blogCategories.companyId, companyId))
    .groupBy(blogCategories.id)
    .orderBy(asc(blogCategories.sortOrder), asc(blogCategories.id));
}

const summaryColumns = {
  id: blogPosts.id,
  slug: blogPosts.slug,
  title: blogPosts.title,
  summary: blogPosts.summary,
  image: blogPosts.image,
  publishedAt: blogPosts.publishedAt,
  categoryId: blogCategories.id,
  categorySlug: blogCategories.slug,
  categoryLabel: blogCategories.label,
};

/** One page of published posts, newest first, maybe of one category. */
export function listPublishedPosts(
  db: Database,
  options: { companyId: number; categoryId: number | null; now: Date; limit: number; offset: number },
) {
  const published = and(
    eq(blogPosts.companyId, options.companyId),
    lte(blogPosts.publishedAt, options.now),
    options.categoryId === null ? undefined : eq(blogPosts.categoryId, options.categoryId),
  );
  return db
    .select(summaryColumns)
    .from(blogPosts)
    .innerJoin(blogCategories, eq(blogCategories.id, blogPosts.categoryId))
    .where(published)
    .orderBy(desc(blogPosts.publishedAt), desc(blogPosts.id))
    .limit(options.limit)
    .offset(options.offset);
}

/** A post's category as the storefront names it. */
export async function findCategory(db: Database, companyId: number, categoryId: number) {
  const [row] = await db
    .select({ id: blogCategories.id, slug: blogCategories.slug, label: blogCategories.label })
    .from(blogCategories)
    .where(and(eq(blogCategories.id, categoryId), eq(blogCategories.companyId, companyId)));
  return row;
}

/** A post published by `now`, with its body. */
export async function findPublishedPost(db: Database, companyId: number, postId: number, now: Date) {
  if (postId > maxIntegerId) return undefined;
  const [row] = await db
    .select({ ...summaryColumns, bodyHtml: blogPosts.bodyHtml, canonicalUrl: blogPosts.canonicalUrl })
    .from(blogPosts)
    .innerJoin(blogCategories, eq(blogCategories.id, blogPosts.categoryId))
    .where(and(eq(blogPosts.id, postId), eq(blogPosts.companyId, companyId), lte(blogPosts.publishedAt, now)));
  return row;
}

export type BlogSeed = {
  categories: { id: number; slug: string; label: string }[];
  posts: {
    id: number;
    categoryId: number;
    slug: string;
    title: string;
    summary: string;
    image: string | null;
    bodyHtml: string;
    publishedAt: string;
  }[];
};

/** Writes a company's blog (the seed), inside the caller's transaction. */
export async function insertBlog(db: Database, companyId: number, blog: BlogSeed) {
  if (blog.categories.length > 0) {
    await db
      .insert(blogCategories)
      .values(blog.categories.map((category, sortOrder) => ({ ...category, companyId, sortOrder })));
  }
  if (blog.posts.length > 0) {
    await db
      .insert(blogPosts)
      .values(blog.posts.map((post) => ({ ...post, companyId, publishedAt: new Date(post.publishedAt) })));
  }
}

/** A post as the console edits it (any state), or undefined. */
export async function findPost(db: Database, companyId: number, postId: number) {
  if (postId > maxIntegerId) return undefined;
  const [row] = await db
    .select()
    .from(blogPosts)
    .where(and(eq(blogPosts.id, postId), eq(blogPosts.companyId, companyId)));
  return row;
}

/** Every post of the company for the console's list, newest first (never published last). */
export function listAllPosts(db: Database, companyId: number) {
  return db
    .select({
      id: blogPosts.id,
      slug: blogPosts.slug,
      title: blogPosts.title,
      publishedAt: blogPosts.publishedAt,
      categoryLabel: blogCategories.label,
    })
    .from(blogPosts)
    .innerJoin(blogCategories, eq(blogCategories.id, blogPosts.categoryId))
    .where(eq(blogPosts.companyId, companyId))
    .orderBy(sql`${blogPosts.publishedAt} desc nulls first`, desc(blogPosts.id));
}

/** The company's categories for the console's form. */
export function listCategoryChoices(db: Database, companyId: number) {
  return db
    .select({ id: blogCategories.id, label: blogCategories.label })
    .from(blogCategories)
    .where(eq(blogCategories.companyId, companyId))
    .orderBy(asc(blogCategories.sortOrder), asc(blogCategories.id));
}

/** Whether another post of the company already has `slug`. */
export async function slugTaken(db: Database, companyId: number, slug: string, exceptId: number | null) {
  const [row] = await db
    .select({ id: blogPosts.id })
    .from(blogPosts)
    .where(
      and(
        eq(blogPosts.companyId, companyId),
        eq(blogPosts.slug, slug),
        exceptId === null ? undefined : ne(blogPosts.id, exceptId),
      ),
    );
  return row !== undefined;
}

/** Whether `categoryId` is one of the company's categories. */
export async function categoryExists(db: Database, companyId: number, categoryId: number) {
  if (categoryId > maxIntegerId) return false;
  const [row] = await db
    .select({ id: blogCategories.id })
    .from(blogCategories)
    .where(and(eq(blogCategories.id, categoryId), eq(blogCategories.companyId, companyId)));
  return row !== undefined;
}

/** A new, never published post (the console's «Nuevo artículo»): its id, one past the largest. */
export async function insertDraftPost(
  tx: Database,
  companyId: number,
  post: { categoryId: number; slug: string; title: string },
) {
  // Two «Nuevo artículo» at once take one id after the other.
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('blog_posts.id'))`);
  const [{ next } = { next: 1 }] = await tx
    .select({ next: sql<number>`coalesce(max(${blogPosts.id}), 0) + 1`.mapWith(Number) })
    .from(blogPosts);
  await tx.insert(blogPosts).values({ ...post, id: next, companyId, summary: '', bodyHtml: '', publishedAt: null });
  return next;
}

/** Writes a post's edited fields (the publishing transaction's `apply`). */
export async function updatePost(
  tx: Database,
  companyId: number,
  postId: number,
  fields: Partial<Omit<typeof blogPosts.$inferInsert, 'id' | 'companyId'>>,
) {
  await tx
    .update(blogPosts)
    .set(fields)
    .where(and(eq(blogPosts.id, postId), eq(blogPosts.companyId, companyId)));
}

/** The posts a sitemap lists: published by `now` and canonical here (no canonical URL of another site). */
export function listSitemapPosts(db: Database, companyId: number, now: Date) {
  return db
    .select({ id: blogPosts.id, slug: blogPosts.slug, publishedAt: blogPosts.publishedAt })
    .from(blogPosts)
    .where(and(eq(blogPosts.companyId, companyId), lte(blogPosts.publishedAt, now), isNull(blogPosts.canonicalUrl)))
    .orderBy(desc(blogPosts.publishedAt), desc(blogPosts.id));
}
