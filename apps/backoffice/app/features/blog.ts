import type { Role } from '#app/lib/contract.ts';

/**
 * «Blog» (issue 25 item 7): the posts as the publishing kind `blog`, key `posts` (apps/api/src/modules/blog/blog-kind.ts).
 * The screen edits one post at a time (`?articulo=<id>` or `?articulo=nuevo`) inside the whole body the API takes.
 */
export const blogEditors: readonly Role[] = ['admin', 'content'];
export const blogPath = (rest = '') => `/blog/posts${rest}`;

export type BlogPost = {
  id: number | null;
  categoryId: number;
  title: string;
  summary: string;
  image: string | null;
  markdown: string;
  /** Chile wall time, YYYY-MM-DDTHH:mm: when it appears (ahead: scheduled). */
  publishAtChile: string;
};
export type BlogBody = { posts: BlogPost[] };

/** Which post the URL opens: a stored one by id, a new one, or none (the list). */
export function postKeyOf(value: string | null): number | 'nuevo' | null {
  if (value === 'nuevo') return 'nuevo';
  return value && /^\d{1,9}$/.test(value) ? Number(value) : null;
}

/** A post's state as the list says it, against Chile's wall clock now. */
export function postState(post: BlogPost, nowChile: string): string {
  return post.publishAtChile <= nowChile
    ? 'Publicado'
    : `Programado para el ${post.publishAtChile.replace('T', ' a las ')}`;
}

/** The post the form posted (fields in Spanish), over the one it edits (`id` kept; a new one has none). */
export function postFromForm(form: FormData, id: number | null): BlogPost {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value.trim() : '';
  };
  const image = text('imagen');
  return {
    id,
    categoryId: Number(text('categoria')),
    title: text('titulo'),
    summary: text('resumen'),
    image: image === '' ? null : image,
    markdown: text('texto'),
    publishAtChile: text('publicar-el'),
  };
}

/** The body with `post` in its place (or added at the end), or without the post `removeId`. */
export function withPost(body: BlogBody, post: BlogPost, index: number | null): BlogBody {
  if (index === null) return { posts: [...body.posts, post] };
  return { posts: body.posts.map((other, at) => (at === index ? post : other)) };
}

/** The API's field path (body.posts.3.markdown) in the form's words. */
export function blogFieldInWords(field: string): string {
  const name = field.split('.').at(-1) ?? field;
  const names: Record<string, string> = {
    title: 'Título',
    summary: 'Resumen',
    image: 'Imagen',
    markdown: 'Texto',
    publishAtChile: 'Publicar el',
    categoryId: 'Categoría',
  };
  return names[name] ?? field;
}
