import { errorMessages } from '@travesia/domain/messages';
import { slugOf } from '@travesia/domain/slug';
import { expect, it } from 'vitest';
import * as t from '#app/db/schema.ts';
import { demoCompany } from '#app/db/seed/demo-company.ts';
import { describeOnEachDatabase } from './support/harness.ts';
import { call, expectError, get } from './support/http.ts';

type Summary = {
  id: number;
  slug: string;
  title: string;
  summary: string;
  image: string | null;
  category: { id: number; slug: string; label: string };
  publishedAt: string;
};
type List = {
  categories: { id: number; slug: string; label: string; postCount: number }[];
  category: string | null;
  posts: Summary[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
};
type Post = Summary & { bodyHtml: string; canonicalUrl: string };

const { posts: seededPosts, categories: seededCategories } = demoCompany.blog;
const newestFirst = [...seededPosts].sort((a, b) => Date.parse(b.publishedAt) - Date.parse(a.publishedAt));

describeOnEachDatabase(
  'blog',
  (ctx) => {
    it('lists every published post newest first, each with its category, and the categories with their counts', async () => {
      const answer = await get(ctx.app, '/api/companies/1/blog-posts?pageSize=50');
      expect(answer.status).toBe(200);
      const body = answer.json<List>();
      expect(body.posts.map((post) => post.id)).toStrictEqual(newestFirst.map((post) => post.id));
      expect(body.total).toBe(seededPosts.length);
      expect(body.categories).toStrictEqual(
        seededCategories.map((category) => ({
          ...category,
          postCount: seededPosts.filter((post) => post.categoryId === category.id).length,
        })),
      );
      const schengen = body.posts.find((post) => post.id === 4);
      expect(schengen).toStrictEqual({
        id: 4,
        slug: 'primer-viaje-a-europa-como-recorrer-el-espacio-schengen',
        title: 'Primer viaje a Europa: cómo recorrer el espacio Schengen',
        summary: seededPosts.find((post) => post.id === 4)?.summary,
        image: '/img/blog/europa-schengen.svg',
        category: { id: 2, slug: 'destinos', label: 'Destinos' },
        publishedAt: new Date('2026-01-26T09:00:00-03:00').toISOString(),
      });
      // Every seeded post has its image, the newest (the list's first card) included.
      expect(body.posts.every((post) => post.image?.startsWith('/img/blog/'))).toBe(true);
      expect(JSON.stringify(body)).not.toContain('bodyHtml');
    });

    it('pages: page 2 of 4 per page continues where page 1 stopped; past the last page is empty', async () => {
      const first = (await get(ctx.app, '/api/companies/1/blog-posts?pageSize=4')).json<List>();
      const second = (await get(ctx.app, '/api/companies/1/blog-posts?pageSize=4&page=2')).json<List>();
      expect(first).toMatchObject({ page: 1, pageSize: 4, total: seededPosts.length, totalPages: 3 });
      expect([...first.posts, ...second.posts].map((post) => post.id)).toStrictEqual(
        newestFirst.slice(0, 8).map((post) => post.id),
      );
      const past = (await get(ctx.app, '/api/companies/1/blog-posts?pageSize=4&page=9')).json<List>();
      expect(past.posts).toStrictEqual([]);
      expect(past.total).toBe(seededPosts.length);
    });

    it('filters by category slug; an unknown category is the §8 404', async () => {
      const answer = await get(ctx.app, '/api/companies/1/blog-posts?category=asistencia-y-coberturas');
      expect(answer.status).toBe(200);
      const body = answer.json<List>();
      expect(body.category).toBe('asistencia-y-coberturas');
      expect(body.posts.map((post) => post.id).sort()).toStrictEqual([7, 8, 9]);
      expect(body.total).toBe(3);
      expect(body.categories).toHaveLength(seededCategories.length);

      const unknown = await get(ctx.app, '/api/companies/1/blog-posts?category=no-existe');
      expectError(unknown, 404, errorMessages.resourceNotFound, '/api/companies/1/blog-posts');
    });

    it('refuses a page size over 50 or a page 0 with the §8 400', async () => {
      for (const query of ['pageSize=51', 'page=0', 'page=abc']) {
        const answer = await get(ctx.app, `/api/companies/1/blog-posts?${query}`);
        expect(answer.status, query).toBe(400);
        expect(answer.json<{ detail: string }>().detail).toBe(errorMessages.invalidInputParameters);
      }
    });

    it('one post: its body, slug and canonical URL at the allowed Host the request came to', async () => {
      const answer = await call(ctx.app, {
        method: 'GET',
        url: '/api/companies/1/blog-posts/2',
        headers: { host: 'localhost:3000' },
      });
      expect(answer.status).toBe(200);
      const post = answer.json<Post>();
      const seeded = seededPosts.find((p) => p.id === 2);
      expect(post.title).toBe('Viajar con niños: checklist antes de salir de Chile');
      expect(post.slug).toBe(slugOf(post.title));
      expect(post.bodyHtml).toBe(seeded?.bodyHtml);
      expect(post.bodyHtml).toContain('Autorización notarial');
      expect(post.category).toStrictEqual({ id: 1, slug: 'consejos-de-viaje', label: 'Consejos de viaje' });
      expect(post.canonicalUrl).toBe(`http://localhost:3000/blog-interior/2/${post.slug}`);
    });

    it('a Host outside ALLOWED_HOSTS never reaches the canonical URL', async () => {
      const answer = await call(ctx.app, {
        method: 'GET',
        url: '/api/companies/1/blog-posts/2',
        headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
      });
      expect(answer.json<Post>().canonicalUrl).toMatch(/^http:\/\/localhost:3000\/blog-interior\/2\//);
    });

    it('unknown post, post id too large or another company: the §8 404s', async () => {
      expectError(
        await get(ctx.app, '/api/companies/1/blog-posts/999'),
        404,
        errorMessages.resourceNotFound,
        '/api/companies/1/blog-posts/999',
      );
      expectError(
        await get(ctx.app, '/api/companies/1/blog-posts/99999999999'),
        404,
        errorMessages.resourceNotFound,
        '/api/companies/1/blog-posts/99999999999',
      );
      expectError(
        await get(ctx.app, '/api/companies/77/blog-posts/1'),
        404,
        errorMessages.companyNotFound,
        '/api/companies/77/blog-posts/1',
      );
      expectError(
        await get(ctx.app, '/api/companies/77/blog-posts'),
        404,
        errorMessages.companyNotFound,
        '/api/companies/77/blog-posts',
      );
    });

    it('a post scheduled for later is neither listed nor served until its date', async () => {
      await ctx.database.db.insert(t.blogPosts).values({
        id: 500,
        companyId: 1,
        categoryId: 1,
        slug: 'proximamente',
        title: 'Próximamente',
        summary: 'Aún no publicado.',
        image: null,
        bodyHtml: '<p>Borrador</p>',
        publishedAt: new Date(Date.now() + 86_400_000),
      });
      const list = (await get(ctx.app, '/api/companies/1/blog-posts?pageSize=50')).json<List>();
      expect(list.posts.map((post) => post.id)).not.toContain(500);
      expect(list.total).toBe(seededPosts.length);
      expect((await get(ctx.app, '/api/companies/1/blog-posts/500')).status).toBe(404);
    });

    it('is in the OpenAPI document', async () => {
      const document = (await get(ctx.app, '/api/docs')).json<{ paths: Record<string, unknown> }>();
      expect(Object.keys(document.paths)).toEqual(
        expect.arrayContaining(['/companies/{companyId}/blog-posts', '/companies/{companyId}/blog-posts/{postId}']),
      );
    });
  },
  { ALLOWED_HOSTS: 'localhost' },
);
