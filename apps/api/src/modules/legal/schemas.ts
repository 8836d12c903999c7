import { z } from 'zod';

/** The pages the legal module serves: /terminos, /politicas, /informacion-legal. */
export const legalPageSlugs = ['terminos', 'politicas', 'informacion-legal'] as const;
export type LegalPageSlug = (typeof legalPageSlugs)[number];

/** Each page's name as a buyer reads it where it is listed («Mi compra», the console). */
export const legalPageNames: Record<LegalPageSlug, string> = {
  terminos: 'Términos y condiciones',
  politicas: 'Políticas de privacidad',
  'informacion-legal': 'Información legal',
};

export const sellerSchema = z
  .object({
    name: z.string().describe('Trade name'),
    legalName: z.string().describe('Legal name (razón social)'),
    rut: z.string().describe('RUT of the company'),
    address: z.string().describe('Legal address'),
    email: z.string().nullable().describe('Contact e-mail for consumers'),
    phone: z.string().nullable().describe('Contact phone for consumers'),
  })
  .meta({ id: 'Seller' });

export const legalPageSchema = z
  .object({
    slug: z.enum(legalPageSlugs),
    title: z.string(),
    description: z.string().describe('One sentence for the page description'),
    bodyHtml: z.string().describe('Stored HTML of the page: sanitise before rendering'),
    updatedAt: z.string().describe('ISO 8601 date and time this version was published'),
    version: z.number().int().describe('The version shown (1 the first published)'),
    currentVersion: z.number().int().describe('The version in force; another `version` is an earlier text'),
    seller: sellerSchema.describe('Who sells (Ley 19.496), from the company data'),
  })
  .meta({ id: 'LegalPage' });

export const legalPageParams = z.object({
  companyId: z.coerce.number().int().positive(),
  slug: z.string().max(100),
});

export const legalPageQuery = z.object({
  version: z.coerce
    .number()
    .int()
    .positive()
    .max(2_147_483_647)
    .optional()
    .describe('An earlier version (the one a buyer accepted); absent: the version in force'),
});

export type LegalPageSeed = { slug: LegalPageSlug; title: string; description: string; bodyHtml: string };
