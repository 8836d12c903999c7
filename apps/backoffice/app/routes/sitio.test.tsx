import { describe, expect, it } from 'vitest';
import type { PublishingResult } from '#app/features/publishing.ts';
import { footerFromForm, siteSections } from '#app/features/site.ts';
import { answerOf, contractApi, formPost, meAnswer, pageRequest, thrownBy } from '#app/test/fake-api.ts';
import { renderPage } from '#app/test/render.tsx';
import { SiteView } from './sitio.tsx';
import { action, loader, SectionView } from './sitio-seccion.tsx';

const footer = {
  menus: [
    {
      forecolor: '#c9dde0',
      bold: true,
      label: 'Travesía',
      items: [
        { label: 'Quiénes somos', forecolor: '#c9dde0', bold: false, href: '/quienes-somos', target: '_self' as const },
        { label: 'Blog', forecolor: '#c9dde0', bold: false, href: '/blog', target: '_self' as const },
      ],
    },
  ],
  socialMedia: [
    { icon: '/img/social/facebook.svg', href: 'https://www.facebook.com/travesia.cl', target: '_blank' as const },
  ],
  logo: '/img/logo-white.svg',
  copyright: 'Travesía SpA.',
  background: '#073b45',
  usaSuscription: true,
  usaSocialNetwork: true,
};
const item = { live: footer, draft: null, changes: [], scheduled: null };
const history = [
  {
    id: 9,
    status: 'published' as const,
    publishAt: '2026-11-28T12:30:00.000Z',
    publishAtChile: '2026-11-28T09:30',
    publishedAt: '2026-11-28T12:30:00.000Z',
    createdBy: 'contenido@travesia.cl',
    rollbackOf: null,
    changes: ['Pie de página · derechos: «Travesía» → «Travesía SpA.»'],
  },
];
const answers = (roles: ('admin' | 'content' | 'support')[]) => ({
  'GET /me': meAnswer(roles),
  'GET /site-footer/main': { status: 200, body: item },
  'GET /site-footer/main/history': { status: 200, body: { publications: history } },
});
const params = { seccion: 'pie' };

