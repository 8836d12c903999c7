import { sanitizeHtml } from '@travesia/domain/sanitize-html';
import { marked } from 'marked';
import { z } from 'zod';
import type { Database } from '#app/db/client.ts';
import { ApiError } from '#app/errors.ts';
import { plainText } from '#app/lib/editorial-fields.ts';
import * as repository from './repository.ts';

/**
 * A blog post as the publishing model edits it (issue 25 item 7, kind `blog`, one key per post: its id). The body is
 * Markdown, rendered to HTML by marked and sanitised by the storefront's allow-list (@travesia/domain/sanitize-html)
 * when it is published (`apply`), so the live table never holds a script, an event handler, a `javascript:` link or
 * a style; the storefront sanitises again when it renders, and so does every preview. `visible: false` is a post not
 * shown (never published, or retired); publishing it visible shows it from then on (publish now, or at a time).
 */
export const blogKindName = 'blog';

export const blogMessages = {
  slug: 'El slug usa solo minúsculas sin tildes, números y guiones (por ejemplo «viajar-con-ninos»).',
  slugTaken: 'Otro artículo ya usa este slug: elige otro.',
  canonical: 'La URL canónica debe ser absoluta y empezar con https:// (o quedar vacía).',
  image: 'La imagen debe ser una subida en la consola (/api/blog-images/…) o del sitio (/img/…).',
  category: 'Esa categoría no existe: elige una de la lista.',
  body: 'Escribe el texto del artículo.',
};

/** An image of this site: an upload (blog-files.ts) or the seed's `/img/…`; never another scheme or host. */
export const blogImagePath =
  /^\/(api\/blog-images\/[0-9a-f-]{36}\/[a-z]+\.webp|img\/[a-z0-9/_-]+\.(svg|png|jpe?g|webp))$/;

export const blogPostBodySchema = z
  .object({
    title: plainText(160, 'Escribe el título'),
    slug: z
      .string()
      .trim()
      .min(1, blogMessages.slug)
      .max(120, 'Máximo 120 caracteres')
      .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, blogMessages.slug),
    categoryId: z
      .number({ error: blogMessages.category })
      .int(blogMessages.category)
      .positive(blogMessages.category)
      .max(2_147_483_647, blogMessages.category),
    summary: plainText(300, 'Escribe la descripción (la que muestran los buscadores)'),
    canonicalUrl: z
      .string()
      .trim()
      .max(500, 'Máximo 500 caracteres')
      .nullable()
      .transform((url) => (url === '' ? null : url))
      .refine((url) => url === null || isHttpsUrl(url), blogMessages.canonical),
    image: z
      .string()
      .trim()
      .max(200)
      .nullable()
      .transform((path) => (path === '' ? null : path))
      .refine((path) => path === null || blogImagePath.test(path), blogMessages.image),
    markdown: z
      .string()
      .max(100_000, 'El texto es demasiado largo (máximo 100.000 caracteres)')
      .transform(sanitizeMarkdown)
      .refine((md) => renderMarkdown(md).trim() !== '', blogMessages.body),
    visible: z.boolean(),
  })
  .strict();

export type BlogPostBody = z.infer<typeof blogPostBodySchema>;

