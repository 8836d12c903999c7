import { describe, expect, it } from 'vitest';
import { loadConfig, localTaxIssuer } from '#app/config.ts';
import { localFolioStart, localTaxDocuments, noTaxValueText } from '#app/integrations/tax-documents/local.ts';
import { openFactura } from '#app/integrations/tax-documents/openfactura.ts';
import { TaxDocumentRefused } from '#app/integrations/tax-documents/provider.ts';
import { saleDocumentType, splitTotal } from '#app/modules/tax-documents/amounts.ts';
import { fakeOpenFactura } from './support/fake-openfactura.ts';
import { productionEnv } from './support/harness.ts';
import { pdfStrings } from './support/pdf-text.ts';

const issuer = {
  rut: '76123456-0',
  name: 'Travesía Asistencia SpA',
  giro: 'Asistencia en viaje',
  address: 'Av. Apoquindo 1234',
  commune: 'Las Condes',
};

describe('tax document amounts', () => {
  it('splits a taxed total into net and IVA that add up to the ledger peso', () => {
    for (const total of [1, 119, 10_000, 33_333, 45_990, 1_234_567]) {
      const a = splitTotal(total, 1900);
      expect(a.netClp + a.ivaClp + a.exemptClp).toBe(total);
      expect(a.exemptClp).toBe(0);
      expect(Math.abs(a.ivaClp - Math.round(a.netClp * 0.19))).toBeLessThanOrEqual(1);
    }
    expect(splitTotal(11_900, 1900)).toEqual({ netClp: 10_000, ivaClp: 1_900, exemptClp: 0, totalClp: 11_900 });
  });

  it('makes everything exempt when the plan carries no IVA', () => {
    expect(splitTotal(45_990, null)).toEqual({ netClp: 0, ivaClp: 0, exemptClp: 45_990, totalClp: 45_990 });
    expect(splitTotal(45_990, 0).exemptClp).toBe(45_990);
    expect(() => splitTotal(10.5, 1900)).toThrow();
  });

  it('chooses boleta or factura, exenta or not', () => {
    expect(saleDocumentType(true, false)).toBe(39);
    expect(saleDocumentType(false, false)).toBe(41);
    expect(saleDocumentType(true, true)).toBe(33);
    expect(saleDocumentType(false, true)).toBe(34);
  });
});

describe('local tax documents', () => {
  const doc = {
    key: 'payment:1',
    type: 39 as const,
    date: '2026-11-28',
    receiver: { rut: '66666666-6', name: 'Consumidor final' },
    item: 'Asistencia en viaje',
    ...splitTotal(45_990, 1900),
  };

  it('renders a PDF marked «SIN VALOR TRIBUTARIO» with a folio in the test range', async () => {
    const provider = localTaxDocuments(issuer);
    const issued = await provider.issue(doc);
    expect(issued.folio).toBe(localFolioStart);
    const strings = pdfStrings(issued.pdf);
    expect(strings.filter((s) => s.includes(noTaxValueText)).length).toBeGreaterThanOrEqual(2);
    expect(strings.some((s) => s.includes(`N° ${localFolioStart}`))).toBe(true);
    expect(new TextDecoder().decode(issued.xml)).toContain('<TipoDTE>39</TipoDTE>');
  });

  it('answers the same document for the same key and a new folio for another', async () => {
    const provider = localTaxDocuments(issuer);
    const first = await provider.issue(doc);
    expect(await provider.issue(doc)).toBe(first);
    expect(await provider.find('payment:1')).toBe(first);
    expect(await provider.find('payment:2')).toBeNull();
    const second = await provider.issue({ ...doc, key: 'payment:2' });
    expect(second.folio).toBe(first.folio + 1);
  });
});

