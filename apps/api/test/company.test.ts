import { errorMessages } from '@travesia/domain/messages';
import { expect, it } from 'vitest';
import { demoCompany } from '#app/db/seed/demo-company.ts';
import { describeOnEachDatabase } from './support/harness.ts';
import { companyGetPaths, expectError, get, pathOf } from './support/http.ts';

const { documents } = demoCompany;

const specDefaultFeatures = {
  virtualBranch: true,
  exclusiveMembers: true,
  discountLabel: true,
  downloadCertificates: false,
  sliderVideo: false,
  remoteMarketingScript: true,
  localTagManagerScript: false,
};

const byId = <T extends { id: number }>(items: T[]) => [...items].sort((a, b) => a.id - b.id);

/** Every country of every destination of the demo company, once, on the wire as `{ id, label }`. */
const soldCountries = () => {
  const codes = new Set(demoCompany.destinations.flatMap((destination) => destination.countryIsoCodes));
  return demoCompany.countries.filter((c) => codes.has(c.isoCode)).map(({ id, label }) => ({ id, label }));
};

describeOnEachDatabase('company documents', (ctx) => {
  it('GET /companies/1 answers the company info: id, name, address and the about-us document', async () => {
    const answer = await get(ctx.app, '/api/companies/1');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.json()).toStrictEqual({
      id: 1,
      name: demoCompany.company.name,
      address: demoCompany.company.address,
      ...documents['company-info'],
    });
  });

  it('GET /companies/1 keeps the legal name and RUT out of the public company info', async () => {
    const body = (await get(ctx.app, '/api/companies/1')).json<Record<string, unknown>>();
    expect(body).not.toHaveProperty('legalName');
    expect(body).not.toHaveProperty('rut');
  });

  it('GET /navigation-bar answers the seeded bar, menus with their items1 entries', async () => {
    const answer = await get(ctx.app, '/api/companies/1/navigation-bar');
    expect(answer.status).toBe(200);
    const body = answer.json<(typeof documents)['navigation-bar']>();
    expect(body).toStrictEqual(documents['navigation-bar']);
    const plans = body.items.find((item) => item.isMenu);
    expect(plans?.items1.map((entry) => entry.label)).toContain('Cotiza tu viaje');
    expect(body.items.filter((item) => item.isButton)).toHaveLength(1);
  });

  it('GET /footer answers the seeded footer with usaSuscription and usaSocialNetwork', async () => {
    const answer = await get(ctx.app, '/api/companies/1/footer');
    expect(answer.status).toBe(200);
    const body = answer.json<Record<string, unknown>>();
    expect(body).toStrictEqual(documents.footer);
    expect(body.usaSuscription).toBe(true);
    expect(body.usaSocialNetwork).toBe(true);
  });

  it('GET /marketing answers the seeded promotions', async () => {
    const answer = await get(ctx.app, '/api/companies/1/marketing');
    expect(answer.status).toBe(200);
    expect(answer.json()).toStrictEqual(documents.marketing);
    expect(documents.marketing.promotions.length).toBeGreaterThan(0);
  });

  it('GET /mission answers { label, banner }', async () => {
    const answer = await get(ctx.app, '/api/companies/1/mission');
    expect(answer.status).toBe(200);
    expect(answer.json()).toStrictEqual({ label: documents.mission.label, banner: documents.mission.banner });
  });

  it('GET /vision answers { label, banner }', async () => {
    const answer = await get(ctx.app, '/api/companies/1/vision');
    expect(answer.status).toBe(200);
    expect(answer.json()).toStrictEqual({ label: documents.vision.label, banner: documents.vision.banner });
  });
});

