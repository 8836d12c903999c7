/**
 * «El sitio» (issue 25, item 6): the storefront's navigation bar, footer, contacts and help modal, WhatsApp widget,
 * feature flags (spec §6), home page blocks and marketing scripts, each a kind of the publishing model (apps/api/src/modules/company/
 * site.ts, content/site-contacts.ts), one item per store (key `main`). Each has a form: the footer, WhatsApp and flags
 * their own, the navigation bar, contacts, home blocks and scripts one described by a spec (features/structured-form.ts).
 * The API validates every document on save.
 */
import type { Role } from '#app/lib/contract.ts';
import type { ObjectSpec } from './structured-form.ts';

/** Who edits and publishes the site (apps/api/src/modules/operators/guard.ts). */
export const siteEditors: readonly Role[] = ['admin', 'content'];

export type SiteSection = {
  slug: string;
  kind: string;
  label: string;
  description: string;
  editor: 'footer' | 'whatsapp' | 'flags' | 'structured';
  /** Whether the draft can be previewed on the store (a link to the home page with «Vista previa»). */
  preview: boolean;
};

export const siteSections: readonly SiteSection[] = [
  {
    slug: 'navegacion',
    kind: 'site-navigation',
    label: 'Barra de navegación',
    description: 'Los ítems, sus desplegables y el botón que abre la ayuda.',
    editor: 'structured',
    preview: true,
  },
  {
    slug: 'pie',
    kind: 'site-footer',
    label: 'Pie de página',
    description: 'Las columnas de enlaces, las redes sociales y la línea de derechos.',
    editor: 'footer',
    preview: true,
  },
  {
    slug: 'contactos',
    kind: 'site-contacts',
    label: 'Contactos y ayuda',
    description: 'El directorio de /contactanos y las tarjetas de «¿Necesitas ayuda o información?».',
    editor: 'structured',
    preview: true,
  },
  {
    slug: 'whatsapp',
    kind: 'site-whatsapp',
    label: 'WhatsApp',
    description: 'El número del botón flotante y si se muestra.',
    editor: 'whatsapp',
    preview: true,
  },
  {
    slug: 'funciones',
    kind: 'site-flags',
    label: 'Funciones',
    description: 'Las funciones de la tienda que se encienden o apagan (Acceso Clientes, descargas…).',
    editor: 'flags',
    preview: true,
  },
  {
    slug: 'inicio',
    kind: 'site-home',
    label: 'Bloques del inicio',
    description: 'Las coberturas destacadas, los testimonios y los artículos del blog de la página de inicio.',
    editor: 'structured',
    preview: true,
  },
  {
    slug: 'scripts',
    kind: 'site-scripts',
    label: 'Scripts de marketing',
    description: 'Analítica y etiquetas: corren solo si se publican aquí (la política de seguridad los autoriza).',
    editor: 'structured',
    preview: false,
  },
];

export const sectionOf = (slug: string | undefined) => siteSections.find((section) => section.slug === slug);

export const sitePath = (section: SiteSection, rest = '') => `/${section.kind}/main${rest}`;

export type FooterLink = { label: string; forecolor: string; bold: boolean; href: string; target: '_self' | '_blank' };
export type FooterBody = {
  menus: { forecolor: string; bold: boolean; label: string; items: FooterLink[] }[];
  socialMedia: { icon: string; href: string; target: '_self' | '_blank' }[];
  logo: string;
  copyright: string;
  background: string;
  usaSuscription: boolean;
  usaSocialNetwork: boolean;
};

export const footerField = {
  menu: (m: number) => `columna-${m}`,
  label: (m: number, i: number | 'nuevo') => `columna-${m}-enlace-${i}-texto`,
  href: (m: number, i: number | 'nuevo') => `columna-${m}-enlace-${i}-direccion`,
  social: (s: number) => `red-${s}`,
};

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value.trim() : '';
};

/**
 * The footer the form posted, on top of the one it showed: each column's title and links (a link with text and
 * address both blank is removed; the blank row at the end of a column adds one), the social links (blank: removed),
 * the copyright line and the two switches. Colours, icons and the logo stay as they are.
 */