describe('OpenFactura adapter against a loopback fake', () => {
  const boleta = {
    key: 'payment:77',
    type: 39 as const,
    date: '2026-11-28',
    receiver: { rut: '66666666-6', name: 'Consumidor final' },
    item: 'Asistencia en viaje Plan Europa',
    ...splitTotal(45_990, 1900),
  };

  it('issues a boleta with the published body and headers, and one document per key', async () => {
    const fake = await fakeOpenFactura();
    try {
      const provider = openFactura({ baseUrl: fake.baseUrl, apiKey: 'test-key', issuer });
      const first = await provider.issue(boleta);
      expect(first.folio).toBe(1001);
      expect(first.providerId).toBe('tok-1001');
      expect(Buffer.from(first.pdf).toString()).toContain('folio 1001');
      const sent = fake.state.requests[0];
      expect(sent?.headers['idempotency-key']).toBe('payment:77');
      expect(sent?.body.response).toEqual(['PDF', 'FOLIO', 'XML']);
      expect(sent?.body.dte.Encabezado.IdDoc).toEqual({ TipoDTE: 39, Folio: 0, FchEmis: '2026-11-28' });
      expect(sent?.body.dte.Encabezado.Totales).toMatchObject({ MntTotal: 45_990, MntExe: 0 });
      const totals = sent?.body.dte.Encabezado.Totales;
      expect((totals?.MntNeto ?? 0) + (totals?.IVA ?? 0)).toBe(45_990);
      // The same key again (a retried job): the same document, no second folio.
      expect((await provider.issue(boleta)).folio).toBe(1001);
      expect(fake.state.byKey.size).toBe(1);
    } finally {
      await fake.close();
    }
  });

  it('sends a boleta exenta with IndExe, a factura with company data and a credit note with its reference', async () => {
    const fake = await fakeOpenFactura();
    try {
      const provider = openFactura({ baseUrl: fake.baseUrl, apiKey: 'test-key', issuer });
      await provider.issue({ ...boleta, key: 'payment:78', type: 41, ...splitTotal(30_000, null) });
      const exenta = fake.state.requests.at(-1)?.body.dte;
      expect(exenta?.Detalle[0]).toMatchObject({ IndExe: 1, MontoItem: 30_000 });
      expect(exenta?.Encabezado.Totales).toMatchObject({ MntExe: 30_000, MntNeto: 0, IVA: 0 });
      const company = {
        rut: '76543210-3',
        name: 'Viajes Andes Ltda.',
        giro: 'Agencia de viajes',
        address: 'Huérfanos 100',
        commune: 'Santiago',
      };
      const factura = await provider.issue({ ...boleta, key: 'payment:79', type: 33, receiver: company });
      expect(fake.state.requests.at(-1)?.body.dte.Encabezado.Receptor).toEqual({
        RUTRecep: '76543210-3',
        RznSocRecep: 'Viajes Andes Ltda.',
        GiroRecep: 'Agencia de viajes',
        DirRecep: 'Huérfanos 100',
        CmnaRecep: 'Santiago',
      });
      await provider.issue({
        ...boleta,
        key: 'refund:withdrawal:79',
        type: 61,
        receiver: company,
        corrects: { type: 33, folio: factura.folio, date: '2026-11-28', reason: 'Retracto del comprador', whole: true },
      });
      expect(fake.state.requests.at(-1)?.body.dte.Referencia).toEqual([
        {
          NroLinRef: 1,
          TpoDocRef: 33,
          FolioRef: factura.folio,
          FchRef: '2026-11-28',
          CodRef: 1,
          RazonRef: 'Retracto del comprador',
        },
      ]);
      // Part of it given back (a cheaper date change): the note corrects the amounts instead of annulling.
      await provider.issue({
        ...boleta,
        key: 'refund:date_change:80',
        type: 61,
        receiver: company,
        corrects: {
          type: 33,
          folio: factura.folio,
          date: '2026-11-28',
          reason: 'Cambio de fechas: devolución de la diferencia',
          whole: false,
        },
      });
      expect(fake.state.requests.at(-1)?.body.dte.Referencia).toEqual([
        expect.objectContaining({ TpoDocRef: 33, FolioRef: factura.folio, CodRef: 3 }),
      ]);
    } finally {
      await fake.close();
    }
  });

  it('throws a retryable error on 5xx and a timeout, and issues one document once the provider answers', async () => {
    const fake = await fakeOpenFactura();
    try {
      const provider = openFactura({ baseUrl: fake.baseUrl, apiKey: 'test-key', issuer, timeoutMs: 300 });
      fake.state.script.push({ status: 503, error: { message: 'Servicio no disponible', code: 'OF-503' } }, 'hang');
      const first = await provider.issue(boleta).catch((e: unknown) => e);
      expect(first).toBeInstanceOf(Error);
      expect(first).not.toBeInstanceOf(TaxDocumentRefused);
      const second = await provider.issue(boleta).catch((e: unknown) => e);
      expect(second).toBeInstanceOf(Error);
      expect(second).not.toBeInstanceOf(TaxDocumentRefused);
      expect((await provider.issue(boleta)).folio).toBe(1001);
      expect(fake.state.byKey.size).toBe(1);
    } finally {
      await fake.close();
    }
  });

  it('reports a refusal (folios agotados, RUT inválido) in words, as not retryable', async () => {
    const fake = await fakeOpenFactura();
    try {
      const provider = openFactura({ baseUrl: fake.baseUrl, apiKey: 'test-key', issuer });
      fake.state.script.push(
        { status: 422, error: { message: 'No quedan folios disponibles para el tipo 39', code: 'FOLIOS' } },
        { status: 400, error: { message: 'RUT del receptor inválido', code: 'RUT' } },
      );
      await expect(provider.issue(boleta)).rejects.toMatchObject({
        name: 'TaxDocumentRefused',
        message: 'No quedan folios disponibles para el tipo 39',
        code: 'FOLIOS',
      });
      await expect(provider.issue(boleta)).rejects.toMatchObject({ message: 'RUT del receptor inválido', code: 'RUT' });
      expect(fake.state.byKey.size).toBe(0);
    } finally {
      await fake.close();
    }
  });
});

