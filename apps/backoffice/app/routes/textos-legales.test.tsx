import { describe, expect, it } from 'vitest';
import type { PublishingResult } from '#app/features/publishing.ts';
import { navigationFor } from '#app/lib/navigation.ts';
import { answerOf, contractApi, formPost, meAnswer, pageRequest, thrownBy } from '#app/test/fake-api.ts';
import { renderPage } from '#app/test/render.tsx';
import { action, LegalPagesView, loader } from './textos-legales.tsx';

const live = {
  title: 'Políticas de privacidad',
  description: 'Cómo tratamos tus datos.',
  bodyHtml: '<h2>Datos</h2><p>Versión vigente.</p>',
};
const answers = (roles: ('admin' | 'content' | 'support')[]) => ({
  'GET /me': meAnswer(roles),
  'GET /legal-pages/politicas': { status: 200, body: { live, draft: null, changes: [], scheduled: null } },
  'GET /legal-pages/politicas/history': { status: 200, body: { publications: [] } },
});

describe('«Textos legales» (content edits and publishes versions)', () => {
  it('opens the page the URL names, with its three pages as links and the text as a form', async () => {
    const { context } = contractApi(answers(['content']));
    const data = await loader({ request: pageRequest('/textos-legales?pagina=politicas'), context } as never);
    const html = renderPage(<LegalPagesView {...data} csrfToken="c" />);
    expect(html).toContain('aria-current="page"');
    expect(html).toContain('Términos y condiciones');
    expect(html).toContain('value="Políticas de privacidad"');
    expect(html).toContain('&lt;h2&gt;Datos&lt;/h2&gt;&lt;p&gt;Versión vigente.&lt;/p&gt;</textarea>');
    expect(html).toContain('Cada publicación es una versión nueva');
    expect(html).toContain('href="/politicas"');
  });

  it('saves the form as the page draft with the CSRF token; an empty text comes back in words', async () => {
    const { context, calls } = contractApi({
      ...answers(['content']),
      'PUT /legal-pages/politicas/draft': { status: 200, body: { version: 1 } },
    });
    const answer = answerOf<PublishingResult>(
      await action({
        request: formPost('/textos-legales?pagina=politicas', {
          csrf: 'csrf-7',
          version: '0',
          intent: 'guardar',
          titulo: ' Políticas de privacidad ',
          descripcion: 'Cómo tratamos tus datos.',
          texto: '<p>Versión 2.</p>',
        }),
        context,
      } as never),
    );
    expect(answer.data.ok).toBe(true);
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.headers.get('x-csrf-token')).toBe('csrf-7');
    expect(put?.body).toStrictEqual({
      baseVersion: 0,
      body: {
        title: 'Políticas de privacidad',
        description: 'Cómo tratamos tus datos.',
        bodyHtml: '<p>Versión 2.</p>',
      },
    });
    const html = renderPage(
      <LegalPagesView
        {...(await loader({ request: pageRequest('/textos-legales?pagina=politicas'), context } as never))}
        csrfToken="c"
        result={{ ok: false, message: 'Revisa', errors: { bodyHtml: 'Escribe el texto de la página' } }}
      />,
    );
    expect(html).toContain('Texto: Escribe el texto de la página');
  });

  it('is for content and administrators only', async () => {
    const { context } = contractApi({ 'GET /me': meAnswer(['support']) });
    expect(await thrownBy(() => loader({ request: pageRequest('/textos-legales'), context } as never))).toMatchObject({
      init: { status: 403 },
    });
    expect(navigationFor(['support']).map((entry) => entry.path)).not.toContain('/textos-legales');
    expect(navigationFor(['content']).map((entry) => entry.path)).toContain('/textos-legales');
  });
});