function isHttpsUrl(text: string) {
  if (!/^https:\/\//i.test(text)) return false;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

type Token = {
  type: string;
  raw?: string;
  tokens?: Token[];
  items?: Token[];
  header?: Token[] | boolean;
  rows?: Token[][];
};

/** A token's pieces in source order (a table's cells carry no source of their own: their tokens stand for them). */
const childrenOf = (token: Token): Token[] =>
  [
    ...(token.tokens ?? []),
    ...(token.items ?? []),
    ...(Array.isArray(token.header) ? token.header : []),
    ...(token.rows ?? []).flat(),
  ].flatMap((child) => (child.raw === undefined ? childrenOf(child) : [child]));

/**
 * One piece of HTML through the allow-list. Inline HTML comes a tag at a time: a lone opening tag stays open, and a
 * lone closing tag of an allowed element is kept (it carries no attributes).
 */
function sanitizedHtml(raw: string): string {
  const closing = /^<\/([a-z][a-z0-9]*)\s*>\s*$/i.exec(raw)?.[1]?.toLowerCase();
  if (closing) return sanitizeHtml(`<${closing}></${closing}>`) === `<${closing}></${closing}>` ? raw : '';
  const clean = sanitizeHtml(raw);
  const open = /^<([a-z][a-z0-9]*)\b[^>]*>\s*$/i.exec(raw)?.[1];
  const trailing = raw.match(/\s*$/)?.[0] ?? '';
  return (open && clean.endsWith(`</${open.toLowerCase()}>`) ? clean.slice(0, -open.length - 3) : clean) + trailing;
}

/** A token's source with each HTML piece in it (block or inline) passed through the storefront's allow-list. */
function sanitizedRaw(token: Token): string {
  const raw = token.raw ?? '';
  if (token.type === 'html') return sanitizedHtml(raw);
  let out = '';
  let rest = raw;
  for (const child of childrenOf(token)) {
    const piece = child.raw ?? '';
    const at = rest.indexOf(piece);
    if (at < 0 || piece === '') continue;
    out += rest.slice(0, at) + sanitizedRaw(child);
    rest = rest.slice(at + piece.length);
  }
  return out + rest;
}

/**
 * Markdown as it is saved: its text untouched, but any HTML written in it (Markdown allows it) cleaned by the
 * storefront's allow-list, so not even a draft holds a script, a handler, a `javascript:` link or a style.
 */
export function sanitizeMarkdown(markdown: string): string {
  return (marked.lexer(markdown, { gfm: true }) as unknown as Token[]).map(sanitizedRaw).join('');
}

/** Markdown → safe HTML (marked, then the storefront's allow-list): what is stored, and what every preview shows. */
export function renderMarkdown(markdown: string): string {
  return sanitizeHtml(marked.parse(markdown, { async: false, gfm: true }));
}

const postIdOf = (key: string) => (/^[1-9]\d{0,8}$/.test(key) ? Number(key) : undefined);

async function readPost(db: Database, companyId: number, key: string): Promise<BlogPostBody | undefined> {
  const postId = postIdOf(key);
  if (postId === undefined) return undefined;
  const row = await repository.findPost(db, companyId, postId);
  if (!row) return undefined;
  return {
    title: row.title,
    slug: row.slug,
    categoryId: row.categoryId,
    summary: row.summary,
    canonicalUrl: row.canonicalUrl,
    image: row.image,
    markdown: row.bodyMarkdown ?? row.bodyHtml,
    visible: row.publishedAt !== null,
  };
}

const fieldError = (field: string, message: string) =>
  new ApiError(400, message, [{ field: `body.${field}`, code: 'invalid', message }]);

/** Makes the body live: HTML rendered and sanitised here, slug unique, and shown from now when it becomes visible. */
async function applyPost(tx: Database, companyId: number, key: string, body: BlogPostBody) {
  const postId = Number(key);
  const row = await repository.findPost(tx, companyId, postId);
  if (!row) throw new ApiError(404, 'No encontramos este artículo.');
  if (await repository.slugTaken(tx, companyId, body.slug, postId)) throw fieldError('slug', blogMessages.slugTaken);
  if (!(await repository.categoryExists(tx, companyId, body.categoryId)))
    throw fieldError('categoryId', blogMessages.category);
  await repository.updatePost(tx, companyId, postId, {
    title: body.title,
    slug: body.slug,
    categoryId: body.categoryId,
    summary: body.summary,
    canonicalUrl: body.canonicalUrl,
    image: body.image,
    bodyMarkdown: body.markdown,
    bodyHtml: renderMarkdown(body.markdown),
    // A post already shown (or dated by the seed) keeps its date; one shown now for the first time is dated now.
    publishedAt: body.visible ? (row.publishedAt ?? new Date()) : null,
  });
}

const labels: Record<Exclude<keyof BlogPostBody, 'visible'>, string> = {
  title: 'Título',
  slug: 'Slug',
  categoryId: 'Categoría',
  summary: 'Descripción',
  canonicalUrl: 'URL canónica',
  image: 'Imagen de portada',
  markdown: 'Texto',
};

/** One line per changed field, and whether the post is shown or withdrawn. */
export function describePost(before: BlogPostBody | null, after: BlogPostBody): string[] {
  const lines: string[] = [];
  for (const [field, label] of Object.entries(labels) as [keyof typeof labels, string][]) {
    const was = before?.[field] ?? null;
    const now = after[field];
    if (was === now) continue;
    if (field === 'markdown') lines.push(`${label} cambiado`);
    else if (now === null || now === '') lines.push(`${label} quitado`);
    else lines.push(`${label}: «${was || '—'}» → «${now}»`);
  }
  if ((before?.visible ?? false) !== after.visible)
    lines.push(after.visible ? 'Se muestra en la tienda' : 'Se retira de la tienda');
  return lines;
}

/** The kind's name and body shape (the same for every company). */
export const blogKind = { kind: blogKindName, schema: blogPostBodySchema } as const;

/** Where a preview link opens a post's draft: its article page, the token bound to that post. */
export const blogPreviewScope = (key: string) => `blog:${key}`;

/** The publishing kind of a company's blog posts (registered by workflows/publishing.ts). */
export const blogKindOf = (companyId: number) => ({
  ...blogKind,
  current: (db: Database, key: string) => readPost(db, companyId, key),
  apply: (tx: Database, key: string, body: BlogPostBody) => applyPost(tx, companyId, key, body),
  // The blog's answers are not in the read cache (only a minute's HTTP cache on the list).
  cacheScopes: () => [],
  describe: async (_db: Database, _key: string, before: BlogPostBody | null, after: BlogPostBody) =>
    describePost(before, after),
  previewPath: async (_db: Database, key: string, draft: BlogPostBody) => ({
    path: `/blog-interior/${key}/${draft.slug}`,
    scope: blogPreviewScope(key),
  }),
});