describe('tax documents configuration', () => {
  const openfacturaEnv = {
    TAX_DOCUMENTS_PROVIDER: 'openfactura',
    OPENFACTURA_API_KEY: 'key',
    TAX_ISSUER_RUT: '76123456-0',
    TAX_ISSUER_NAME: 'Travesía Asistencia SpA',
    TAX_ISSUER_GIRO: 'Asistencia en viaje',
    TAX_ISSUER_ADDRESS: 'Av. Apoquindo 1234',
    TAX_ISSUER_COMMUNE: 'Las Condes',
  };

  it('is local with nothing configured outside production', () => {
    expect(loadConfig({}).taxDocuments).toEqual({ provider: 'local', issuer: localTaxIssuer });
  });

  it('refuses to start a production deployment with local or unset, and takes external said explicitly', () => {
    const { TAX_DOCUMENTS_PROVIDER: _, ...withoutTax } = productionEnv;
    expect(() => loadConfig(withoutTax)).toThrow(/TAX_DOCUMENTS_PROVIDER must be openfactura .* or external/);
    expect(() => loadConfig({ ...withoutTax, TAX_DOCUMENTS_PROVIDER: 'local' })).toThrow(/no tax value/);
    expect(loadConfig({ ...withoutTax, TAX_DOCUMENTS_PROVIDER: 'external' }).taxDocuments).toEqual({
      provider: 'external',
    });
  });

  it('refuses openfactura without its key or the issuer data, naming what is missing', () => {
    const { OPENFACTURA_API_KEY: _, TAX_ISSUER_GIRO: __, ...incomplete } = openfacturaEnv;
    expect(() => loadConfig({ ...productionEnv, ...incomplete })).toThrow(
      'Invalid configuration: TAX_DOCUMENTS_PROVIDER=openfactura needs OPENFACTURA_API_KEY, TAX_ISSUER_GIRO',
    );
    expect(() => loadConfig({ ...openfacturaEnv, TAX_ISSUER_RUT: '76.123.456-0' })).toThrow(/TAX_ISSUER_RUT/);
    expect(loadConfig({ ...productionEnv, ...openfacturaEnv }).taxDocuments).toEqual({
      provider: 'openfactura',
      apiKey: 'key',
      baseUrl: 'https://api.haulmer.com',
      issuer: {
        rut: '76123456-0',
        name: 'Travesía Asistencia SpA',
        giro: 'Asistencia en viaje',
        address: 'Av. Apoquindo 1234',
        commune: 'Las Condes',
      },
    });
  });
});
