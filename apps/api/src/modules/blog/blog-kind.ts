import { chileWallTimeOf, chileWallTimeToInstant } from '@travesia/domain/dates';
import { markdownToHtml, unsafeMarkdown } from '@travesia/domain/markdown';
import { slugOf } from '@travesia/domain/slug';
import { asc, eq, max } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#app/db/client.ts';
import { ApiError, type FieldError } from '#app/errors.ts';
import { plainText } from '#app/lib/editorial-fields.ts';
import { blogCategories, blogPosts } from './tables.ts';

/**
 * The blog as the publishing model edits it (issue 25 item 7, kind `blog`, one key: `posts`): every post with its
 * category, title, summary, image, the body written in **Markdown** (rendered and sanitised on save by
 * @travesia/domain/markdown, sanitised again by the storefront where it shows it) and its publication time in Chile
 * time — a time ahead schedules the post (the store hides it until then). A post left out of the body is deleted.
 */
export const blogKey = 'posts';

const id = z.number().int().positive().max(2_147_483_647);

/** A store path (/img/blog/…) or an https address: what an <img> of the store may load. */
const imagePath = z
  .string()
  .trim()
  .max(500, 'A lo más 500 caracteres')
  .refine(
    (value) => /^\/(?!\/)[\w\-./]*$/.test(value) || /^https:\/\/[\w.-]+(\/[\w\-./%]*)?$/.test(value),
    'Usa una ruta de la tienda (/img/blog/…) o una dirección https://…',
  );

export const blogBodySchema = z
  .object({
    posts: z
      .array(
        z
          .object({
            id: id.nullable(),
            categoryId: id,
            title: plainText(200),
            summary: plainText(500),
            image: imagePath.nullable(),
            markdown: z
              .string()
              .trim()
              .min(1, 'Escribe el texto del artículo')
              .max(100_000, 'A lo más 100 000 caracteres')
              .refine(
                (markdown) => !unsafeMarkdown(markdown),
                'El texto tiene código que la tienda no permite (scripts, estilos, eventos o enlaces javascript:): quítalo',
              ),
            /** Chile wall time, `YYYY-MM-DDTHH:mm`: when the post appears (ahead: scheduled). */
            publishAtChile: z
              .string()
              .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'Fecha y hora como 2026-12-01T09:00 (hora de Chile)'),
          })
          .strict(),
      )
      .max(500),
  })
  .strict();

export type BlogBody = z.infer<typeof blogBodySchema>;

async function readBlog(db: Database, companyId: number, key: string): Promise<BlogBody | undefined> {
  if (key !== blogKey) return undefined;
  const rows = await db
    .select()
    .from(blogPosts)
    .where(eq(blogPosts.companyId, companyId))
    .orderBy(asc(blogPosts.publishedAt), asc(blogPosts.id));
  return {
    posts: rows.map((row) => ({
      id: row.id,
      categoryId: row.categoryId,
      title: row.title,
      summary: row.summary,
      image: row.image,
      markdown: row.bodyMarkdown ?? row.bodyHtml,
      publishAtChile: chileWallTimeOf(row.publishedAt),
    })),
  };
}

