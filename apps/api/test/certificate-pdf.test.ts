import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { type CertificateData, renderCertificatePdf, winAnsi } from '#app/modules/certificates/pdf.ts';
import { pdfPageTexts } from './support/pdf-text.ts';

describe('winAnsi (names on the certificate PDF)', () => {
  it.each([
    ['Łukasz', 'Lukasz'],
    ['Nguyễn', 'Nguyen'],
    ['Peña Ñuñoa', 'Peña Ñuñoa'],
    ['Zoë', 'Zoë'],
    ['王', '?'],
    ['¿Dónde? ¡Acá! Ü ü á é í ó ú Á É Í Ó Ú ñ Ñ', '¿Dónde? ¡Acá! Ü ü á é í ó ú Á É Í Ó Ú ñ Ñ'],
    ['Đorđe Ħal', 'Dorde Hal'],
    ['Straße Øyvind Ærø', 'Straße Øyvind Ærø'],
    ['Šťastný Dvořák', 'Šťastný Dvořák'.replace('ť', 't').replace('ř', 'r')],
    ['Şahin Çelik', 'Sahin Çelik'],
    ['Ａｎａ', 'Ana'],
    ['Ana 😀', 'Ana ?'],
    ['María – José — “Pepa” …', 'María – José — “Pepa” …'],
    ['Jean‐Luc', 'Jean-Luc'],
  ])('%s → %s', (input, expected) => {
    expect(winAnsi(input)).toBe(expected);
  });

  it('a name written decomposed (n + combining tilde) keeps its ñ', () => {
    expect(winAnsi('Pen\u0303a')).toBe('Peña');
    expect(winAnsi('q\u0301')).toBe('q');
  });

  it('whatever it answers, the PDF standard font can draw', async () => {
    const document = await PDFDocument.create();
    const font = await document.embedFont(StandardFonts.Helvetica);
    const samples = ['Łukasz Nguyễn Peña Ñuñoa Zoë 王 Şahin Œuvre Žižek ½ € ™', 'Ａｎａ 😀 Đorđe'];
    for (const sample of samples) expect(() => font.encodeText(winAnsi(sample))).not.toThrow();
  });
});

const usd = (amount: number) => `USD ${amount.toLocaleString('es-CL')}`;
/** The benefits of the demo plans (db/seed/demo-plans.ts), then as many more as asked. */
function benefitsOf(count: number) {
  const demo = [
    ['Asistencia médica por accidente o enfermedad', usd(60_000)],
    ['Medicamentos ambulatorios', usd(1_200)],
    ['Enfermedades preexistentes (urgencia)', usd(1_000)],
    ['Odontología de urgencia', usd(600)],
    ['Repatriación sanitaria', usd(30_000)],
    ['Compensación por pérdida de equipaje', usd(1_500)],
    ['Cancelación e interrupción de viaje', usd(2_400)],
    ['Asistencia legal y adelanto de fianza', usd(6_000)],
  ];
  return Array.from({ length: count }, (_, index) => {
    const [label, value] = demo[index] ?? [
      `Beneficio adicional ${index} (lista extendida del plan)`,
      usd(3_000 + index),
    ];
    return { label: label ?? '', value: value ?? '' };
  });
}

/** Names at the longest the checkout takes (60 characters each), or short ones; each traveller told apart by i. */
const travellerName = (index: number, long: boolean) =>
  long
    ? `María José Antonieta de las Mercedes del Carmen Trinidad ${String(index).padStart(2, '0')} ${'Fernández-Valdivieso Ortúzar de la Fuente Echeverría Larraín'.slice(0, 60)}`
    : `Camila Rojas ${index}`;

function certificateOf(options: { travellers: number; longNames: boolean; benefits: number; schengen?: boolean }) {
  const data: CertificateData = {
    company: {
      name: 'Travesía',
      legalName: 'Travesía Asistencia en Viaje SpA',
      rut: '76.123.456-7',
      address: 'Av. Apoquindo 4500, oficina 1201, Las Condes, Santiago',
    },
    saleId: 1234,
    issuedAt: new Date('2026-11-20T12:00:00Z'),
    testPayment: false,
    plan: { label: 'Travesía Clásico', benefits: benefitsOf(options.benefits) },
    trip: {
      destination: 'Europa',
      country: 'España',
      modality: 'Viaje único',
      departureDate: '2026-12-10',
      returnDate: '2026-12-24',
      days: 15,
    },
    travellers: Array.from({ length: options.travellers }, (_, index) => ({
      number: `TRV-2026-000001234-${index + 1}`,
      name: travellerName(index, options.longNames),
      document: index % 2 === 0 ? `RUT 12.345.${600 + index}-5` : `Pasaporte PX7${String(index).padStart(5, '0')}`,
      birthDate: `19${60 + index}-0${1 + (index % 9)}-1${index % 10}`,
    })),
    recipients: ['titular@example.cl'],
    emergencyPhones: [
      { label: 'Central de asistencia', phone: '+56 2 2345 6789', whatsapp: '+56 9 8765 4321' },
      { label: 'Desde Europa', phone: '+34 900 123 456', whatsapp: null },
    ],
    assistance: { abroadPhone: '+1 305 555 0100', whatsapp: '+56 9 8765 4321' },
    verification: { code: 'ABCDE12345', url: 'https://tienda.travesia.example/verificar/ABCDE12345' },
    schengen: options.schengen === false ? null : { minimumCoverEur: 30_000 },
  };
  return data;
}

