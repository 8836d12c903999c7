/**
 * «Blog» (issue 25 item 7): each post is the publishing model's kind `blog`, key its id
 * (apps/api/src/modules/blog/blog-kind.ts). The form's fields are named like the body's, so the API's field errors
 * (`body.slug`) land beside their field. The text is Markdown; the API renders it (marked) and sanitises it.
 */
import type { Role } from '#app/lib/contract.ts';
import type { PublishingItem, PublishingResult } from './publishing.ts';

export type BlogPostBody = {
  title: string;
  slug: string;
  categoryId: number;
  summary: string;
  canonicalUrl: string | null;
  image: string | null;
  markdown: string;
  visible: boolean;
};

export type BlogItem = PublishingItem<BlogPostBody>;

export type BlogState = 'published' | 'scheduled' | 'draft';

export type BlogListItem = {
  id: number;
  title: string;
  slug: string;
  category: string;
  state: BlogState;
  publishedAt: string | null;
};

export type BlogCategory = { id: number; label: string };

/** What the editor's actions answer: the publishing model's result, the posted body and a rendered preview. */
export type BlogResult = PublishingResult & { body?: BlogPostBody; previewHtml?: string };

/** Who writes and publishes posts (apps/api/src/modules/operators/guard.ts). */
export const blogEditors: readonly Role[] = ['admin', 'content'];

export const blogStateLabels: Record<BlogState, string> = {
  published: 'Publicado',
  scheduled: 'Programado',
  draft: 'Borrador',
};

/** The field names of the form, in Spanish for the operator. */
export const blogFieldLabels: Record<string, string> = {
  title: 'Título',
  slug: 'Slug',
  categoryId: 'Categoría',
  summary: 'Descripción',
  canonicalUrl: 'URL canónica',
  image: 'Imagen de portada',
  markdown: 'Texto',
  'portada-archivo': 'Nueva portada',
  'imagen-archivo': 'Imagen para el texto',
};

/** The post the form posted (text as typed: the API trims, checks and sanitises it). */
export function blogFromForm(form: FormData): BlogPostBody {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : '';
  };
  const optional = (name: string) => text(name).trim() || null;
  return {
    title: text('title').trim(),
    slug: text('slug').trim(),
    categoryId: Number(text('categoryId')),
    summary: text('summary').trim(),
    canonicalUrl: optional('canonicalUrl'),
    image: form.get('sin-portada') === 'on' ? null : optional('image'),
    markdown: text('markdown'),
    visible: form.get('visible') === 'on',
  };
}

/** The Markdown with an uploaded image's line added as a paragraph of its own at the end. */
export const withImageLine = (markdown: string, line: string) =>
  markdown.trim() === '' ? line : `${markdown.replace(/\s+$/, '')}\n\n${line}\n`;
