import { isSiteHref, isWhatsappPhone } from '@travesia/domain/links';
import {
  httpsOriginOf,
  isSafeInlineCode,
  type MarketingScript,
  scriptOfTagHtml,
  scriptTagHtml,
} from '@travesia/domain/marketing-scripts';
import { z } from 'zod';
import type { Database } from '#app/db/client.ts';
import { ApiError } from '#app/errors.ts';
import { plainText as text } from '#app/lib/editorial-fields.ts';
import { describeJsonChanges } from '#app/lib/json-diff.ts';
import { type CatalogPreview, catalogPreviewOf, geographySchema } from '#app/modules/catalog/geography.ts';
import { type SiteContacts, siteContactsSchema } from '#app/modules/content/site-contacts.ts';
import type { PublishableKind } from '#app/modules/publishing/kind.ts';
import { previewBody, previewMessages, sitePreviewScope } from '#app/modules/publishing/preview.ts';
import { findDocument, saveDocument } from './repository.ts';
import {
  type CompanyDocumentKind,
  type CompanyDocuments,
  type FeatureFlags,
  featureFlagsSchema,
  linkTargetSchema,
} from './schemas.ts';

/**
 * «El sitio» (issue 25, item 6): the company's editorial documents (ADR 002) as kinds of the publishing model (ADR 019):
 * navigation bar, footer, WhatsApp widget, feature flags (spec §6), the home page's blocks and marketing scripts.
 * Each kind has one item per company, key `main`; `apply` replaces the document (or its part of `website`) in the
 * publishing transaction, and the cache scope is the document's key, so every instance reads it again (kept pages
 * go with any clear).
 * Everything is validated on save: links (http/https, store paths, `#…`, `tel:+…`; never `javascript:`), colours
 * (#hex: they reach CSS), texts without markup, WhatsApp numbers, scripts (docs/content.md).
 */
export const siteKey = 'main';

export const siteHref = z
  .string()
  .max(500, 'A lo más 500 caracteres')
  .refine(isSiteHref, 'Usa una dirección http(s)://…, una ruta de la tienda (/faq), #ayuda o tel:+56…');

const imageUrl = z
  .string()
  .max(500, 'A lo más 500 caracteres')
  .refine(
    (value) => /^\/(?!\/)\S*$/.test(value) || httpsOriginOf(value) !== undefined,
    'Usa una ruta de la tienda (/img/…) o una dirección https://…',
  );

const colour = z.string().regex(/^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/, 'Un color como #0b5563');

export const siteNavigationSchema = z
  .object({
    logo: imageUrl,
    items: z
      .array(
        z
          .object({
            label: text(80),
            href: siteHref,
            target: linkTargetSchema,
            isMenu: z.boolean(),
            isButton: z.boolean(),
            colorPrimario: colour.nullable(),
            colorSecundario: colour.nullable(),
            items1: z
              .array(z.object({ icon: imageUrl, label: text(120), href: siteHref, target: linkTargetSchema }).strict())
              .max(20),
          })
          .strict(),
      )
      .max(12),
  })
  .strict();