export function footerFromForm(form: FormData, shown: FooterBody): FooterBody {
  return {
    ...shown,
    menus: shown.menus.map((menu, m) => {
      const items = menu.items.flatMap((item, i) => {
        const label = text(form, footerField.label(m, i));
        const href = text(form, footerField.href(m, i));
        return label === '' && href === '' ? [] : [{ ...item, label, href }];
      });
      const label = text(form, footerField.label(m, 'nuevo'));
      const href = text(form, footerField.href(m, 'nuevo'));
      if (label !== '' || href !== '') {
        const like = menu.items[0];
        items.push({
          label,
          href,
          forecolor: like?.forecolor ?? menu.forecolor,
          bold: false,
          target: /^https?:\/\//i.test(href) ? '_blank' : '_self',
        });
      }
      return { ...menu, label: text(form, footerField.menu(m)), items };
    }),
    socialMedia: shown.socialMedia.flatMap((social, s) => {
      const href = text(form, footerField.social(s));
      return href === '' ? [] : [{ ...social, href }];
    }),
    copyright: text(form, 'derechos'),
    usaSuscription: form.get('suscripcion') === 'si',
    usaSocialNetwork: form.get('redes') === 'si',
  };
}

export const flagLabels: Record<string, string> = {
  virtualBranch: 'Sucursal virtual (botón «Acceso Clientes»)',
  exclusiveMembers: 'Miembros exclusivos',
  discountLabel: 'Etiqueta de descuento en los planes',
  downloadCertificates: 'Descarga de certificados desde la búsqueda',
  sliderVideo: 'Video en el carrusel de inicio',
  remoteMarketingScript: 'Scripts de marketing (los de «Scripts de marketing»)',
  localTagManagerScript: 'Tag manager local',
};

/** The flags the form posted: every flag the item has, on when its checkbox came. */
export function flagsFromForm(form: FormData, shown: Record<string, boolean>): Record<string, boolean> {
  return Object.fromEntries(Object.keys(shown).map((flag) => [flag, form.get(flag) === 'si']));
}

const target = {
  type: 'choice',
  label: 'Abre en',
  options: [
    { value: '_self', label: 'la misma pestaña' },
    { value: '_blank', label: 'una pestaña nueva' },
  ],
} as const;
const storePathHint = '/faq, https://… o #ayuda';

const navigationFields: ObjectSpec = {
  logo: { type: 'text', label: 'Logo', hint: 'una ruta de la tienda, como /img/logo.svg' },
  items: {
    type: 'list',
    item: 'Ítem',
    max: 12,
    title: (item) => String(item.label ?? ''),
    fields: {
      label: { type: 'text', label: 'Texto' },
      href: { type: 'text', label: 'Dirección', hint: storePathHint },
      target,
      isMenu: { type: 'check', label: 'Es un desplegable (muestra su submenú)' },
      isButton: { type: 'check', label: 'Se muestra como botón' },
      colorPrimario: { type: 'optional-text', label: 'Color del botón', hint: 'como #0b5563; vacío: el de la tienda' },
      colorSecundario: { type: 'optional-text', label: 'Color del texto del botón', hint: 'como #ffffff' },
      items1: {
        type: 'list',
        item: 'Enlace del submenú',
        max: 20,
        title: (item) => String(item.label ?? ''),
        fields: {
          label: { type: 'text', label: 'Texto' },
          href: { type: 'text', label: 'Dirección', hint: storePathHint },
          icon: { type: 'text', label: 'Ícono', hint: '/img/icons/…' },
          target,
        },
      },
    },
  },
};

