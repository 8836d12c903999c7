import { isSiteHref, isWhatsappPhone } from '@travesia/domain/links';
import { z } from 'zod';
import type { Database } from '#app/db/client.ts';
import { ApiError } from '#app/errors.ts';
import { plainText as text } from '#app/lib/editorial-fields.ts';
import { describeJsonChanges } from '#app/lib/json-diff.ts';
import { sitePreviewScope } from '#app/modules/publishing/preview.ts';
import * as repository from './repository.ts';
import { contactOfRow } from './service.ts';

/**
 * «El sitio» (issue 25, item 6): the contacts directory of /contactanos and the help modal's entries (spec §3) as one
 * kind of the publishing model (ADR 019), `site-contacts`, key `main`; `apply` replaces both lists of the company.
 */
const phone = z
  .string()
  .trim()
  .regex(/^\+?[\d\s()-]{6,25}$/, 'Un teléfono como +56 2 2640 2020');
const whatsapp = z
  .string()
  .trim()
  .refine(isWhatsappPhone, 'Un WhatsApp como +56 9 1234 5678 (Chile) o +1 786 347 2210 (internacional)');

export const siteContactsSchema = z
  .object({
    help: z
      .array(
        z
          .object({
            label: text(120),
            phone,
            whatsapp: whatsapp.nullable(),
            icon: z.string().regex(/^\/(?!\/)[\w./-]+$/, 'Un ícono de la tienda, como /img/icons/phone.svg'),
            isEmergency: z.boolean(),
            isSaleContact: z.boolean(),
          })
          .strict(),
      )
      .max(12),
    directory: z
      .array(
        z
          .object({
            category: text(120),
            label: text(200),
            isEmergency: z.boolean(),
            isSaleContact: z.boolean(),
            isPrioritized: z.boolean(),
            phones: z.array(phone).max(6),
            whatsapp: z.object({ phone1: whatsapp.nullable(), phone2: whatsapp.nullable() }).strict(),
            emails: z.array(z.object({ email: z.email('Un e-mail válido').max(120) }).strict()).max(6),
            url: z
              .object({
                href: z.string().max(500).refine(isSiteHref, 'Una dirección http(s)://… o una ruta de la tienda'),
                label: text(200),
              })
              .strict()
              .nullable(),
            banner: text(400).nullable(),
          })
          .strict(),
      )
      .max(60),
  })
  .strict();

export type SiteContacts = z.infer<typeof siteContactsSchema>;

export const siteContactsKey = 'main';

async function readSiteContacts(db: Database, companyId: number): Promise<SiteContacts> {
  const [help, directory] = await Promise.all([
    repository.listContactInfos(db, companyId),
    repository.listContacts(db, companyId, false),
  ]);
  return {
    help,
    directory: directory.map(contactOfRow),
  };
}

/** The kind `site-contacts` of a company (registered by workflows/publishing.ts). */
export const siteContactsKindOf = (companyId: number) => ({
  kind: 'site-contacts',
  schema: siteContactsSchema,
  current: async (db: Database, key: string) => (key === siteContactsKey ? readSiteContacts(db, companyId) : undefined),
  apply: async (tx: Database, key: string, body: SiteContacts) => {
    if (key !== siteContactsKey) throw new ApiError(404, 'Este elemento del sitio no existe.');
    await repository.replaceContacts(
      tx,
      companyId,
      body.help,
      body.directory.map(({ whatsapp: w, emails, url, ...row }) => ({
        ...row,
        whatsappPhone1: w.phone1,
        whatsappPhone2: w.phone2,
        emails: emails.map((e) => e.email),
        urlHref: url?.href ?? null,
        urlLabel: url?.label ?? null,
      })),
    );
  },
  // A preview link opens /contactanos with the draft directory, and the help modal with its entries on every page.
  previewPath: async () => ({ path: '/contactanos', scope: sitePreviewScope }),
  // The help modal (website-parameters) and /contactanos read these through the read cache.
  cacheScopes: () => [`contact-infos:${companyId}`, `contacts:${companyId}:`],
  describe: async (_db: Database, _key: string, before: SiteContacts | null, after: SiteContacts) =>
    describeJsonChanges('Contactos', before, after, {
      help: 'ayuda',
      directory: 'directorio',
      label: 'nombre',
      phone: 'teléfono',
      phones: 'teléfonos',
      category: 'categoría',
      emails: 'e-mails',
      banner: 'aviso',
    }),
});
