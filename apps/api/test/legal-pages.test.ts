import { errorMessages } from '@travesia/domain/messages';
import { expect, it } from 'vitest';
import { demoCompany } from '#app/db/seed/demo-company.ts';
import { describeOnEachDatabase } from './support/harness.ts';
import { expectError, get } from './support/http.ts';

type LegalPage = {
  slug: string;
  title: string;
  description: string;
  bodyHtml: string;
  updatedAt: string;
  seller: Record<string, string | null>;
};

describeOnEachDatabase('legal pages', (ctx) => {
  it.each(['terminos', 'politicas', 'informacion-legal'])(
    'GET /legal-pages/%s answers the seeded page',
    async (slug) => {
      const answer = await get(ctx.app, `/api/companies/1/legal-pages/${slug}`);
      expect(answer.status).toBe(200);
      const page = answer.json<LegalPage>();
      const seeded = demoCompany.legalPages.find((p) => p.slug === slug);
      expect(page).toMatchObject({
        slug,
        title: seeded?.title,
        description: seeded?.description,
        bodyHtml: seeded?.bodyHtml,
      });
      expect(Number.isNaN(Date.parse(page.updatedAt))).toBe(false);
    },
  );

  it('names the seller from the company data: trade and legal name, RUT, legal address, e-mail and phone', async () => {
    const page = (await get(ctx.app, '/api/companies/1/legal-pages/informacion-legal')).json<LegalPage>();
    expect(page.seller).toStrictEqual({
      name: 'Travesía',
      legalName: 'Travesía Asistencia en Viaje SpA',
      rut: '77.345.678-K',
      address: 'Av. Apoquindo 4501, oficina 1202, Las Condes, Santiago',
      email: 'contacto@travesia.cl',
      phone: '+56 (2) 2640 2000',
    });
    expect(page.bodyHtml).toContain('Ley N° 19.496');
  });

  it('another slug or an unknown company: the §8 404s', async () => {
    expectError(
      await get(ctx.app, '/api/companies/1/legal-pages/privacidad'),
      404,
      errorMessages.resourceNotFound,
      '/api/companies/1/legal-pages/privacidad',
    );
    expectError(
      await get(ctx.app, '/api/companies/9/legal-pages/terminos'),
      404,
      errorMessages.companyNotFound,
      '/api/companies/9/legal-pages/terminos',
    );
  });
});