const contactsFields: ObjectSpec = {
  help: {
    type: 'list',
    item: 'Tarjeta de ayuda',
    max: 12,
    title: (item) => String(item.label ?? ''),
    fields: {
      label: { type: 'text', label: 'Nombre' },
      phone: { type: 'text', label: 'Teléfono', hint: 'como +56 2 2640 2020' },
      whatsapp: { type: 'optional-text', label: 'WhatsApp', hint: 'vacío: sin WhatsApp' },
      icon: { type: 'text', label: 'Ícono', hint: 'como /img/icons/phone.svg' },
      isEmergency: { type: 'check', label: 'Emergencias' },
      isSaleContact: { type: 'check', label: 'Ventas' },
    },
  },
  directory: {
    type: 'list',
    item: 'Contacto del directorio',
    max: 60,
    title: (item) => String(item.label ?? ''),
    fields: {
      category: { type: 'text', label: 'Categoría' },
      label: { type: 'text', label: 'Nombre' },
      isEmergency: { type: 'check', label: 'Emergencias' },
      isSaleContact: { type: 'check', label: 'Ventas' },
      isPrioritized: { type: 'check', label: 'Destacado (tarjeta grande)' },
      banner: { type: 'optional-text', label: 'Aviso', hint: 'vacío: sin aviso' },
      phones: { type: 'lines', label: 'Teléfonos' },
      emails: { type: 'lines', label: 'E-mails', wrap: 'email' },
      whatsapp: {
        type: 'group',
        label: 'WhatsApp',
        fields: {
          phone1: { type: 'optional-text', label: 'WhatsApp 1' },
          phone2: { type: 'optional-text', label: 'WhatsApp 2' },
        },
      },
      url: {
        type: 'group',
        label: 'Enlace (vacío: sin enlace)',
        nullable: true,
        fields: {
          href: { type: 'text', label: 'Dirección', hint: storePathHint },
          label: { type: 'text', label: 'Texto del enlace' },
        },
      },
    },
  },
};

const homeFields: ObjectSpec = {
  coverages: {
    type: 'list',
    item: 'Cobertura destacada',
    max: 12,
    title: (item) => String(item.title ?? ''),
    fields: {
      title: { type: 'text', label: 'Título' },
      description: { type: 'text', label: 'Descripción', multiline: true },
      icon: { type: 'text', label: 'Ícono', hint: '/img/… o https://…' },
    },
  },
  socialQuotes: {
    type: 'list',
    item: 'Testimonio',
    max: 20,
    title: (item) => String(item.author ?? ''),
    fields: {
      author: { type: 'text', label: 'Autor' },
      location: { type: 'text', label: 'Lugar' },
      rating: { type: 'number', label: 'Estrellas', min: 1, max: 5 },
      quote: { type: 'text', label: 'Testimonio', multiline: true },
    },
  },
  blogCategories: {
    type: 'list',
    item: 'Categoría del blog',
    max: 8,
    title: (item) => String(item.label ?? ''),
    fields: {
      id: { type: 'number', label: 'Número', min: 1, max: 2_147_483_647 },
      label: { type: 'text', label: 'Nombre' },
      articles: {
        type: 'list',
        item: 'Artículo',
        max: 12,
        title: (item) => String(item.title ?? ''),
        fields: {
          id: { type: 'number', label: 'Número', min: 1, max: 2_147_483_647 },
          title: { type: 'text', label: 'Título' },
          summary: { type: 'text', label: 'Resumen', multiline: true },
          image: { type: 'text', label: 'Imagen', hint: '/img/… o https://…' },
          publishedAt: { type: 'text', label: 'Publicado el', hint: 'como 2026-01-12T09:00:00-03:00' },
        },
      },
    },
  },
};

type ScriptForm = { placement: string; src: string | null; code: string | null };

const scriptsFields: ObjectSpec = {
  allowedOrigins: { type: 'lines', label: 'Orígenes permitidos (https://…, sin ruta)' },
  scripts: {
    type: 'list',
    item: 'Script',
    max: 20,
    title: (item) => String(item.src ?? (item.code ? 'código' : '')),
    toForm: (script) => {
      const { placement, src, code } = script as Partial<ScriptForm>;
      return { placement, src: src ?? null, code: code ?? null };
    },
    // An address makes it a script loaded from there; otherwise it is the code written here.
    fromForm: (item) => {
      const { placement, src, code } = item as ScriptForm;
      return src ? { placement, src } : { placement, code: code ?? '' };
    },
    fields: {
      placement: {
        type: 'choice',
        label: 'Dónde',
        options: [
          { value: 'head', label: 'En el encabezado (head)' },
          { value: 'body', label: 'Al final de la página (body)' },
        ],
      },
      src: { type: 'optional-text', label: 'Dirección del script', hint: 'https://…; vacío: el código de abajo' },
      code: { type: 'optional-text', label: 'Código', multiline: true, hint: 'sin etiquetas <script>' },
    },
  },
};

/** The form of each section edited through a spec. */
export const structuredFields: Readonly<Record<string, ObjectSpec>> = {
  'site-navigation': navigationFields,
  'site-contacts': contactsFields,
  'site-home': homeFields,
  'site-scripts': scriptsFields,
};