describe('«El sitio» (content edits and publishes)', () => {
  it('lists every section, and shows the footer as a form with its history and rollbacks', async () => {
    const list = renderPage(<SiteView />);
    for (const section of siteSections) expect(list).toContain(`/sitio/${section.slug}`);
    const { context } = contractApi(answers(['content']));
    const data = await loader({ request: pageRequest('/sitio/pie'), context, params } as never);
    const html = renderPage(<SectionView {...data} csrfToken="c" />);
    expect(html).toContain('Pie de página');
    expect(html).toContain('value="Quiénes somos"');
    expect(html).toContain('Nuevo enlace: texto');
    expect(html).toContain('Pie de página · derechos: «Travesía» → «Travesía SpA.»');
    expect(html).toContain('Volver a la versión anterior');
    // Nothing to publish before a draft is saved.
    expect(html).not.toContain('name="publicar-el"');
  });

  it('support may not open it; an unknown section is a 404', async () => {
    const outsider = contractApi({ 'GET /me': meAnswer(['support']) });
    expect(
      await thrownBy(() => loader({ request: pageRequest('/sitio/pie'), context: outsider.context, params } as never)),
    ).toMatchObject({ init: { status: 403 } });
    const editor = contractApi(answers(['content']));
    expect(
      await thrownBy(() =>
        loader({ request: pageRequest('/sitio/x'), context: editor.context, params: { seccion: 'x' } } as never),
      ),
    ).toMatchObject({ init: { status: 404 } });
  });

  it('saves the footer form as a draft from the version shown: a link added, one removed, the copyright changed', async () => {
    const { context, calls } = contractApi({
      ...answers(['content']),
      'PUT /site-footer/main/draft': { status: 200, body: { version: 1 } },
    });
    const answer = answerOf<PublishingResult>(
      await action({
        request: formPost('/sitio/pie', {
          csrf: 'csrf-1',
          version: '0',
          intent: 'guardar',
          'columna-0': 'Travesía',
          'columna-0-enlace-0-texto': 'Quiénes somos',
          'columna-0-enlace-0-direccion': '/quienes-somos',
          'columna-0-enlace-1-texto': '',
          'columna-0-enlace-1-direccion': '',
          'columna-0-enlace-nuevo-texto': 'Trabaja con nosotros',
          'columna-0-enlace-nuevo-direccion': 'https://empleos.travesia.cl',
          'red-0': 'https://www.facebook.com/travesia.cl',
          derechos: 'Travesía SpA. Todos los derechos reservados.',
          suscripcion: 'si',
        }),
        context,
        params,
      } as never),
    );
    expect(answer.data).toMatchObject({ ok: true, message: expect.stringContaining('Borrador guardado (versión 1)') });
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.headers.get('x-csrf-token')).toBe('csrf-1');
    expect(put?.body).toMatchObject({
      baseVersion: 0,
      body: {
        copyright: 'Travesía SpA. Todos los derechos reservados.',
        usaSocialNetwork: false,
        menus: [
          {
            items: [
              { label: 'Quiénes somos', href: '/quienes-somos' },
              { label: 'Trabaja con nosotros', href: 'https://empleos.travesia.cl', target: '_blank' },
            ],
          },
        ],
      },
    });
  });

  it('shows the API’s field errors by path on the navigation form, and publishes', async () => {
    const { context, calls } = contractApi({
      'GET /me': meAnswer(['content']),
      'GET /site-navigation/main': { status: 200, body: { ...item, live: { logo: '/img/logo.svg', items: [] } } },
      'PUT /site-navigation/main/draft': {
        status: 400,
        body: {
          message: 'Los datos del borrador no son válidos',
          errors: [{ field: 'body.items.0.href', code: 'invalid', message: 'Usa una dirección http(s)://…' }],
        },
      },
      'POST /site-footer/main/publish': { status: 200, body: { publication: history[0], version: 2 } },
    });
    const post = (seccion: string, fields: Record<string, string>) =>
      action({
        request: formPost(`/sitio/${seccion}`, { csrf: 'c', ...fields }),
        context,
        params: { seccion },
      } as never);
    const refused = answerOf<PublishingResult>(
      await post('navegacion', {
        intent: 'guardar',
        version: '0',
        logo: '/img/logo.svg',
        'items.cantidad': '0',
        'items.nuevo.label': 'Ayuda',
        'items.nuevo.href': 'javascript:x',
        'items.nuevo.target': '_self',
        'items.nuevo.isButton': 'si',
      }),
    );
    expect(refused.status).toBe(400);
    expect(refused.data.errors).toStrictEqual({ 'items.0.href': 'Usa una dirección http(s)://…' });
    expect(calls.find((call) => call.method === 'PUT')?.body).toStrictEqual({
      baseVersion: 0,
      body: {
        logo: '/img/logo.svg',
        items: [
          {
            label: 'Ayuda',
            href: 'javascript:x',
            target: '_self',
            isMenu: false,
            isButton: true,
            colorPrimario: null,
            colorSecundario: null,
            items1: [],
          },
        ],
      },
    });
    // The refused input is marked on the form shown again.
    const data = await loader({
      request: pageRequest('/sitio/navegacion'),
      context,
      params: { seccion: 'navegacion' },
    } as never);
    const html = renderPage(<SectionView {...data} csrfToken="c" result={refused.data} />);
    expect(html).toContain('items.0.href: Usa una dirección http(s)://…');
    expect(html).toContain('Agregar: ítem');
    const published = answerOf<PublishingResult>(await post('pie', { intent: 'publicar', version: '1' }));
    expect(published.data.message).toBe('Pie de página: publicado. La tienda ya lo muestra.');
    expect(calls.find((call) => call.path === '/site-footer/main/publish')?.body).toStrictEqual({ baseVersion: 1 });
  });

  it('reads the footer form over the footer it showed (colours, icons and logo kept)', () => {
    const form = new FormData();
    form.set('columna-0', 'Travesía');
    form.set('columna-0-enlace-0-texto', 'Blog');
    form.set('columna-0-enlace-0-direccion', '/blog');
    form.set('red-0', '');
    form.set('redes', 'si');
    const next = footerFromForm(form, footer);
    expect(next.menus[0]?.items).toStrictEqual([{ ...footer.menus[0]?.items[0], label: 'Blog', href: '/blog' }]);
    expect(next.socialMedia).toStrictEqual([]);
    expect(next.logo).toBe(footer.logo);
    expect(next.usaSuscription).toBe(false);
  });
});
