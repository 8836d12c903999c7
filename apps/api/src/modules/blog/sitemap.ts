import type { FastifyInstance } from 'fastify';
import * as repository from './repository.ts';

/** The storefront's public pages a search engine should find (never a quotation, purchase or preview page). */
export const sitemapPages = [
  '/',
  '/blog',
  '/faq',
  '/quienes-somos',
  '/contactanos',
  '/certificados',
  '/reembolsos',
  '/terminos',
  '/politicas',
  '/informacion-legal',
] as const;

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c);

/** The sitemap document (sitemaps.org 0.9) of `origin`: the public pages, then each published post with its date. */
export function sitemapXml(origin: string, posts: { id: number; slug: string; publishedAt: Date | null }[]): string {
  const entry = (path: string, lastmod?: Date | null) =>
    `<url><loc>${escapeXml(`${origin}${path}`)}</loc>${lastmod ? `<lastmod>${lastmod.toISOString().slice(0, 10)}</lastmod>` : ''}</url>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...sitemapPages.map((path) => entry(path)),
    ...posts.map((post) => entry(`/blog-interior/${post.id}/${post.slug}`, post.publishedAt)),
    '</urlset>',
    '',
  ].join('\n');
}

/**
 * `GET /sitemap.xml` at the store's root (issue 25 item 7): absolute URLs at PUBLIC_URL only — never a request's Host
 * (without PUBLIC_URL, in development: http://localhost:PORT). Published posts canonical here are listed; one whose
 * canonical URL is another site's is not. Kept an hour by browsers and proxies.
 */
export async function sitemapRoutes(fastify: FastifyInstance) {
  const { db, config } = fastify;
  fastify.get('/sitemap.xml', { schema: { hide: true } }, async (_request, reply) => {
    const origin = (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, '');
    const posts = await repository.listSitemapPosts(db, config.companyId, new Date());
    return reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(sitemapXml(origin, posts));
  });
}
