import { describe, expect, it } from 'vitest';
import { localFolioStart, localTaxDocuments, noTaxValueText } from '#app/integrations/tax-documents/local.ts';
import { saleDocumentType, splitTotal } from '#app/modules/tax-documents/amounts.ts';
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