const chilean = (iso: string) => iso.split('-').reverse().join('-');
const english = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${iso}T00:00:00Z`),
  );

/** Each block of the certificate: its heading and texts only it prints (short ones, drawn on one line each). */
function blocksOf(data: CertificateData) {
  return [
    { heading: 'Viaje', marks: ['Destino', 'País de destino', 'Modalidad', 'Vigencia', 'Días de cobertura'] },
    { heading: 'Pasajeros cubiertos', marks: data.travellers.map((t) => `nacimiento ${chilean(t.birthDate)}`) },
    { heading: 'Coberturas y límites', marks: data.plan.benefits.flatMap((b) => [b.label, b.value]) },
    {
      heading: 'Teléfonos de emergencia (24 horas, 365 días)',
      marks: ['Desde Europa', '+34 900 123 456', 'Central de asistencia desde el extranjero', 'WhatsApp de asistencia'],
    },
    ...(data.schengen
      ? [
          {
            heading: 'Travel medical insurance certificate (Schengen visa)',
            marks: [
              'certifies that the persons named below',
              'Period of cover',
              'Days covered',
              'At least EUR 30,000 per person',
              'Deductible (excess)',
              'None (EUR 0)',
              'Plan limit for medical assistance',
              ...data.travellers.map((t) => `born ${english(t.birthDate)}`),
              'Costs are paid directly by the assistance company',
            ],
          },
        ]
      : []),
    {
      heading: 'Cómo activar tu asistencia',
      marks: ['1. Antes de recibir atención', '2. Indica tu número', '3. Te derivaremos', '4. Si no puedes llamar'],
    },
  ];
}

/** A page's text with every run of whitespace as one space: a cell wrapped on two lines reads as one. */
const flat = (text: string) => text.replace(/\s+/g, ' ');
const headingLines = (page: string) => page.split('\n').map((line) => line.trim());

describe('certificate page breaks: no block splits across pages (pdftotext, page by page)', () => {
  const cases = [1, 3, 9].flatMap((travellers) =>
    [false, true].flatMap((longNames) => [8, 30].map((benefits) => ({ travellers, longNames, benefits }))),
  );

  it.each(cases)('$travellers traveller(s), long names: $longNames, $benefits benefits', async (options) => {
    const data = certificateOf(options);
    const pages = await pdfPageTexts(await renderCertificatePdf(data));
    for (const block of blocksOf(data)) {
      const at = pages.flatMap((page, index) => (headingLines(page).includes(block.heading) ? [index] : []));
      expect(at, block.heading).toHaveLength(1);
      const page = flat(pages[at[0] ?? 0] ?? '');
      for (const mark of block.marks) expect(page, `«${mark}» on the page of «${block.heading}»`).toContain(mark);
      expect(pages.join('\n')).not.toContain(`${block.heading} (continuación)`);
    }
    // The single traveller's certificate (the e-mailed one) as the issue saw it: the Schengen block on one page.
    if (options.travellers === 1 && !options.longNames && options.benefits === 8) expect(pages).toHaveLength(2);
  });

  it('a Schengen-free certificate keeps its blocks whole too', async () => {
    const data = certificateOf({ travellers: 9, longNames: true, benefits: 30, schengen: false });
    const pages = await pdfPageTexts(await renderCertificatePdf(data));
    expect(pages.join('\n')).not.toContain('Schengen');
    for (const block of blocksOf(data)) {
      const at = pages.findIndex((page) => headingLines(page).includes(block.heading));
      for (const mark of block.marks) expect(flat(pages[at] ?? ''), mark).toContain(mark);
    }
  });

  it('a block taller than a page breaks between rows only, and each page it goes on to repeats its heading', async () => {
    const data = certificateOf({ travellers: 3, longNames: true, benefits: 90 });
    const pages = await pdfPageTexts(await renderCertificatePdf(data));
    const heading = 'Coberturas y límites';
    const spanned = pages.flatMap((page, index) =>
      data.plan.benefits.some((benefit) => flat(page).includes(benefit.label)) ? [index] : [],
    );
    expect(spanned.length).toBeGreaterThan(1);
    spanned.forEach((pageIndex, order) => {
      const lines = headingLines(pages[pageIndex] ?? '');
      expect(lines, `page ${pageIndex + 1}`).toContain(order === 0 ? heading : `${heading} (continuación)`);
    });
    // Every row whole: its label and its value on the same page.
    for (const benefit of data.plan.benefits.slice(8)) {
      const page = pages.find((text) => flat(text).includes(benefit.label));
      expect(flat(page ?? ''), benefit.label).toContain(benefit.value);
    }
    // The other blocks stay whole.
    for (const block of blocksOf(data).filter((b) => b.heading !== heading)) {
      const at = pages.findIndex((page) => headingLines(page).includes(block.heading));
      for (const mark of block.marks) expect(flat(pages[at] ?? ''), mark).toContain(mark);
    }
  });
});
