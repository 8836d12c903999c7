import { sanitizeHtml } from '@travesia/domain/sanitize-html';
import { redirect } from 'react-router';
import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import { dataOrThrow, type LoadContext, pageError } from '#app/lib/api-answer.server.ts';
import { previewLinkOf } from '#app/lib/preview.ts';
import type { BlogArticleData, BlogListData } from './types.ts';

/** Articles per page of /blog. */
export const blogPageSize = 9;

const notFound = () => pageError(404, 'No encontramos el artículo.');

/** A whole number ≥ 1 written with digits only, or null. */
function positiveWholeNumber(text: string | null | undefined): number | null {
  if (!text || !/^[0-9]{1,9}$/.test(text)) return null;
  const value = Number(text);
  return value >= 1 ? value : null;
}

/**
 * /blog: one page of the published articles, newest first, maybe of one category (`?categoria=` its slug), with the
 * categories. An unknown category or a page past the last one is the 404 page.
 */
export async function loadBlogList(context: LoadContext, request: Request): Promise<BlogListData> {
  const search = new URL(request.url).searchParams;
  const category = search.get('categoria') || undefined;
  const pageText = search.get('pagina');
  const page = pageText === null ? 1 : positiveWholeNumber(pageText);
  if (page === null) throw pageError(404, 'No encontramos esa página del blog.');
  const answer = await serverApi(context).GET('/companies/{companyId}/blog-posts', {
    params: { path: { companyId: configuredCompanyId() }, query: { category, page, pageSize: blogPageSize } },
  });
  const list = dataOrThrow(answer, 'El blog');
  if (page > 1 && list.posts.length === 0) throw pageError(404, 'No encontramos esa página del blog.');
  return list;
}

/**
 * /blog-interior/{id}/{title}: the article, its body sanitised here (the sanitiser never reaches the browser), and
 * its canonical URL, which the API builds at the store's configured public origin (PUBLIC_URL; in development this
 * page's Host when ALLOWED_HOSTS lists it). A `{title}` other than the article's slug is a 301 to the canonical
 * path; an unknown id is the 404 page. A console preview link (`?vista-previa=`, issue 25) shows the post's draft,
 * sanitised here like the live one; a link that does not open it is the 404 page (entry.server.tsx keeps either out
 * of every cache and index).
 */
export async function loadBlogArticle(
  context: LoadContext,
  request: Request,
  params: { id?: string; title?: string },
): Promise<BlogArticleData> {
  const postId = positiveWholeNumber(params.id);
  if (postId === null) throw notFound();
  // As the payment action does: the API is told the Host this page was asked at; forwarded headers it believes only
  // from a TRUST_PROXY peer (in process: this page's own peer).
  const url = new URL(request.url);
  const link = previewLinkOf(request);
  // A value that cannot be a token opens nothing, as a forged link (never sent to the API).
  if (link && link.token === null) throw notFound();
  const token = link?.token ?? null;
  const headers = {
    host: url.host,
    'x-forwarded-host': request.headers.get('x-forwarded-host') ?? url.host,
    'x-forwarded-proto': request.headers.get('x-forwarded-proto') ?? url.protocol.replace(':', ''),
    ...(token ? { 'x-vista-previa': token } : {}),
  };
  const answer = await serverApi(context).GET('/companies/{companyId}/blog-posts/{postId}', {
    params: { path: { companyId: configuredCompanyId(), postId } },
    headers,
  });
  if (token && (answer.response.status === 403 || answer.response.status === 400)) throw notFound();
  const post = dataOrThrow(answer, 'El artículo');
  if (token) return { ...post, bodyHtml: sanitizeHtml(post.bodyHtml), preview: true };
  if (params.title !== post.slug) throw redirect(`/blog-interior/${post.id}/${post.slug}`, 301);
  const { bodyHtml, ...rest } = post;
  return { ...rest, bodyHtml: sanitizeHtml(bodyHtml) };
}