async function applyBlog(tx: Database, companyId: number, body: BlogBody) {
  const categories = await tx
    .select({ id: blogCategories.id })
    .from(blogCategories)
    .where(eq(blogCategories.companyId, companyId));
  const known = new Set(categories.map((category) => category.id));
  const existing = await tx.select({ id: blogPosts.id }).from(blogPosts).where(eq(blogPosts.companyId, companyId));
  const own = new Set(existing.map((row) => row.id));
  const errors: FieldError[] = [];
  body.posts.forEach((post, index) => {
    if (!known.has(post.categoryId)) {
      errors.push({
        field: `body.posts.${index}.categoryId`,
        code: 'not_available',
        message: 'Categoría que el blog no tiene',
      });
    }
    if (post.id !== null && !own.has(post.id)) {
      errors.push({
        field: `body.posts.${index}.id`,
        code: 'not_available',
        message: 'Este artículo no es de esta tienda',
      });
    }
  });
  if (errors.length > 0) throw new ApiError(400, 'Los datos del borrador no son válidos', errors);
  const kept = new Set(body.posts.flatMap((post) => (post.id === null ? [] : [post.id])));
  for (const gone of own) if (!kept.has(gone)) await tx.delete(blogPosts).where(eq(blogPosts.id, gone));
  // Post ids are shared by every company (the primary key): a new post takes the next one.
  let [{ next } = { next: 0 }] = await tx.select({ next: max(blogPosts.id) }).from(blogPosts);
  for (const post of body.posts) {
    const publishedAt = chileWallTimeToInstant(post.publishAtChile);
    if (!publishedAt) {
      throw new ApiError(400, 'Los datos del borrador no son válidos', [
        { field: 'body.posts', code: 'invalid', message: `«${post.title}»: esa hora no existe en Chile` },
      ]);
    }
    const columns = {
      categoryId: post.categoryId,
      slug: slugOf(post.title),
      title: post.title,
      summary: post.summary,
      image: post.image,
      bodyMarkdown: post.markdown,
      bodyHtml: markdownToHtml(post.markdown),
      publishedAt,
    };
    if (post.id !== null) await tx.update(blogPosts).set(columns).where(eq(blogPosts.id, post.id));
    else {
      next = (next ?? 0) + 1;
      await tx.insert(blogPosts).values({ id: next, companyId, ...columns });
    }
  }
}

/** One line per change: posts added, removed, retitled, rewritten, moved to another time or category. */
export function describeBlog(before: BlogBody | null, after: BlogBody): string[] {
  const lines: string[] = [];
  const old = new Map((before?.posts ?? []).flatMap((post) => (post.id === null ? [] : [[post.id, post]])));
  const kept = new Set<number>();
  for (const post of after.posts) {
    const was = post.id === null ? undefined : old.get(post.id);
    if (!was) {
      lines.push(`Artículo nuevo: «${post.title}», se publica el ${post.publishAtChile.replace('T', ' a las ')}`);
      continue;
    }
    kept.add(was.id ?? 0);
    if (was.title !== post.title) lines.push(`«${was.title}» ahora se titula «${post.title}»`);
    if (was.markdown !== post.markdown) lines.push(`«${post.title}»: texto cambiado`);
    if (was.summary !== post.summary) lines.push(`«${post.title}»: resumen cambiado`);
    if (was.image !== post.image) lines.push(`«${post.title}»: imagen ${post.image ?? 'quitada'}`);
    if (was.categoryId !== post.categoryId) lines.push(`«${post.title}»: otra categoría`);
    if (was.publishAtChile !== post.publishAtChile) {
      lines.push(`«${post.title}»: se publica el ${post.publishAtChile.replace('T', ' a las ')}`);
    }
  }
  for (const [postId, post] of old) if (!kept.has(postId)) lines.push(`Artículo eliminado: «${post.title}»`);
  return lines;
}

/** The kind's name and body shape (the same for every company). */
export const blogKind = { kind: 'blog', schema: blogBodySchema } as const;

/** The publishing kind of a company's blog (registered by workflows/publishing.ts). */
export const blogKindOf = (companyId: number) => ({
  ...blogKind,
  current: (db: Database, key: string) => readBlog(db, companyId, key),
  apply: async (tx: Database, key: string, body: BlogBody) => {
    if (key !== blogKey) throw new ApiError(404, 'Este blog no existe.');
    await applyBlog(tx, companyId, body);
  },
  // The list, the articles, the home's teaser and the pages kept whole: all of it.
  cacheScopes: () => undefined,
  describe: async (_db: Database, _key: string, before: BlogBody | null, after: BlogBody) =>
    describeBlog(before, after),
});

/** The categories a post may take (the console's select). */
export function listBlogCategories(db: Database, companyId: number) {
  return db
    .select({ id: blogCategories.id, label: blogCategories.label })
    .from(blogCategories)
    .where(eq(blogCategories.companyId, companyId))
    .orderBy(asc(blogCategories.sortOrder), asc(blogCategories.id));
}
