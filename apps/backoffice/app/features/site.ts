/**
 * «El sitio» (issue 25, item 6): the storefront's navigation bar, footer, contacts and help modal, WhatsApp widget,
 * feature flags (spec §6), home page blocks and marketing scripts, each a kind of the publishing model (apps/api/src/modules/company/
 * site.ts, content/site-contacts.ts), one item per store (key `main`). The footer, WhatsApp and flags have forms; the
 * navigation bar, contacts, home blocks and scripts are edited as their JSON document, validated by the API on save.
 */
import type { Role } from '#app/lib/contract.ts';

/** Who edits and publishes the site (apps/api/src/modules/operators/guard.ts). */
export const siteEditors: readonly Role[] = ['admin', 'content'];

export type SiteSection = {
  slug: string;
  kind: string;
  label: string;
  description: string;
  editor: 'footer' | 'whatsapp' | 'flags' | 'json';
  /** Whether the draft can be previewed on the store (a link to the home page with «Vista previa»). */
  preview: boolean;
};

export const siteSections: readonly SiteSection[] = [
  {
    slug: 'navegacion',
    kind: 'site-navigation',
    label: 'Barra de navegación',
    description: 'Los ítems, sus desplegables y el botón que abre la ayuda.',
    editor: 'json',
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
    editor: 'json',
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
    editor: 'json',
    preview: true,
  },
  {
    slug: 'scripts',
    kind: 'site-scripts',
    label: 'Scripts de marketing',
    description: 'Analítica y etiquetas: corren solo si se publican aquí (la política de seguridad los autoriza).',
    editor: 'json',
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

/** The JSON document of the textarea, or an error in words. */
export function jsonFromForm(form: FormData): { body: unknown } | { error: string } {
  try {
    return { body: JSON.parse(text(form, 'contenido')) };
  } catch {
    return { error: 'El contenido no es JSON válido: revisa comillas, comas y llaves.' };
  }
}
