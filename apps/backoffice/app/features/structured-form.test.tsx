import { describe, expect, it } from 'vitest';
import { ObjectFields } from '#app/components/StructuredFields.tsx';
import { renderPage } from '#app/test/render.tsx';
import { structuredFields } from './site.ts';
import { documentFromForm, type ObjectSpec } from './structured-form.ts';

/**
 * The structured forms of «El sitio»: what the rendered form posts, read back, is the document it showed (nothing
 * lost, nothing invented), and an operator's edits (remove, reorder, add, blank optional fields) land where meant.
 */

const decode = (text: string) =>
  text
    .replaceAll('&quot;', '"')
    .replaceAll('&#x27;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
const attribute = (tag: string, name: string) => {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match ? decode(match[1] ?? '') : null;
};

/** What a browser posts for the form's markup: inputs (checked boxes only), textareas and selected options. */
function postedForm(html: string): FormData {
  const form = new FormData();
  for (const [tag] of html.matchAll(/<input\b[^>]*>/g)) {
    const name = attribute(tag, 'name');
    if (name === null) continue;
    if (attribute(tag, 'type') === 'checkbox') {
      if (/\schecked=""/.test(tag)) form.append(name, attribute(tag, 'value') ?? 'on');
    } else form.append(name, attribute(tag, 'value') ?? '');
  }
  for (const [, attributes, content] of html.matchAll(/<textarea\b([^>]*)>([\s\S]*?)<\/textarea>/g)) {
    const name = attribute(attributes ?? '', 'name');
    // A browser drops the newline right after <textarea>.
    if (name !== null) form.append(name, decode(content ?? '').replace(/^\n/, ''));
  }
  for (const [, attributes, options] of html.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/g)) {
    const name = attribute(attributes ?? '', 'name');
    const chosen = /<option[^>]*selected=""[^>]*>/.exec(options ?? '')?.[0] ?? /<option[^>]*>/.exec(options ?? '')?.[0];
    if (name !== null && chosen) form.append(name, attribute(chosen, 'value') ?? '');
  }
  return form;
}

const formOf = (fields: ObjectSpec, document: Record<string, unknown>) =>
  postedForm(renderPage(<ObjectFields fields={fields} value={document} errors={{}} />));

const spec = (kind: string) => {
  const fields = structuredFields[kind];
  if (!fields) throw new Error(`no form for ${kind}`);
  return fields;
};

const contacts = {
  help: [
    {
      label: 'Asistencia 24/7 & emergencias',
      phone: '+56 2 2640 2020',
      whatsapp: '+56 9 1234 5678',
      icon: '/img/icons/phone.svg',
      isEmergency: true,
      isSaleContact: false,
    },
    {
      label: 'Ventas',
      phone: '+56 2 2640 2021',
      whatsapp: null,
      icon: '/img/icons/sales.svg',
      isEmergency: false,
      isSaleContact: true,
    },
  ],
  directory: [
    {
      category: 'Emergencias',
      label: 'Desde el extranjero',
      isEmergency: true,
      isSaleContact: false,
      isPrioritized: true,
      phones: ['+1 786 347 2210', '+34 910 123 456'],
      whatsapp: { phone1: '+56 9 1234 5678', phone2: null },
      emails: [{ email: 'asistencia@travesia.cl' }],
      url: null,
      banner: 'Llama antes de ir a una clínica "por tu cuenta"',
    },
    {
      category: 'Servicio al cliente',
      label: 'Reembolsos',
      isEmergency: false,
      isSaleContact: false,
      isPrioritized: false,
      phones: [],
      whatsapp: { phone1: null, phone2: null },
      emails: [],
      url: { href: '/reembolsos', label: 'Solicitar un reembolso' },
      banner: null,
    },
  ],
};

const navigation = {
  logo: '/img/logo.svg',
  items: [
    {
      label: 'Planes',
      href: '/planes',
      target: '_self',
      isMenu: true,
      isButton: false,
      colorPrimario: null,
      colorSecundario: null,
      items1: [
        { icon: '/img/icons/plane.svg', label: 'Internacional', href: '/planes#internacional', target: '_blank' },
      ],
    },
    {
      label: 'Cotiza',
      href: '/#cotizar',
      target: '_self',
      isMenu: false,
      isButton: true,
      colorPrimario: '#f26b5b',
      colorSecundario: '#ffffff',
      items1: [],
    },
  ],
};

const home = {
  socialQuotes: [{ author: 'Camila R.', location: 'Santiago', quote: 'Me atendieron en 10 minutos.', rating: 5 }],
  blogCategories: [
    {
      id: 3,
      label: 'Consejos',
      articles: [
        {
          id: 9,
          title: '¿Qué cubre una asistencia?',
          summary: 'Lo que sí y lo que no.',
          image: '/img/blog/que-cubre.svg',
          publishedAt: '2026-01-12T09:00:00-03:00',
        },
      ],
    },
  ],
  coverages: [{ icon: '/img/icons/doctor.svg', title: 'Telemedicina', description: 'Un médico por video, 24/7.' }],
};

