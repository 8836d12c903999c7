import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorResponses } from '#app/errors.ts';
import { companyParams, typed } from '#app/http.ts';
import { publicCatalogue } from '#app/lib/http/http-cache.ts';
import { countrySchema, modalitySchema, passengerTypeSchema } from '#app/modules/catalog/schemas.ts';
import * as catalog from '#app/modules/catalog/service.ts';
import { contactInfoSchema } from '#app/modules/content/schemas.ts';
import * as content from '#app/modules/content/service.ts';
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

const tags = ['company'];

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

export async function companyRoutes(fastify: FastifyInstance) {
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
        description: 'Everything the storefront shell needs in one call',
        params: companyParams,
        response: { 200: websiteParametersSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { companyId } = request.params;
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
      };
    },
  );
}