export const siteFooterSchema = z
  .object({
    menus: z
      .array(
        z
          .object({
            forecolor: colour,
            bold: z.boolean(),
            label: text(80),
            items: z
              .array(
                z
                  .object({
                    label: text(120),
                    forecolor: colour,
                    bold: z.boolean(),
                    href: siteHref,
                    target: linkTargetSchema,
                  })
                  .strict(),
              )
              .max(20),
          })
          .strict(),
      )
      .max(8),
    socialMedia: z
      .array(
        z
          .object({
            icon: imageUrl,
            href: siteHref.refine((href) => /^https?:\/\//i.test(href), 'Una red social es una dirección http(s)://…'),
            target: linkTargetSchema,
          })
          .strict(),
      )
      .max(12),
    logo: imageUrl,
    copyright: text(400),
    background: colour,
    usaSuscription: z.boolean(),
    usaSocialNetwork: z.boolean(),
  })
  .strict();

export const whatsappPhone = z
  .string()
  .trim()
  .max(25, 'A lo más 25 caracteres')
  .refine(isWhatsappPhone, 'Un número como +56 9 1234 5678 (Chile) o +1 786 347 2210 (internacional)');

export const siteWhatsappSchema = z
  .object({ isWhatsappWidgetEnabled: z.boolean(), whatsappNumber: whatsappPhone })
  .strict();

export const siteFlagsSchema = featureFlagsSchema.strict();

const origin = z
  .string()
  .trim()
  .refine((value) => httpsOriginOf(value) === value, 'Un origen https sin ruta, como https://www.googletagmanager.com');

export const siteScriptsSchema = z
  .object({
    allowedOrigins: z.array(origin).max(20),
    scripts: z
      .array(
        z.union([
          z
            .object({
              placement: z.enum(['head', 'body']),
              code: z
                .string()
                .min(1, 'Escribe el código del script')
                .max(20_000, 'A lo más 20 000 caracteres')
                .refine(isSafeInlineCode, 'Solo el código JavaScript, sin etiquetas <script> ni comentarios HTML'),
            })
            .strict(),
          z
            .object({
              placement: z.enum(['head', 'body']),
              src: z
                .string()
                .max(500)
                .refine((src) => httpsOriginOf(src) !== undefined && !/["<>\s]/.test(src), 'Una dirección https://…'),
            })
            .strict(),
        ]),
      )
      .max(20),
  })
  .strict()
  .superRefine((body, context) => {
    const origins = new Set(body.allowedOrigins);
    body.scripts.forEach((script, index) => {
      if ('src' in script && !origins.has(httpsOriginOf(script.src) ?? '')) {
        context.addIssue({
          code: 'custom',
          path: ['scripts', index, 'src'],
          message: 'Ese origen no está en la lista de orígenes permitidos: agrégalo primero',
        });
      }
    });
  });

export type SiteScripts = z.infer<typeof siteScriptsSchema>;

/** The home page's blocks (spec §3 website parameters `home`): coverages, testimonials and the blog teaser. */
export const siteHomeSchema = z
  .object({
    socialQuotes: z
      .array(
        z
          .object({
            author: text(120),
            location: text(120),
            quote: text(600),
            rating: z.number().int().min(1, 'De 1 a 5').max(5, 'De 1 a 5'),
          })
          .strict(),
      )
      .max(20),
    blogCategories: z
      .array(
        z
          .object({
            id: z.number().int().positive(),
            label: text(120),
            articles: z
              .array(
                z
                  .object({
                    id: z.number().int().positive(),
                    title: text(200),
                    summary: text(600),
                    image: imageUrl,
                    publishedAt: z.iso.datetime({
                      offset: true,
                      message: 'Una fecha y hora como 2026-01-12T09:00:00-03:00',
                    }),
                  })
                  .strict(),
              )
              .max(12),
          })
          .strict(),
      )
      .max(8),
    coverages: z.array(z.object({ icon: imageUrl, title: text(120), description: text(600) }).strict()).max(12),
  })
  .strict();

const notFound = () => new ApiError(404, 'Este elemento del sitio no existe.');

async function requireWebsite(db: Database, companyId: number) {
  const website = await findDocument(db, companyId, 'website');
  if (!website)
    throw new ApiError(400, 'La tienda no tiene configuración del sitio (documento website): siémbrala primero.');
  return website;
}

const decodeTags = (website: CompanyDocuments['website']): MarketingScript[] =>
  website.companyScriptTags.flatMap((tag) => {
    const script = scriptOfTagHtml(
      Buffer.from(tag.customScript, 'base64').toString('utf8'),
      tag.isBodyScript ? 'body' : 'head',
    );
    return script ? [script] : [];
  });

const encodeTags = (scripts: MarketingScript[]) =>
  scripts.map((script) => ({
    customScript: Buffer.from(scriptTagHtml(script), 'utf8').toString('base64'),
    isBodyScript: script.placement === 'body',
  }));

/** A kind whose item is (a part of) one company document. */
function siteKind<Body, K extends CompanyDocumentKind>(options: {
  kind: string;
  title: string;
  names?: Record<string, string>;
  schema: z.ZodType<Body>;
  companyId: number;
  document: K;
  read(document: CompanyDocuments[K] | undefined): Body | undefined;
  write(tx: Database, body: Body): Promise<CompanyDocuments[K]>;
  /** Whether a preview link opens the home page with the draft (sitePreviewOf says how it is shown). */
  previewed?: boolean;
}): PublishableKind<Body> {
  const { companyId, document } = options;
  return {
    kind: options.kind,
    schema: options.schema,
    current: async (db, key) =>
      key === siteKey ? options.read(await findDocument(db, companyId, document)) : undefined,
    apply: async (tx, key, body) => {
      if (key !== siteKey) throw notFound();
      await saveDocument(tx, companyId, document, await options.write(tx, body));
    },
    cacheScopes: () => [`document:${companyId}:${document}`],
    describe: async (_db, _key, before, after) => describeJsonChanges(options.title, before, after, options.names),
    ...(options.previewed ? { previewPath: async () => ({ path: '/', scope: sitePreviewScope }) } : {}),
  };
}

/** The parts of website-parameters a site draft replaces while it is previewed. */
export type SitePreview = {
  contacts?: SiteContacts['help'];
  countries?: CatalogPreview['countries'];
  navigationBar?: z.infer<typeof siteNavigationSchema>;
  footer?: z.infer<typeof siteFooterSchema>;
  configuration?: z.infer<typeof siteWhatsappSchema>;
  features?: FeatureFlags;
  home?: z.infer<typeof siteHomeSchema>;
};

/**
 * A previewed site draft as the part of website-parameters it replaces; a 403 for a kind with no site preview (the
 * marketing scripts are not previewed: a draft script must never run on the store).
 */
export function sitePreviewOf(kind: string, body: unknown): SitePreview {
  switch (kind) {
    case 'site-navigation':
      return { navigationBar: previewBody(siteNavigationSchema, body) };
    case 'site-footer':
      return { footer: previewBody(siteFooterSchema, body) };
    case 'site-whatsapp':
      return { configuration: previewBody(siteWhatsappSchema, body) };
    case 'site-flags':
      return { features: previewBody(siteFlagsSchema, body) };
    case 'site-home':
      return { home: previewBody(siteHomeSchema, body) };
    case 'site-contacts':
      return { contacts: previewBody(siteContactsSchema, body).help };
    case 'geography':
      return { countries: catalogPreviewOf(previewBody(geographySchema, body)).countries };
    default:
      throw new ApiError(403, previewMessages.invalid);
  }
}

const linkNames = {
  label: 'texto',
  href: 'enlace',
  target: 'abre en',
  icon: 'ícono',
  items: 'enlaces',
  items1: 'submenú',
  menus: 'columna',
  socialMedia: 'red social',
  forecolor: 'color',
  bold: 'negrita',
  logo: 'logo',
  copyright: 'derechos',
  background: 'fondo',
  usaSuscription: 'suscripción',
  usaSocialNetwork: 'redes sociales',
  isMenu: 'desplegable',
  isButton: 'botón de ayuda',
  colorPrimario: 'color principal',
  colorSecundario: 'color secundario',
};

/** The publishing kinds of a company's site (registered by workflows/publishing.ts). */
export function siteKindsOf(companyId: number, configuredFlags: FeatureFlags) {
  const navigation = siteKind({
    kind: 'site-navigation',
    title: 'Barra de navegación',
    names: { ...linkNames, items: 'ítem' },
    schema: siteNavigationSchema,
    companyId,
    document: 'navigation-bar',
    previewed: true,
    read: (document) => document,
    write: async (_tx, body) => body,
  });
  const footer = siteKind({
    kind: 'site-footer',
    title: 'Pie de página',
    names: linkNames,
    schema: siteFooterSchema,
    companyId,
    document: 'footer',
    previewed: true,
    read: (document) => document,
    write: async (_tx, body) => body,
  });
  const whatsapp = siteKind({
    kind: 'site-whatsapp',
    title: 'WhatsApp',
    names: { isWhatsappWidgetEnabled: 'botón flotante', whatsappNumber: 'número' },
    schema: siteWhatsappSchema,
    companyId,
    document: 'website',
    read: (website) =>
      website && {
        isWhatsappWidgetEnabled: website.configuration.isWhatsappWidgetEnabled,
        whatsappNumber: website.configuration.whatsappNumber,
      },
    previewed: true,
    write: async (tx, body) => {
      const website = await requireWebsite(tx, companyId);
      return { ...website, configuration: { ...website.configuration, ...body } };
    },
  });
  const flags = siteKind({
    kind: 'site-flags',
    title: 'Funciones',
    names: {
      virtualBranch: 'sucursal virtual (Acceso Clientes)',
      exclusiveMembers: 'miembros exclusivos',
      discountLabel: 'etiqueta de descuento',
      downloadCertificates: 'descarga de certificados',
      sliderVideo: 'video del carrusel',
      remoteMarketingScript: 'scripts de marketing',
      localTagManagerScript: 'tag manager local',
    },
    schema: siteFlagsSchema,
    companyId,
    document: 'features',
    // Until the first publication the flags are the server configuration's (FEATURE_*).
    read: (document) => document ?? configuredFlags,
    previewed: true,
    write: async (_tx, body) => body,
  });
  const scripts = siteKind({
    kind: 'site-scripts',
    title: 'Scripts de marketing',
    names: { allowedOrigins: 'origen permitido', scripts: 'script', placement: 'ubicación', code: 'código' },
    schema: siteScriptsSchema,
    companyId,
    document: 'website',
    read: (website) => website && { allowedOrigins: website.scriptOrigins ?? [], scripts: decodeTags(website) },
    write: async (tx, body) => {
      const website = await requireWebsite(tx, companyId);
      return { ...website, companyScriptTags: encodeTags(body.scripts), scriptOrigins: body.allowedOrigins };
    },
  });
  const home = siteKind({
    kind: 'site-home',
    title: 'Inicio',
    names: {
      socialQuotes: 'testimonio',
      blogCategories: 'categoría del blog',
      articles: 'artículo',
      coverages: 'cobertura',
      title: 'título',
      description: 'descripción',
      quote: 'cita',
      author: 'autor',
      location: 'ciudad',
      rating: 'estrellas',
    },
    schema: siteHomeSchema,
    companyId,
    document: 'website',
    read: (website) => website?.home,
    previewed: true,
    write: async (tx, body) => ({ ...(await requireWebsite(tx, companyId)), home: body }),
  });
  return { navigation, footer, whatsapp, flags, scripts, home };
}