const scripts = {
  allowedOrigins: ['https://www.googletagmanager.com'],
  scripts: [
    { placement: 'head', src: 'https://www.googletagmanager.com/gtm.js?id=GTM-X' },
    { placement: 'body', code: 'window.dataLayer = window.dataLayer || [];\nwindow.dataLayer.push({ a: 1 });' },
  ],
};

describe('the structured forms of «El sitio»', () => {
  it.each([
    ['site-contacts', contacts],
    ['site-navigation', navigation],
    ['site-home', home],
    ['site-scripts', scripts],
  ])('%s: posting the form untouched gives back the very document it showed', (kind, document) => {
    expect(documentFromForm(formOf(spec(kind), document), spec(kind), document)).toStrictEqual(document);
  });

  it('removes, reorders and adds items; a blank optional field is null, a blank link group no link', () => {
    const form = formOf(spec('site-contacts'), contacts);
    form.set('help.0.quitar', 'si');
    form.set('directory.0.posicion', '3');
    form.set('directory.1.url.href', '');
    form.set('directory.1.url.label', '');
    form.set('directory.1.emails', 'reembolsos@travesia.cl\n\n  pagos@travesia.cl ');
    form.set('directory.nuevo.category', 'Ventas');
    form.set('directory.nuevo.label', 'Empresas');
    form.set('directory.nuevo.isSaleContact', 'si');
    form.set('directory.nuevo.phones', '+56 2 2640 2030');
    const next = documentFromForm(form, spec('site-contacts'), contacts) as typeof contacts;
    expect(next.help.map((entry) => entry.label)).toStrictEqual(['Ventas']);
    expect(next.directory.map((entry) => entry.label)).toStrictEqual(['Reembolsos', 'Desde el extranjero', 'Empresas']);
    expect(next.directory[0]).toMatchObject({
      url: null,
      emails: [{ email: 'reembolsos@travesia.cl' }, { email: 'pagos@travesia.cl' }],
    });
    expect(next.directory[2]).toStrictEqual({
      category: 'Ventas',
      label: 'Empresas',
      isEmergency: false,
      isSaleContact: true,
      isPrioritized: false,
      banner: null,
      phones: ['+56 2 2640 2030'],
      emails: [],
      whatsapp: { phone1: null, phone2: null },
      url: null,
    });
  });

  it('a script with an address is loaded from there; without one it is the code written', () => {
    const form = formOf(spec('site-scripts'), scripts);
    form.set('scripts.0.src', '');
    form.set('scripts.0.code', 'console.log(1)');
    form.set('scripts.nuevo.src', 'https://www.googletagmanager.com/gtag/js?id=G-1');
    const next = documentFromForm(form, spec('site-scripts'), scripts);
    expect(next.scripts).toStrictEqual([
      { placement: 'head', code: 'console.log(1)' },
      scripts.scripts[1],
      { placement: 'head', src: 'https://www.googletagmanager.com/gtag/js?id=G-1' },
    ]);
  });

  it('a sub-menu link is added under its item; a rating that is not a number goes as typed for the API to name', () => {
    const form = formOf(spec('site-navigation'), navigation);
    form.set('items.1.items1.nuevo.label', 'Empresas');
    form.set('items.1.items1.nuevo.href', '/empresas');
    const next = documentFromForm(form, spec('site-navigation'), navigation) as typeof navigation;
    expect(next.items[1]?.items1).toStrictEqual([{ label: 'Empresas', href: '/empresas', icon: '', target: '_self' }]);
    const homeForm = formOf(spec('site-home'), home);
    homeForm.set('socialQuotes.0.rating', 'cinco');
    const nextHome = documentFromForm(homeForm, spec('site-home'), home) as Record<string, { rating: unknown }[]>;
    expect(nextHome.socialQuotes?.[0]?.rating).toBe('cinco');
  });

  it('a forged count reads no more items than the document takes, nested lists included', () => {
    const form = new FormData();
    form.set('items.cantidad', '999999');
    for (let index = 0; index < 30; index += 1) {
      form.set(`items.${index}.label`, `Ítem ${index}`);
      form.set(`items.${index}.items1.cantidad`, '999999');
    }
    const next = documentFromForm(form, spec('site-navigation'), navigation) as typeof navigation;
    expect(next.items).toHaveLength(12);
    expect(next.items.every((item) => item.items1.length === 20)).toBe(true);
    form.set('items.cantidad', '-5');
    expect((documentFromForm(form, spec('site-navigation'), navigation) as typeof navigation).items).toStrictEqual([]);
  });

  it('labels every repeated input with its item, and marks the inputs the API refused', () => {
    const html = renderPage(
      <ObjectFields
        fields={spec('site-contacts')}
        value={contacts}
        errors={{ 'help.1.phone': 'Un teléfono como +56 2 2640 2020' }}
      />,
    );
    expect(html).toContain('<span class="sr-only"> (Tarjeta de ayuda 2)</span>');
    const inputOf = (name: string) =>
      new RegExp(`<input[^>]*name="${name.replaceAll('.', '\\.')}"[^>]*>`).exec(html)?.[0];
    expect(inputOf('help.1.phone')).toContain('aria-invalid="true"');
    expect(inputOf('help.0.phone')).not.toContain('aria-invalid');
    expect(html).toContain('Agregar: contacto del directorio');
  });
});
