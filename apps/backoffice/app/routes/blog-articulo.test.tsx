import { describe, expect, it } from 'vitest';
import { type BlogPostBody, blogFromForm, withImageLine } from '#app/features/blog.ts';
import { answerOf, contractApi, formPost, meAnswer, pageRequest, thrownBy } from '#app/test/fake-api.ts';
import { renderPage } from '#app/test/render.tsx';
import { BlogListView, loader as listLoader } from './blog.tsx';
import { action, BlogPostView, loader } from './blog-articulo.tsx';

const live: BlogPostBody = {
  title: 'Qué llevar a Japón',
  slug: 'que-llevar-a-japon',
  categoryId: 2,
  summary: 'Lo que no puede faltar.',
  canonicalUrl: null,
  image: null,
  markdown: '## Maleta\n\nUn **adaptador**.',
  visible: false,
};
const item = { live, draft: null, changes: [], scheduled: null };
const categories = [
  { id: 1, label: 'Consejos de viaje' },
  { id: 2, label: 'Destinos' },
];
const fieldsOf = (body: BlogPostBody, extra: Record<string, string>) => ({
  csrf: 'csrf-1',
  version: '2',
  title: body.title,
  slug: body.slug,
  categoryId: String(body.categoryId),
  summary: body.summary,
  canonicalUrl: body.canonicalUrl ?? '',
  image: body.image ?? '',
  markdown: body.markdown,
  ...(body.visible ? { visible: 'on' } : {}),
  ...extra,
});

describe('«Blog» (content writes and publishes posts)', () => {
  it('lists posts by state; support may not open it', async () => {
    const { context } = contractApi({
      'GET /me': meAnswer(['content']),
      'GET /blog-posts': {
        status: 200,
        body: {
          posts: [
            { id: 10, title: 'Nuevo', slug: 'nuevo', category: 'Destinos', state: 'draft', publishedAt: null },
            {
              id: 1,
              title: 'Equipaje',
              slug: 'equipaje',
              category: 'Consejos de viaje',
              state: 'published',
              publishedAt: '2026-01-12T12:00:00Z',
            },
          ],
          categories,
        },
      },
    });
    const data = await listLoader({ request: pageRequest('/blog'), context, params: {} } as never);
    const html = renderPage(<BlogListView {...data} csrfToken="c" />);
    expect(html).toContain('href="/blog/10"');
    expect(html).toContain('Borrador');
    expect(html).toContain('Publicado');
    expect(html).toContain('Crear borrador');
    const outsider = contractApi({ 'GET /me': meAnswer(['support']) });
    const thrown = await thrownBy(() =>
      listLoader({ request: pageRequest('/blog'), context: outsider.context, params: {} } as never),
    );
    expect(thrown).toMatchObject({ init: { status: 403 } });
  });

  it('the editor shows the fields, the Markdown and its preview, and the publishing section', async () => {
    const { context } = contractApi({
      'GET /me': meAnswer(['content']),
      'GET /blog/10': {
        status: 200,
        body: {
          ...item,
          draft: { body: live, version: 2, updatedAt: '2026-11-27T15:00:00Z', updatedBy: 'ana@travesia.cl' },
        },
      },
      'GET /blog-posts': { status: 200, body: { posts: [], categories } },
      'GET /blog/10/history': { status: 200, body: { publications: [] } },
    });
    const data = await loader({ request: pageRequest('/blog/10'), context, params: { id: '10' } } as never);
    const html = renderPage(
      <BlogPostView {...data} csrfToken="c" result={{ ok: true, message: '', previewHtml: '<h2>Maleta</h2>' }} />,
    );
    expect(html).toContain('Texto (Markdown)');
    expect(html).toContain('## Maleta');
    expect(html).toContain('<h2>Maleta</h2>');
    expect(html).toContain('Crear enlace de vista previa');
    expect(html).toContain('value="2" selected=""');
  });

  it('saves the draft as typed, with errors in words beside their fields; the preview is sanitised again', async () => {
    const { context, calls } = contractApi({
      'PUT /blog/10/draft': {
        status: 400,
        body: {
          detail: 'Los datos del borrador no son válidos',
          errors: [{ field: 'body.slug', code: 'invalid', message: 'El slug usa solo minúsculas sin tildes.' }],
        },
      },
      'POST /blog-markdown': { status: 200, body: { html: '<p>Hola<script>alert(1)</script></p>' } },
    });
    const post = (fields: Record<string, string>) =>
      action({ request: formPost('/blog/10', fields), context, params: { id: '10' } } as never);
    const refused = answerOf<{ ok: boolean; errors: Record<string, string>; body: BlogPostBody }>(
      await post(fieldsOf({ ...live, slug: 'Con Espacios', visible: true }, { intent: 'guardar' })),
    );
    expect(refused.status).toBe(400);
    expect(refused.data.errors).toStrictEqual({ slug: 'El slug usa solo minúsculas sin tildes.' });
    expect(refused.data.body.slug).toBe('Con Espacios');
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.body).toStrictEqual({ baseVersion: 2, body: { ...live, slug: 'Con Espacios', visible: true } });
    const html = renderPage(
      <BlogPostView item={item} categories={categories} history={[]} csrfToken="c" result={refused.data as never} />,
    );
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('El slug usa solo minúsculas sin tildes.');

    const preview = answerOf<{ previewHtml: string }>(
      await post({ csrf: 'c', intent: 'vista-texto', markdown: 'Hola' }),
    );
    expect(preview.data.previewHtml).toBe('<p>Hola</p>');
  });

  it('reads the form and adds an uploaded image as a paragraph of its own', () => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fieldsOf({ ...live, canonicalUrl: 'https://a.example/x' }, {})))
      form.set(name, value);
    expect(blogFromForm(form)).toStrictEqual({ ...live, canonicalUrl: 'https://a.example/x' });
    expect(withImageLine('Texto\n', '![a](/api/blog-images/x/large.webp)')).toBe(
      'Texto\n\n![a](/api/blog-images/x/large.webp)\n',
    );
    expect(withImageLine('', '![a](/x)')).toBe('![a](/x)');
    form.set('image', '/api/blog-images/00000000-0000-4000-8000-000000000000/large.webp');
    form.set('sin-portada', 'on');
    expect(blogFromForm(form).image).toBeNull();
  });
});