describeOnEachDatabase('website parameters', (ctx) => {
  it('GET /website-parameters composes every part the storefront shell needs, exactly', async () => {
    const answer = await get(ctx.app, '/api/companies/1/website-parameters');
    expect(answer.status).toBe(200);
    const body = answer.json<Record<string, unknown> & { countries: { id: number; label: string }[] }>();
    expect(Object.keys(body).sort()).toStrictEqual(
      [
        'companyId',
        'companyScriptTags',
        'configuration',
        'home',
        'navigationBar',
        'footer',
        'contacts',
        'modalities',
        'passangerTypes',
        'countries',
        'features',
      ].sort(),
    );
    expect(body.companyId).toBe(1);
    expect(body.companyScriptTags).toStrictEqual(documents.website.companyScriptTags);
    expect(body.configuration).toStrictEqual(documents.website.configuration);
    expect(body.home).toStrictEqual(documents.website.home);
    expect(body.navigationBar).toStrictEqual(documents['navigation-bar']);
    expect(body.footer).toStrictEqual(documents.footer);
    expect(body.contacts).toStrictEqual(demoCompany.contactInfos);
    expect(body.modalities).toStrictEqual(
      demoCompany.modalities.map((m) => ({
        id: m.id,
        label: m.label,
        adddays: m.addDays,
        returnDateConfiguration: { enabled: m.returnDateEnabled, addDays: m.returnAddDays },
        minDays: m.minDays,
        maxDays: m.maxDays,
      })),
    );
    expect(body.passangerTypes).toStrictEqual(demoCompany.passengerTypes);
    expect(byId(body.countries)).toStrictEqual(byId(soldCountries()));
  });

  it('lists each sold country once, although several regions (and "Todo el mundo") share it', async () => {
    const { countries } = (await get(ctx.app, '/api/companies/1/website-parameters')).json<{
      countries: { id: number; label: string }[];
    }>();
    expect(new Set(countries.map((c) => c.id)).size).toBe(countries.length);
    expect(countries).toContainEqual({ id: 17, label: 'España' });
  });

  it('sends companyScriptTags as base64 strings that decode to HTML, for the head and the body', async () => {
    const { companyScriptTags } = (await get(ctx.app, '/api/companies/1/website-parameters')).json<{
      companyScriptTags: { customScript: string; isBodyScript: boolean }[];
    }>();
    expect(companyScriptTags.length).toBeGreaterThan(0);
    for (const tag of companyScriptTags) {
      expect(tag.customScript).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
      const html = Buffer.from(tag.customScript, 'base64').toString('utf8');
      expect(Buffer.from(html, 'utf8').toString('base64')).toBe(tag.customScript);
      expect(html).toMatch(/^<[a-z]+[\s>][\s\S]*>$/);
    }
    // Only the console's two script forms are sent (issue 25, kind site-scripts); the demo has one, for the body.
    expect(companyScriptTags.map((tag) => tag.isBodyScript)).toStrictEqual([true]);
    const decoded = companyScriptTags.map((tag) => Buffer.from(tag.customScript, 'base64').toString('utf8'));
    expect(decoded).toContain('<script>window.travesiaMarketing = true;</script>');
  });

  it('reports configuration.isWhatsappWidgetEnabled, the WhatsApp number, the certificate search settings and the assistance numbers printed on certificates', async () => {
    const { configuration } = (await get(ctx.app, '/api/companies/1/website-parameters')).json<{
      configuration: unknown;
    }>();
    expect(configuration).toStrictEqual({
      isWhatsappWidgetEnabled: true,
      whatsappNumber: '+56 9 4000 2000',
      certificates: { identityType: 'rut', generalConditionsUrl: '/terminos', activationProcedureUrl: '/faq' },
      assistance: { abroadPhone: '+1 (786) 347 2210', whatsapp: '+56 9 4000 2000' },
    });
  });

  it('reports the spec §6 feature flag defaults when the environment sets none', async () => {
    const { features } = (await get(ctx.app, '/api/companies/1/website-parameters')).json<{ features: unknown }>();
    expect(features).toStrictEqual(specDefaultFeatures);
  });
});

describeOnEachDatabase(
  'website parameters with FEATURE_VIRTUAL_BRANCH=false',
  (ctx) => {
    it('reports virtualBranch false and leaves every other flag at its default', async () => {
      const { features } = (await get(ctx.app, '/api/companies/1/website-parameters')).json<{ features: unknown }>();
      expect(features).toStrictEqual({ ...specDefaultFeatures, virtualBranch: false });
    });
  },
  { FEATURE_VIRTUAL_BRANCH: 'false' },
);

describeOnEachDatabase(
  'website parameters with the off-by-default flags turned on',
  (ctx) => {
    it('reports downloadCertificates, sliderVideo and localTagManagerScript true', async () => {
      const { features } = (await get(ctx.app, '/api/companies/1/website-parameters')).json<{ features: unknown }>();
      expect(features).toStrictEqual({
        ...specDefaultFeatures,
        downloadCertificates: true,
        sliderVideo: true,
        localTagManagerScript: true,
        remoteMarketingScript: false,
      });
    });
  },
  {
    FEATURE_DOWNLOAD_CERTIFICATES: 'true',
    FEATURE_SLIDER_VIDEO: '1',
    FEATURE_LOCAL_TAG_MANAGER_SCRIPT: 'yes',
    FEATURE_REMOTE_MARKETING_SCRIPT: 'off',
  },
);

describeOnEachDatabase('unknown companies', (ctx) => {
  it.each(companyGetPaths(999))('GET %s → 404 Company not found', async (url) => {
    expectError(await get(ctx.app, url), 404, errorMessages.companyNotFound, pathOf(url));
  });

  it.each(companyGetPaths('abc'))('GET %s (non-numeric company id) → 404 Company not found', async (url) => {
    expectError(await get(ctx.app, url), 404, errorMessages.companyNotFound, pathOf(url));
  });

  it.each(companyGetPaths(2_147_483_648))(
    'GET %s (id beyond the integer column) → 404 Company not found, not a database error',
    async (url) => {
      expectError(await get(ctx.app, url), 404, errorMessages.companyNotFound, pathOf(url));
    },
  );

  it.each(['0', '-1', '1.5', '1e3', '2147483647'])(
    'company id %s names no company → 404 Company not found',
    async (id) => {
      const url = `/api/companies/${id}/footer`;
      expectError(await get(ctx.app, url), 404, errorMessages.companyNotFound, url);
    },
  );
});
