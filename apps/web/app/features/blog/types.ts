import type { components } from '#app/lib/api-schema.d.ts';

export type BlogListData = components['schemas']['BlogPostList'];
export type BlogPostSummary = components['schemas']['BlogPostSummary'];
/**
 * The article as the page receives it: `bodyHtml` already sanitised by the loader; `preview` when a console preview
 * link opened its draft (banner «Vista previa», not indexed).
 */
export type BlogArticleData = components['schemas']['BlogPost'] & { preview?: boolean };

/** The path of an article's page. */
export const articlePath = (post: { id: number; slug: string }) => `/blog-interior/${post.id}/${post.slug}`;

const dateFormat = new Intl.DateTimeFormat('es-CL', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'America/Santiago',
});

/** «26 de enero de 2026», the day in Chile. */
export const publicationDate = (iso: string) => dateFormat.format(new Date(iso));
