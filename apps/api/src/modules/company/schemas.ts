import { z } from 'zod';

/** Link targets as the storefront's anchors use them. */
export const linkTargetSchema = z.enum(['_self', '_blank']);

const id = z.number().int();

export const navigationBarSchema = z
  .object({
    logo: z.string().describe('URL of the logo image'),
    items: z.array(
      z.object({
        label: z.string(),
        href: z.string(),
        target: linkTargetSchema,
        isMenu: z.boolean().describe('Opens a dropdown with items1'),
        isButton: z.boolean().describe('Highlighted button that opens the help modal'),
        colorPrimario: z.string().nullable(),
        colorSecundario: z.string().nullable(),
        items1: z.array(z.object({ icon: z.string(), label: z.string(), href: z.string(), target: linkTargetSchema })),
      }),
    ),
  })
  .meta({ id: 'NavigationBar' });

export const footerSchema = z
  .object({
    menus: z.array(
      z.object({
        forecolor: z.string(),
        bold: z.boolean(),
        label: z.string(),
        items: z.array(
          z.object({
            label: z.string(),
            forecolor: z.string(),
            bold: z.boolean(),
            href: z.string(),
            target: linkTargetSchema,
          }),
        ),
      }),
    ),
    socialMedia: z.array(z.object({ icon: z.string(), href: z.string(), target: linkTargetSchema })),
    logo: z.string(),
    copyright: z.string(),
    background: z.string(),
    usaSuscription: z.boolean(),
    usaSocialNetwork: z.boolean(),
  })
  .meta({ id: 'Footer' });

export const companyScriptTagSchema = z.object({
  customScript: z.string().describe('base64 of the HTML snippet to inject'),
  isBodyScript: z.boolean().describe('true: end of body; false: head'),
});

export const homeContentSchema = z.object({
  socialQuotes: z.array(
    z.object({ author: z.string(), location: z.string(), quote: z.string(), rating: z.number().int().min(1).max(5) }),
  ),
  blogCategories: z.array(
    z.object({
      id: id,
      label: z.string(),
      articles: z.array(
        z.object({ id: id, title: z.string(), summary: z.string(), image: z.string(), publishedAt: z.string() }),
      ),
    }),
  ),
  coverages: z.array(z.object({ icon: z.string(), title: z.string(), description: z.string() })),
});

/** The feature flags of spec §6: the server configuration's, or the console's once published (kind `site-flags`). */
export const featureFlagsSchema = z.object({
  virtualBranch: z.boolean(),
  exclusiveMembers: z.boolean(),
  discountLabel: z.boolean(),
  downloadCertificates: z.boolean(),
  sliderVideo: z.boolean(),
  remoteMarketingScript: z.boolean(),
  localTagManagerScript: z.boolean(),
});

/** The part of website-parameters that is edited as one document (the rest is composed from other tables). */
export const websiteSettingsSchema = z.object({
  companyScriptTags: z.array(companyScriptTagSchema),
  scriptOrigins: z
    .array(z.string())
    .optional()
    .describe("The https origins a marketing script may load from (the console's allow-list; kind `site-scripts`)"),
  configuration: z.object({
    isWhatsappWidgetEnabled: z.boolean(),
    whatsappNumber: z.string(),
    certificates: z
      .object({
        identityType: z
          .enum(['rut', 'dni'])
          .describe("The certificate search's identity option: the national tax id (RUT) or DNI/CE"),
        generalConditionsUrl: z.string().describe('«Condiciones Generales» on each certificate card'),
        activationProcedureUrl: z.string().describe('«Procedimiento Activación» on each certificate card'),
      })
      .optional()
      .describe('The certificate search (spec §2, §9); without it: RUT, /terminos and /faq'),
    assistance: z
      .object({
        abroadPhone: z.string().describe('The assistance centre as dialled from abroad'),
        whatsapp: z.string().describe('The WhatsApp number of the assistance centre'),
      })
      .optional()
      .describe(
        'The numbers every certificate prints for activating the assistance; without it: the emergency contacts (and whatsappNumber)',
      ),
  }),
  home: homeContentSchema,
});

export const marketingSchema = z
  .object({
    promotions: z.array(
      z.object({
        title: z.string(),
        description: z.string(),
        image: z.string(),
        href: z.string(),
        validUntil: z.string(),
      }),
    ),
  })
  .meta({ id: 'Marketing' });

export const companyInfoDocumentSchema = z.object({
  description: z.object({ descriptions: z.string(), customHtml: z.string(), image: z.string() }),
  descriptionCompany: z.object({ descriptionCom: z.string(), customHtml: z.string() }),
  providers: z.object({
    descriptionProviders: z.string(),
    customHtml: z.string(),
    descriptionsLogoProvider: z.string(),
  }),
  descriptionsLogoProviders: z.string(),
  logos: z.array(z.object({ logo: z.string(), label: z.string() })),
  workTeam: z.object({ descriptionWorkTeam: z.string(), customHtml: z.string() }),
  useValuesCare: z.boolean(),
  valuesCare: z.object({ html: z.string() }),
  map: z.object({ latitude: z.number(), longitude: z.number(), embedUrl: z.string() }),
});

export const companyInfoSchema = companyInfoDocumentSchema
  .extend({ id: id, name: z.string(), address: z.string() })
  .meta({ id: 'CompanyInfo' });

export const bannerTextSchema = z.object({ label: z.string(), banner: z.string() });
export const missionSchema = bannerTextSchema.meta({ id: 'Mission' });
export const visionSchema = bannerTextSchema.meta({ id: 'Vision' });

export type NavigationBar = z.infer<typeof navigationBarSchema>;
export type Footer = z.infer<typeof footerSchema>;
export type Marketing = z.infer<typeof marketingSchema>;
export type FeatureFlags = z.infer<typeof featureFlagsSchema>;

/** The editorial documents a company has, by kind (the `kind` column of company_documents). */
export const companyDocumentSchemas = {
  'navigation-bar': navigationBarSchema,
  footer: footerSchema,
  website: websiteSettingsSchema,
  marketing: marketingSchema,
  'company-info': companyInfoDocumentSchema,
  mission: missionSchema,
  vision: visionSchema,
  features: featureFlagsSchema,
} as const;

export type CompanyDocumentKind = keyof typeof companyDocumentSchemas;
export type CompanyDocuments = { [K in CompanyDocumentKind]: z.infer<(typeof companyDocumentSchemas)[K]> };
