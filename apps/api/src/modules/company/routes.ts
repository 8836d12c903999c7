import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorBodySchema, errorResponses, resourceNotFound } from '#app/errors.ts';
import { companyParams, typed } from '#app/http.ts';
import { publicCatalogue } from '#app/lib/http/http-cache.ts';
import { countrySchema, modalitySchema, passengerTypeSchema } from '#app/modules/catalog/schemas.ts';
import * as catalog from '#app/modules/catalog/service.ts';
import { contactInfoSchema } from '#app/modules/content/schemas.ts';
import * as content from '#app/modules/content/service.ts';
import { previewHeaderSchema, previewTokenOf } from '#app/modules/publishing/preview.ts';
import {
  companyInfoSchema,
  featureFlagsSchema,
  footerSchema,
  marketingSchema,
  missionSchema,
  navigationBarSchema,
  visionSchema,
  websiteSettingsSchema,
} from './schemas.ts';
import { featureFlagsOf, getCompanyInfo, renderableScriptTags, requireDocument } from './service.ts';
import type { SitePreview } from './site.ts';

const tags = ['company'];

const refusePreview: PreviewSite = async () => {
  throw resourceNotFound();
};

export const websiteParametersSchema = websiteSettingsSchema
  .omit({ scriptOrigins: true })
  .extend({
    companyId: z.number().int(),
    navigationBar: navigationBarSchema,
    footer: footerSchema,
    contacts: z.array(contactInfoSchema),
    modalities: z.array(modalitySchema),
    passangerTypes: z.array(passengerTypeSchema),
    countries: z.array(countrySchema),
    features: featureFlagsSchema.describe(
      'Feature flags of spec §6: published in the console (site-flags), else the server configuration',
    ),
  })
  .meta({ id: 'WebsiteParameters' });

/**
 * A signed site preview token's draft (the publishing model's, handed in by app.ts) as the part of the shell it
 * replaces; a 403 in words for a forged or expired token, or one made for another page (a comparator's prices).
 */
export type PreviewSite = (token: string) => Promise<SitePreview>;

export async function companyRoutes(fastify: FastifyInstance, options: { previewSite?: PreviewSite } = {}) {
  const app = typed(fastify);
  const { db, config } = fastify;

  app.get(
    '/companies/:companyId',
    {
      config: publicCatalogue,
      schema: { tags, params: companyParams, response: { 200: companyInfoSchema, ...errorResponses } },
    },
    (request) => getCompanyInfo(db, request.params.companyId),
  );

  app.get(
    '/companies/:companyId/navigation-bar',
    {
      config: publicCatalogue,
      schema: { tags, params: companyParams, response: { 200: navigationBarSchema, ...errorResponses } },
    },
    (request) => requireDocument(db, request.params.companyId, 'navigation-bar'),
  );

  app.get(
    '/companies/:companyId/footer',
    {
      config: publicCatalogue,
      schema: { tags, params: companyParams, response: { 200: footerSchema, ...errorResponses } },
    },
    (request) => requireDocument(db, request.params.companyId, 'footer'),
  );

  app.get(
    '/companies/:companyId/marketing',
    {
      config: publicCatalogue,
      schema: { tags, params: companyParams, response: { 200: marketingSchema, ...errorResponses } },
    },
    (request) => requireDocument(db, request.params.companyId, 'marketing'),
  );

  app.get(
    '/companies/:companyId/mission',
    {
      config: publicCatalogue,
      schema: { tags, params: companyParams, response: { 200: missionSchema, ...errorResponses } },
    },
    (request) => requireDocument(db, request.params.companyId, 'mission'),
  );

  app.get(
    '/companies/:companyId/vision',
    {
      config: publicCatalogue,
      schema: { tags, params: companyParams, response: { 200: visionSchema, ...errorResponses } },
    },
    (request) => requireDocument(db, request.params.companyId, 'vision'),
  );

  app.get(
    '/companies/:companyId/website-parameters',
    {
      config: publicCatalogue,
      schema: {
        tags,
        description:
          'Everything the storefront shell needs in one call. With a site preview token (x-vista-previa), the draft navigation, footer, WhatsApp, flags or home blocks it opens, never kept nor indexed.',
        params: companyParams,
        headers: previewHeaderSchema,
        response: { 200: websiteParametersSchema, ...errorResponses, 403: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { companyId } = request.params;
      const token = previewTokenOf(request, reply);
      const preview = token === undefined ? {} : await (options.previewSite ?? refusePreview)(token);
      const website = await requireDocument(db, companyId, 'website');
      const [navigationBar, footer, contacts, modalities, passangerTypes, countries, features] = await Promise.all([
        requireDocument(db, companyId, 'navigation-bar'),
        requireDocument(db, companyId, 'footer'),
        content.listContactInfos(db, companyId),
        catalog.listModalities(db, companyId),
        catalog.listPassengerTypes(db, companyId),
        catalog.listCountries(db, companyId),
        featureFlagsOf(db, companyId, config.features),
      ]);
      const { scriptOrigins: _origins, ...settings } = website;
      return {
        companyId,
        ...settings,
        companyScriptTags: renderableScriptTags(website),
        navigationBar,
        footer,
        contacts,
        modalities,
        passangerTypes,
        countries,
        features,
        ...preview,
        configuration: { ...settings.configuration, ...preview.configuration },
      };
    },
  );
}
