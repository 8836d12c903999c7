import { addDays, chileWallTimeOf } from '@travesia/domain/dates';
import { and, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { auditEntries } from '#app/db/schema.ts';
import type { BlogBody } from '#app/modules/blog/blog-kind.ts';
import { asOperator, enrolledOperator, type Operator, TestClock } from './support/backoffice.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { get } from './support/http.ts';

/**
 * «Blog» in the console (issue 25 item 7): posts written in Markdown through the publishing model (kind `blog`, key
 * `posts`): rendered and sanitised on save, shown by the storefront's API only once published, a post dated ahead
 * hidden until its time, history with readable lines, rollback, audit; bad categories and images refused in words.
 */

type Item = { live: BlogBody; draft: { body: BlogBody; version: number } | null; changes: string[] };
const path = (rest = '') => `/api/backoffice/blog/posts${rest}`;
const clock = new TestClock();

async function readItem(ctx: TestContext, operator: Operator) {
  const answer = await asOperator(ctx, operator, 'GET', path());
  expect(answer.status, answer.text).toBe(200);
  return answer.json<Item>();
}

async function save(ctx: TestContext, operator: Operator, body: BlogBody) {
  const item = await readItem(ctx, operator);
  return asOperator(ctx, operator, 'PUT', path('/draft'), { body, baseVersion: item.draft?.version ?? 0 });
}

const publicPost = (ctx: TestContext, id: number) => get(ctx.app, `/api/companies/1/blog-posts/${id}`);
const listedTitles = async (ctx: TestContext) =>
  (await get(ctx.app, '/api/companies/1/blog-posts?pageSize=50'))
    .json<{ posts: { title: string }[] }>()
    .posts.map((post) => post.title);

describeOnEachDatabase(
  '«Blog» in the console (issue 25 item 7)',
  (ctx) => {
    let content: Operator;
    beforeAll(async () => {
      content = await enrolledOperator(ctx, 'blog@travesia.cl', ['content'], clock);
    });

    it('a post written in Markdown appears once published, sanitised; one dated ahead waits; rollback removes them', async () => {
      const { live } = await readItem(ctx, content);
      expect(live.posts.length).toBeGreaterThan(3);
      const [first] = live.posts;
      if (!first) throw new Error('the demo blog has no post');
      const categories = (await asOperator(ctx, content, 'GET', '/api/backoffice/blog-categories')).json<{
        categories: { id: number; label: string }[];
      }>().categories;
      const categoryId = categories[0]?.id ?? first.categoryId;
      const now = chileWallTimeOf(new Date(Date.now() - 60_000));
      const ahead = `${addDays(now.slice(0, 10), 7)}T09:00`;
      const body: BlogBody = {
        posts: [
          ...live.posts.map((post) =>
            post.id === first.id ? { ...post, title: `${post.title} (actualizado)` } : post,
          ),
          {
            id: null,
            categoryId,
            title: 'Cinco cosas antes de viajar a Japón',
            summary: 'Lo que conviene saber antes de partir.',
            image: '/img/blog/japon.jpg',
            markdown:
              '# Antes de partir\n\n- **Pasaporte** vigente\n- [Cotiza tu viaje](/cotizador)\n\n<p>Buen <em>viaje</em>.</p>',
            publishAtChile: now,
          },
          {
            id: null,
            categoryId,
            title: 'Artículo programado',
            summary: 'Aparece la próxima semana.',
            image: null,
            markdown: 'Pronto.',
            publishAtChile: ahead,
          },
        ],
      };
      const saved = await save(ctx, content, body);
      expect(saved.status, saved.text).toBe(200);
      // A draft changes nothing on the store.
      expect(await listedTitles(ctx)).not.toContain('Cinco cosas antes de viajar a Japón');
      const draft = await readItem(ctx, content);
      expect(draft.changes).toEqual(
        expect.arrayContaining([
          `«${first.title}» ahora se titula «${first.title} (actualizado)»`,
          expect.stringMatching(/^Artículo nuevo: «Cinco cosas antes de viajar a Japón», se publica el /),
          `Artículo nuevo: «Artículo programado», se publica el ${ahead.replace('T', ' a las ')}`,
        ]),
      );

      const published = await asOperator(ctx, content, 'POST', path('/publish'), {
        baseVersion: saved.json<{ version: number }>().version,
      });
      expect(published.status, published.text).toBe(200);
      const titles = await listedTitles(ctx);
      expect(titles).toContain('Cinco cosas antes de viajar a Japón');
      expect(titles).toContain(`${first.title} (actualizado)`);
      // Dated ahead: not shown until then.
      expect(titles).not.toContain('Artículo programado');
      const stored = (await readItem(ctx, content)).live.posts;
      const japan = stored.find((post) => post.title === 'Cinco cosas antes de viajar a Japón');
      const scheduled = stored.find((post) => post.title === 'Artículo programado');
      expect((await publicPost(ctx, scheduled?.id ?? 0)).status).toBe(404);
      const article = (await publicPost(ctx, japan?.id ?? 0)).json<{ bodyHtml: string; canonicalUrl: string }>();
      expect(article.bodyHtml).toContain('<h2>Antes de partir</h2>');
      expect(article.bodyHtml).toContain('<strong>Pasaporte</strong>');
      expect(article.bodyHtml).toContain('href="/cotizador"');
      expect(article.bodyHtml).toContain('<p>Buen <em>viaje</em>.</p>');
      expect(article.canonicalUrl).toMatch(/\/blog-interior\/\d+\/cinco-cosas-antes-de-viajar-a-japon$/);
      // The editor gets back what it wrote, not the rendering.
      expect(japan?.markdown).toContain('# Antes de partir');
      const audit = await ctx.database.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.action, 'publishing.published'), eq(auditEntries.targetType, 'blog')));
      expect(audit[0]?.actorLabel).toBe('blog@travesia.cl');

      const rolled = await asOperator(ctx, content, 'POST', path('/rollback'), {
        publicationId: published.json<{ publication: { id: number } }>().publication.id,
        to: 'before',
      });
      expect(rolled.status, rolled.text).toBe(200);
      const after = await listedTitles(ctx);
      expect(after).not.toContain('Cinco cosas antes de viajar a Japón');
      expect(after).toContain(first.title);
      expect((await publicPost(ctx, japan?.id ?? 0)).status).toBe(404);
    });

    it('refuses an unknown category, an unsafe image and an empty text in the §8 body (400, never 500)', async () => {
      const { live } = await readItem(ctx, content);
      const [post] = live.posts;
      if (!post) throw new Error('the demo blog has no post');
      const bad: [BlogBody['posts'][number], string][] = [
        [{ ...post, image: 'javascript:alert(1)' }, 'body.posts.0.image'],
        [{ ...post, image: '//evil.example/x.png' }, 'body.posts.0.image'],
        [{ ...post, markdown: '   ' }, 'body.posts.0.markdown'],
        [{ ...post, publishAtChile: 'mañana' }, 'body.posts.0.publishAtChile'],
        [{ ...post, title: '<b>x</b>' }, 'body.posts.0.title'],
        [{ ...post, markdown: 'Hola <script>alert(1)</script>' }, 'body.posts.0.markdown'],
        [{ ...post, markdown: '[clic](javascript:alert(1))' }, 'body.posts.0.markdown'],
        [{ ...post, markdown: '<img src=x onerror=alert(1)>' }, 'body.posts.0.markdown'],
      ];
      for (const [changed, field] of bad) {
        const answer = await save(ctx, content, { posts: [changed, ...live.posts.slice(1)] });
        expect(answer.status, answer.text).toBe(400);
        expect(answer.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toContain(field);
      }
      const unknown = await save(ctx, content, { posts: [{ ...post, categoryId: 999_999 }, ...live.posts.slice(1)] });
      expect(unknown.status, unknown.text).toBe(200);
      const refused = await asOperator(ctx, content, 'POST', path('/publish'), {
        baseVersion: unknown.json<{ version: number }>().version,
      });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toContain(
        'body.posts.0.categoryId',
      );
    });
  },
  {},
  { now: clock.now },
);
