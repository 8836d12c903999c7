import { sanitizeHtml } from '@travesia/domain/sanitize-html';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import { auditEntries, blogPosts } from '#app/db/schema.ts';
import type { BlogPostBody } from '#app/modules/blog/blog-kind.ts';
import { asOperator, enrolledOperator, minute, type Operator, TestClock } from './support/backoffice.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { call, get } from './support/http.ts';
import { publishingWorker } from './support/publishing-worker.ts';

/**
 * The blog as a kind of the publishing model (issue 25 item 7): a new post, its Markdown rendered and sanitised, its
 * images uploaded and served, published now or at a time, previewed, retired, rolled back; role and audit.
 */

type Item = { live: BlogPostBody; draft: { body: BlogPostBody; version: number } | null; changes: string[] };
type Listed = { id: number; title: string; state: 'published' | 'scheduled' | 'draft' };

const clock = new TestClock();
const path = (key: number | string, rest = '') => `/api/backoffice/blog/${key}${rest}`;

const hostileMarkdown = [
  'Texto **seguro**.',
  '<script>alert(1)</script>',
  'Una imagen <img src="x" onerror="alert(1)"> y [enlace](javascript:alert(1)) y <a href="JaVaScRiPt:alert(2)">otro</a>',
  '<p style="background:url(javascript:alert(1))">fondo</p><p style="width:expression(alert(1))">ancho</p>',
].join('\n\n');

function expectHarmless(text: string) {
  expect(text).not.toMatch(/<script|<style|<iframe|\son\w+=|(href|src)="?\s*javascript:|style=|expression\(/i);
}

const storefrontPost = (ctx: TestContext, id: number, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url: `/api/companies/1/blog-posts/${id}`, headers });

async function savedDraft(ctx: TestContext, operator: Operator, key: number, body: BlogPostBody, baseVersion: number) {
  const saved = await asOperator(ctx, operator, 'PUT', path(key, '/draft'), { body, baseVersion });
  expect(saved.status, saved.text).toBe(200);
  return saved.json<{ version: number }>().version;
}

