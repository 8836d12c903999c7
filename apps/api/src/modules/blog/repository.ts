import { and, asc, count, desc, eq, lte } from 'drizzle-orm';
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

/** A post published by `now`, with its body. */
export async function findPublishedPost(db: Database, companyId: number, postId: number, now: Date) {
  if (postId > maxIntegerId) return undefined;
  const [row] = await db
    .select({ ...summaryColumns, bodyHtml: blogPosts.bodyHtml })
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
