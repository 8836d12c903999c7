import { describe, expect, it } from 'vitest';
import { postKeyOf, postState } from '#app/features/blog.ts';
import { answerOf, contractApi, formPost, meAnswer, pageRequest, thrownBy } from '#app/test/fake-api.ts';
import { renderPage } from '#app/test/render.tsx';
import { action, type BlogResult, BlogView, loader } from './blog.tsx';

const posts = [
  {
    id: 4,
    categoryId: 1,
    title: 'Primer viaje a Europa',
    summary: 'Schengen paso a paso.',
    image: '/img/blog/europa-schengen.svg',
    markdown: '<p>Texto.</p>',
    publishAtChile: '2026-01-10T09:00',
  },
  {
    id: 9,
    categoryId: 2,
    title: 'Viajar en invierno',
    summary: 'Pronto.',
    image: null,
    markdown: 'Pronto.',
    publishAtChile: '2099-06-01T09:00',
  },
];
const answers = (roles: ('admin' | 'content' | 'support')[]) => ({
  'GET /me': meAnswer(roles),
  'GET /blog/posts': { status: 200, body: { live: { posts }, draft: null, changes: [], scheduled: null } },
  'GET /blog-categories': {
    status: 200,
    body: {
      categories: [
        { id: 1, label: 'Consejos de viaje' },
        { id: 2, label: 'Asistencia y coberturas' },
      ],
    },
  },
  'GET /blog/posts/history': { status: 200, body: { publications: [] } },
});

describe('«Blog» (content writes posts in Markdown)', () => {
  it('lists the posts with their category and state (published or scheduled), each linked to its editor', async () => {
    const { context } = contractApi(answers(['content']));
    const data = await loader({ request: pageRequest('/blog'), context } as never);
    const html = renderPage(<BlogView {...data} csrfToken="c" />);
    expect(html).toContain('articulo=4');
    expect(html).toContain('Consejos de viaje');
    expect(html).toContain('Publicado');
    expect(html).toContain('Programado para el 2099-06-01 a las 09:00');
    expect(html).toContain('Nuevo artículo');
    expect(postKeyOf('nuevo')).toBe('nuevo');
    expect(postKeyOf('12')).toBe(12);
    expect(postKeyOf('x')).toBeNull();
    expect(postState(posts[1] as never, '2026-11-28T10:00')).toContain('Programado');
  });

  it('opens one post as a form and saves it into the whole draft with the CSRF token', async () => {
    const { context, calls } = contractApi({
      ...answers(['content']),
      'PUT /blog/posts/draft': { status: 200, body: { version: 1 } },
    });
    const data = await loader({ request: pageRequest('/blog?articulo=4'), context } as never);
    const html = renderPage(<BlogView {...data} csrfToken="c" />);
    expect(html).toContain('Editar «Primer viaje a Europa»');
    expect(html).toContain('name="texto"');
    expect(html).toContain('value="2026-01-10T09:00"');
    const answer = answerOf<BlogResult>(
      await action({
        request: formPost('/blog?articulo=4', {
          csrf: 'csrf-2',
          version: '0',
          intent: 'guardar',
          titulo: 'Primer viaje a Europa (2026)',
          categoria: '1',
          'publicar-el': '2026-01-10T09:00',
          resumen: 'Schengen paso a paso.',
          imagen: '',
          texto: '# Schengen',
        }),
        context,
      } as never),
    );
    expect(answer.data.ok).toBe(true);
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.headers.get('x-csrf-token')).toBe('csrf-2');
    expect(put?.body).toStrictEqual({
      baseVersion: 0,
      body: {
        posts: [
          {
            id: 4,
            categoryId: 1,
            title: 'Primer viaje a Europa (2026)',
            summary: 'Schengen paso a paso.',
            image: null,
            markdown: '# Schengen',
            publishAtChile: '2026-01-10T09:00',
          },
          posts[1],
        ],
      },
    });
  });

  it('previews the text through the API and shows a refused one in words; support may not open it', async () => {
    const { context } = contractApi({
      ...answers(['content']),
      'POST /blog-preview': { status: 200, body: { html: '<h2>Schengen</h2>' } },
    });
    const preview = answerOf<BlogResult>(
      await action({
        request: formPost('/blog?articulo=4', { csrf: 'c', intent: 'previsualizar', texto: '# Schengen' }),
        context,
      } as never),
    );
    expect(preview.data.previewHtml).toBe('<h2>Schengen</h2>');
    const outsider = contractApi({ 'GET /me': meAnswer(['support']) });
    expect(
      await thrownBy(() => loader({ request: pageRequest('/blog'), context: outsider.context } as never)),
    ).toMatchObject({ init: { status: 403 } });
  });
});