describeOnEachDatabase(
  'Publishing the blog (issue 25 item 7)',
  (ctx) => {
    let content: Operator;
    let support: Operator;
    beforeAll(async () => {
      content = await enrolledOperator(ctx, 'contenido@travesia.cl', ['content'], clock);
      support = await enrolledOperator(ctx, 'soporte@travesia.cl', ['support'], clock);
    });

    it('a new post: Markdown sanitised on save and on publish, a preview link, published, edited, retired, rolled back, audited', async () => {
      expect(
        (await asOperator(ctx, support, 'POST', '/api/backoffice/blog-posts', { title: 'No', categoryId: 1 })).status,
      ).toBe(403);
      const created = await asOperator(ctx, content, 'POST', '/api/backoffice/blog-posts', {
        title: '¿Qué llevar a Japón?',
        categoryId: 2,
      });
      expect(created.status, created.text).toBe(200);
      const { id, slug } = created.json<{ id: number; slug: string }>();
      expect(slug).toBe('que-llevar-a-japon');
      const list = (await asOperator(ctx, content, 'GET', '/api/backoffice/blog-posts')).json<{ posts: Listed[] }>();
      expect(list.posts.find((post) => post.id === id)).toMatchObject({ state: 'draft' });
      expect((await storefrontPost(ctx, id)).statusCode).toBe(404);

      const item = (await asOperator(ctx, content, 'GET', path(id))).json<Item>();
      expect(item.live.visible).toBe(false);
      const body: BlogPostBody = {
        ...item.live,
        summary: 'Lo que no puede faltar en tu maleta.',
        canonicalUrl: null,
        image: null,
        markdown: hostileMarkdown,
        visible: true,
      };
      // Fields in words: a bad slug, an http canonical URL, a foreign image, an empty text.
      const bad = await asOperator(ctx, content, 'PUT', path(id, '/draft'), {
        body: {
          ...body,
          slug: 'Con Espacios',
          canonicalUrl: 'http://otro.cl/a',
          image: 'https://evil.example/x.png',
          markdown: '<script>x</script>',
        },
        baseVersion: 0,
      });
      expect(bad.status, bad.text).toBe(400);
      const fields = bad.json<{ errors: { field: string; message: string }[] }>().errors.map((e) => e.field);
      expect(fields).toEqual(expect.arrayContaining(['body.slug', 'body.canonicalUrl', 'body.image', 'body.markdown']));

      const version = await savedDraft(ctx, content, id, body, 0);
      const stored = (await asOperator(ctx, content, 'GET', path(id))).json<Item>();
      expectHarmless(stored.draft?.body.markdown ?? '');
      expect(stored.draft?.body.markdown).toContain('Texto **seguro**.');
      expect(stored.changes).toContain('Se muestra en la tienda');

      // The editor's live preview renders as publishing will.
      const rendered = await asOperator(ctx, content, 'POST', '/api/backoffice/blog-markdown', {
        markdown: hostileMarkdown,
      });
      expect(rendered.status, rendered.text).toBe(200);
      const { html } = rendered.json<{ html: string }>();
      expect(html).toContain('<strong>seguro</strong>');
      expectHarmless(html);

      // A preview link opens the draft on its article page only, never kept nor indexed.
      const link = await asOperator(ctx, content, 'POST', path(id, '/preview-link'));
      expect(link.status, link.text).toBe(200);
      const url = new URL(link.json<{ url: string }>().url);
      expect(url.pathname).toBe(`/blog-interior/${id}/que-llevar-a-japon`);
      const token = url.searchParams.get('vista-previa') as string;
      const preview = await storefrontPost(ctx, id, { 'x-vista-previa': token });
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.headers['x-robots-tag']).toBe('noindex');
      expect(preview.headers['cache-control']).toBe('no-store');
      expect(preview.json<{ title: string }>().title).toBe('¿Qué llevar a Japón?');
      expect((await storefrontPost(ctx, 1, { 'x-vista-previa': token })).statusCode).toBe(403);
      expect((await storefrontPost(ctx, id)).statusCode).toBe(404);

      const published = await asOperator(ctx, content, 'POST', path(id, '/publish'), { baseVersion: version });
      expect(published.status, published.text).toBe(200);
      const shown = await storefrontPost(ctx, id);
      expect(shown.statusCode, shown.body).toBe(200);
      const post = shown.json<{ bodyHtml: string; canonicalUrl: string; slug: string }>();
      expect(post.bodyHtml).toContain('<strong>seguro</strong>');
      expectHarmless(post.bodyHtml);
      expectHarmless(sanitizeHtml(post.bodyHtml));
      expect(post.canonicalUrl).toMatch(new RegExp(`/blog-interior/${id}/que-llevar-a-japon$`));
      const [row] = await ctx.app.db.select().from(blogPosts).where(eq(blogPosts.id, id));
      expectHarmless(row?.bodyHtml ?? '');
      const listed = (await get(ctx.app, '/api/companies/1/blog-posts?category=destinos')).json<{
        posts: { id: number }[];
      }>();
      expect(listed.posts[0]?.id).toBe(id);

      // Another post's slug is refused at publish, in words; a canonical URL of another site is its canonical.
      const seeded = (await asOperator(ctx, content, 'GET', path(1))).json<Item>().live;
      const taken = await savedDraft(ctx, content, id, { ...body, slug: seeded.slug }, version + 1);
      const clash = await asOperator(ctx, content, 'POST', path(id, '/publish'), { baseVersion: taken });
      expect(clash.status, clash.text).toBe(400);
      expect(clash.text).toContain('Otro artículo ya usa este slug');
      const edited = await savedDraft(
        ctx,
        content,
        id,
        { ...body, title: 'Qué llevar a Japón en invierno', canonicalUrl: 'https://revista.example/japon' },
        taken,
      );
      expect((await asOperator(ctx, content, 'POST', path(id, '/publish'), { baseVersion: edited })).status).toBe(200);
      expect((await storefrontPost(ctx, id)).json<{ canonicalUrl: string; title: string }>()).toMatchObject({
        canonicalUrl: 'https://revista.example/japon',
        title: 'Qué llevar a Japón en invierno',
      });

      // Retired: hidden again; rolled back to the publication before: shown again.
      const retired = await savedDraft(ctx, content, id, { ...body, visible: false }, edited + 1);
      expect((await asOperator(ctx, content, 'POST', path(id, '/publish'), { baseVersion: retired })).status).toBe(200);
      expect((await storefrontPost(ctx, id)).statusCode).toBe(404);
      const history = (await asOperator(ctx, content, 'GET', path(id, '/history'))).json<{
        publications: { id: number; changes: string[] }[];
      }>().publications;
      expect(history[0]?.changes).toContain('Se retira de la tienda');
      const rolled = await asOperator(ctx, content, 'POST', path(id, '/rollback'), {
        publicationId: history[0]?.id,
        to: 'before',
      });
      expect(rolled.status, rolled.text).toBe(200);
      expect((await storefrontPost(ctx, id)).json<{ title: string }>().title).toBe('Qué llevar a Japón en invierno');

      const audit = await ctx.app.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.targetType, 'blog'), eq(auditEntries.targetId, String(id))));
      expect(audit.map((entry) => entry.action)).toEqual(
        expect.arrayContaining([
          'blog.post_created',
          'publishing.draft_saved',
          'publishing.published',
          'publishing.rolled_back',
        ]),
      );
      expect(audit.every((entry) => entry.actorLabel === 'contenido@travesia.cl')).toBe(true);
    });

    it('a scheduled post is shown when its publication is applied, not before', async () => {
      const created = await asOperator(ctx, content, 'POST', '/api/backoffice/blog-posts', {
        title: 'Programado',
        categoryId: 1,
      });
      const { id } = created.json<{ id: number }>();
      const item = (await asOperator(ctx, content, 'GET', path(id))).json<Item>();
      const version = await savedDraft(
        ctx,
        content,
        id,
        { ...item.live, summary: 'Sale más tarde.', markdown: 'Hola.', visible: true },
        0,
      );
      const publishAt = new Date(Date.now() + 2_500);
      const scheduled = await asOperator(ctx, content, 'POST', path(id, '/publish'), {
        baseVersion: version,
        publishAt: publishAt.toISOString(),
      });
      expect(scheduled.status, scheduled.text).toBe(200);
      const list = (await asOperator(ctx, content, 'GET', '/api/backoffice/blog-posts')).json<{ posts: Listed[] }>();
      expect(list.posts.find((post) => post.id === id)?.state).toBe('scheduled');
      const worker = publishingWorker(ctx);
      await worker.runJobs();
      expect((await storefrontPost(ctx, id)).statusCode).toBe(404);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, publishAt.getTime() - Date.now() + 300)));
      await worker.runJobs();
      expect((await storefrontPost(ctx, id)).statusCode).toBe(200);
      clock.advance(minute);
    });

    it('/sitemap.xml lists the public pages and the published posts at PUBLIC_URL, never at the Host asked', async () => {
      const created = await asOperator(ctx, content, 'POST', '/api/backoffice/blog-posts', {
        title: 'Sin publicar',
        categoryId: 1,
      });
      const hidden = created.json<{ id: number; slug: string }>();
      const answer = await ctx.app.inject({ method: 'GET', url: '/sitemap.xml', headers: { host: 'evil.example' } });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^application\/xml/);
      const origin = (ctx.config.publicUrl ?? `http://localhost:${ctx.config.port}`).replace(/\/+$/, '');
      const seeded = (await asOperator(ctx, content, 'GET', path(1))).json<Item>().live;
      expect(answer.body).toContain(`<loc>${origin}/blog</loc>`);
      expect(answer.body).toContain(`<loc>${origin}/faq</loc>`);
      expect(answer.body).toContain(`<loc>${origin}/blog-interior/1/${seeded.slug}</loc>`);
      expect(answer.body).not.toContain(`/blog-interior/${hidden.id}/`);
      expect(answer.body).not.toContain('evil.example');
    });

    it('an image is checked, resized and served; it can be the cover', async () => {
      const png = await sharp({ create: { width: 2400, height: 1200, channels: 3, background: '#0b5563' } })
        .png()
        .toBuffer();
      const upload = (name: string, bytes: Buffer) =>
        call(ctx.app, {
          method: 'POST',
          url: `/api/backoffice/blog-images?nombre=${encodeURIComponent(name)}`,
          payload: bytes,
          headers: {
            cookie: content.cookie,
            'x-csrf-token': content.csrfToken,
            'content-type': 'application/octet-stream',
          },
        });
      const image = await upload('playa.png', png);
      expect(image.status, image.text).toBe(200);
      const { url, markdown } = image.json<{ url: string; markdown: string }>();
      expect(markdown).toBe(`![playa](${url})`);
      const served = await ctx.app.inject({ method: 'GET', url });
      expect(served.statusCode).toBe(200);
      expect(await sharp(served.rawPayload).metadata()).toMatchObject({ width: 1280, height: 640, format: 'webp' });
      const svg = await upload('x.png', Buffer.from('<svg onload="alert(1)"/>'));
      expect(svg.status, svg.text).toBe(400);
      expect(svg.text).toContain('no es una imagen PNG o JPG');

      const item = (await asOperator(ctx, content, 'GET', path(1))).json<Item>();
      const version = await savedDraft(
        ctx,
        content,
        1,
        { ...item.live, image: url, markdown: `${item.live.markdown}\n\n${markdown}` },
        item.draft?.version ?? 0,
      );
      expect((await asOperator(ctx, content, 'POST', path(1, '/publish'), { baseVersion: version })).status).toBe(200);
      const post = (await storefrontPost(ctx, 1)).json<{ image: string; bodyHtml: string }>();
      expect(post.image).toBe(url);
      expect(post.bodyHtml).toContain(`<img src="${url}" alt="playa"`);
      const uploaded = await ctx.app.db
        .select()
        .from(auditEntries)
        .where(eq(auditEntries.action, 'blog.image_uploaded'));
      expect(uploaded.map((entry) => entry.after)).toContainEqual({ url });
    });
  },
  {},
  { now: clock.now },
);
