import { degrees, PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import QRCode from 'qrcode';
import { testPaymentStamp } from './test-payment.ts';

export type CertificateData = {
  company: { name: string; legalName: string; rut: string; address: string };
  saleId: number;
  issuedAt: Date;
  /** Paid through the test gateway: every page says the certificate has no value. */
  testPayment: boolean;
  plan: { label: string; benefits: { label: string; value: string }[] };
  trip: {
    destination: string;
    /** The country the travellers named at checkout; null prints the destination region alone. */
    country: string | null;
    modality: string;
    departureDate: string;
    returnDate: string;
    days: number;
  };
  /** `addOns`: what each traveller bought on top of the plan, as sold (none on older sales). */
  travellers: {
    number: string;
    name: string;
    document: string;
    birthDate: string;
    addOns?: { name: string; description: string; benefits: { label: string; value: string }[] }[];
  }[];
  /** The travellers' distinct e-mail addresses, where the certificate is sent. */
  recipients: string[];
  emergencyPhones: { label: string; phone: string; whatsapp: string | null }[];
  /** The numbers the activation steps point at: the centre dialled from abroad and its WhatsApp. */
  assistance: { abroadPhone: string | null; whatsapp: string | null };
  /** The public verification code and the page it opens (printed as text and as a QR code). */
  verification: { code: string; url: string };
  /** Set when the trip is to a Schengen state: the certificate adds the English statement consulates ask for. */
  schengen: { minimumCoverEur: number } | null;
};

const brand = rgb(11 / 255, 85 / 255, 99 / 255);
const accent = rgb(242 / 255, 107 / 255, 79 / 255);
const ink = rgb(0.15, 0.18, 0.22);
const muted = rgb(0.4, 0.44, 0.5);

/** What the standard PDF fonts can draw: WinAnsi, i.e. printable Latin-1 and the extras of Windows-1252. */
const representable = /^[\x20-\x7E\xA0-\xFF€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]$/u;
/** Letters whose base form is not their canonical decomposition (Ł has no combining stroke in Unicode). */
const transliterations: Record<string, string> = {
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
  Ŀ: 'L',
  ŀ: 'l',
  Ŧ: 'T',
  ŧ: 't',
  Ɨ: 'I',
  ɨ: 'i',
  Ƶ: 'Z',
  ƶ: 'z',
  Ŋ: 'N',
  ŋ: 'n',
  ĸ: 'k',
  Ǳ: 'DZ',
  ǲ: 'Dz',
  ǳ: 'dz',
  '‐': '-',
  '‑': '-',
  '‒': '-',
  '−': '-',
};
const withoutMarks = (value: string, form: 'NFD' | 'NFKD') => value.normalize(form).replace(/\p{M}/gu, '');

/** One character (code point) in WinAnsi: itself when it fits, else its transliteration, else its base letter, else '?'. */
function winAnsiChar(char: string): string {
  if (representable.test(char)) return char;
  const mapped = transliterations[char];
  if (mapped !== undefined) return mapped;
  if (/^\p{M}$/u.test(char)) return ''; // a combining mark left over after composing: the letter stays bare
  for (const form of ['NFD', 'NFKD'] as const) {
    const base = withoutMarks(char, form);
    if (base !== '' && [...base].every((c) => representable.test(c))) return base;
  }
  return '?';
}

/**
 * The standard PDF fonts speak WinAnsi (Latin-1 and a few more): Spanish fits as it is (á é í ó ú ñ ü ¿ ¡), other
 * Latin letters lose only the marks the font cannot draw (Łukasz → Lukasz, Nguyễn → Nguyen), anything else is '?'.
 */
export function winAnsi(text: string): string {
  return Array.from(text.normalize('NFC'), winAnsiChar).join('');
}

const chileanDate = (iso: string) => iso.split('-').reverse().join('-');

/** The activation procedure printed on every certificate, pointing at the assistance numbers it prints. */
export function activationSteps(assistance: CertificateData['assistance']): string[] {
  const numbers = [
    assistance.abroadPhone ? `desde el extranjero al ${assistance.abroadPhone}` : null,
    assistance.whatsapp ? `por WhatsApp al ${assistance.whatsapp}` : null,
  ].filter((part): part is string => part !== null);
  const call =
    numbers.length > 0
      ? `Antes de recibir atención, comunícate con la central de asistencia: ${numbers.join(' o ')} (24 horas, 365 días).`
      : 'Antes de recibir atención, comunícate con la central de asistencia 24/7 (teléfonos arriba).';
  return [
    call,
    'Indica tu número de certificado, tu nombre y documento, el país y la ciudad donde te encuentras.',
    'Te derivaremos al prestador más cercano de nuestra red; no pagues gastos sin autorización previa.',
    assistance.whatsapp
      ? `Si no puedes llamar, escríbenos por WhatsApp al ${assistance.whatsapp}; ante una emergencia vital acude al centro más cercano y avísanos dentro de 24 horas.`
      : 'Si no puedes llamar, escríbenos por WhatsApp; ante una emergencia vital acude al centro más cercano y avísanos dentro de 24 horas.',
  ];
}

/** One drawn line of a block, measured before it is drawn: its height and how to draw it with its top at `top`. */
type Line = { height: number; draw: (page: PDFPage, top: number) => void };
/** Lines kept together on one page (a row, a paragraph, a heading) unless they alone are taller than a page. */
type Unit = Line[];
/**
 * A titled part of a document (the trip, the travellers, the Schengen statement…): drawn whole on one page. Only a
 * block taller than a page breaks, between its units (within a unit, between its lines), and each page it continues
 * on opens with `continued`.
 */
type Block = { heading?: { text: string; continued: string }; units: Unit[] };

const pageSize: [number, number] = [595.28, 841.89];
const topMargin = 50;
const bottomMargin = 50;
/** The room a block has on a fresh page. */
const pageRoom = pageSize[1] - topMargin - bottomMargin;
const unitHeight = (unit: Unit) => unit.reduce((sum, line) => sum + line.height, 0);
/** Nothing drawn, some room taken: the space before a heading or a footnote. */
const space = (height: number): Line => ({ height, draw: () => undefined });

class Writer {
  private y: number;
  constructor(
    private readonly document: PDFDocument,
    private page: PDFPage,
    private readonly fonts: { regular: PDFFont; bold: PDFFont },
  ) {
    this.y = page.getHeight() - 40;
  }

  private newPage() {
    this.page = this.document.addPage(pageSize);
    this.y = this.page.getHeight() - topMargin;
  }

  private fits(height: number) {
    return this.y - height >= bottomMargin;
  }

  private ensure(height: number) {
    if (!this.fits(height)) this.newPage();
  }

  private drawLine(line: Line) {
    line.draw(this.page, this.y);
    this.y -= line.height;
  }

  /** The words of `value` in lines no wider than `width` (WinAnsi, as the standard fonts draw it). */
  private wrap(value: string, font: PDFFont, size: number, width: number): string[] {
    let line = '';
    const lines: string[] = [];
    for (const word of winAnsi(value).split(/\s+/)) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) > width && line) {
        lines.push(line);
        line = word;
      } else line = candidate;
    }
    if (line) lines.push(line);
    return lines;
  }

  /** A paragraph as lines (not drawn yet). */
  textUnit(
    value: string,
    options: { size?: number; bold?: boolean; color?: typeof ink; x?: number; width?: number } = {},
  ): Unit {
    const size = options.size ?? 10;
    const font = options.bold ? this.fonts.bold : this.fonts.regular;
    const x = options.x ?? 50;
    const color = options.color ?? ink;
    return this.wrap(value, font, size, options.width ?? 495).map((text) => ({
      height: size + 4,
      draw: (page, top) => page.drawText(text, { x, y: top - size, size, font, color }),
    }));
  }

  /** A label and its value side by side, over a thin rule (not drawn yet); it breaks only between its lines. */
  rowUnit(left: string, right: string, options: { bold?: boolean } = {}): Unit {
    const { regular, bold } = this.fonts;
    const labels = this.wrap(left, options.bold ? bold : regular, 10, 330);
    const values = this.wrap(right, bold, 10, 155);
    const count = Math.max(labels.length, values.length, 1);
    return Array.from({ length: count }, (_, index) => {
      const last = index === count - 1;
      return {
        // The rule under the row, and 2 points below it.
        height: last ? 16 : 14,
        draw: (page: PDFPage, top: number) => {
          const label = labels[index];
          const value = values[index];
          if (label)
            page.drawText(label, { x: 50, y: top - 10, size: 10, font: options.bold ? bold : regular, color: ink });
          if (value) page.drawText(value, { x: 390, y: top - 10, size: 10, font: bold, color: ink });
          if (last) {
            page.drawLine({
              start: { x: 50, y: top - 14 },
              end: { x: 545, y: top - 14 },
              thickness: 0.5,
              color: rgb(0.85, 0.87, 0.9),
            });
          }
        },
      };
    });
  }

  /** A section title with its space above and below (not drawn yet). */
  headingUnit(value: string): Unit {
    return [space(10), ...this.textUnit(value, { size: 13, bold: true, color: brand }), space(2)];
  }

  /**
   * Draws a block whole: on this page when it fits, else on the next. A block taller than a page starts here when
   * its heading and first unit fit, breaks between units (a unit taller than a page, between its lines) and repeats
   * its heading, marked as continued, on every page it goes on to.
   */
  block(block: Block) {
    const heading = block.heading ? this.headingUnit(block.heading.text) : [];
    const continued = block.heading ? this.headingUnit(block.heading.continued) : [];
    const height = unitHeight(heading) + block.units.reduce((sum, unit) => sum + unitHeight(unit), 0);
    if (!this.fits(height)) {
      const first = block.units[0] ?? [];
      if (height <= pageRoom || !this.fits(unitHeight(heading) + Math.min(unitHeight(first), pageRoom / 2))) {
        this.newPage();
      }
    }
    for (const line of heading) this.drawLine(line);
    const turnPage = () => {
      this.newPage();
      for (const line of continued) this.drawLine(line);
    };
    for (const unit of block.units) {
      if (!this.fits(unitHeight(unit)) && unitHeight(continued) + unitHeight(unit) <= pageRoom) turnPage();
      for (const line of unit) {
        if (!this.fits(line.height)) turnPage();
        this.drawLine(line);
      }
    }
  }

  text(value: string, options: { size?: number; bold?: boolean; color?: typeof ink; x?: number; width?: number } = {}) {
    for (const line of this.textUnit(value, options)) {
      this.ensure(line.height);
      this.drawLine(line);
    }
  }

  /** One row, kept on one page. */
  row(left: string, right: string, options: { bold?: boolean } = {}) {
    this.block({ units: [this.rowUnit(left, right, options)] });
  }

  heading(value: string) {
    this.gap(10);
    this.ensure(30);
    this.text(value, { size: 13, bold: true, color: brand });
    this.gap(2);
  }

  gap(points: number) {
    this.y -= points;
  }

  /** The page being written and how far down it is (to place an image beside the text). */
  get position() {
    return { page: this.page, y: this.y };
  }

  banner(title: string, subtitle: string) {
    const height = 70;
    const top = this.page.getHeight();
    this.page.drawRectangle({ x: 0, y: top - height, width: this.page.getWidth(), height, color: brand });
    this.page.drawRectangle({ x: 0, y: top - height - 4, width: this.page.getWidth(), height: 4, color: accent });
    this.page.drawText(winAnsi(title), { x: 50, y: top - 38, size: 20, font: this.fonts.bold, color: rgb(1, 1, 1) });
    this.page.drawText(winAnsi(subtitle), {
      x: 50,
      y: top - 56,
      size: 10,
      font: this.fonts.regular,
      color: rgb(1, 1, 1),
    });
    this.y = top - height - 24;
  }
}

export { testPaymentStamp };

/** A red band at the foot and a large diagonal mark: nobody can take this page for a real certificate. */
function stampTestPayment(page: PDFPage, font: PDFFont) {
  const red = rgb(0.75, 0.1, 0.1);
  page.drawRectangle({ x: 0, y: 0, width: page.getWidth(), height: 26, color: red });
  page.drawText(winAnsi(`${testPaymentStamp} · Esta compra se pagó en la pasarela de prueba: no otorga cobertura`), {
    x: 40,
    y: 9,
    size: 9,
    font,
    color: rgb(1, 1, 1),
  });
  page.drawText(winAnsi(testPaymentStamp), {
    x: 95,
    y: 250,
    size: 38,
    font,
    color: red,
    opacity: 0.25,
    rotate: degrees(35),
  });
}

/** A block with a Spanish heading, «(continuación)» on the pages it goes on to. */
const titled = (text: string, units: Unit[]): Block => ({
  heading: { text, continued: `${text} (continuación)` },
  units,
});

/** The certificate after its header, block by block, in the order printed. */
function certificateBlocks(writer: Writer, data: CertificateData): Block[] {
  const phones = data.emergencyPhones.map((phone) =>
    writer.rowUnit(phone.label, phone.whatsapp ? `${phone.phone} · WhatsApp ${phone.whatsapp}` : phone.phone),
  );
  if (data.assistance.abroadPhone) {
    phones.push(writer.rowUnit('Central de asistencia desde el extranjero', data.assistance.abroadPhone));
  }
  if (data.assistance.whatsapp) phones.push(writer.rowUnit('WhatsApp de asistencia', data.assistance.whatsapp));
  return [
    titled('Viaje', [
      writer.rowUnit('Destino', data.trip.destination),
      ...(data.trip.country ? [writer.rowUnit('País de destino', data.trip.country)] : []),
      writer.rowUnit('Modalidad', data.trip.modality),
      writer.rowUnit('Vigencia', `${chileanDate(data.trip.departureDate)} al ${chileanDate(data.trip.returnDate)}`),
      writer.rowUnit('Días de cobertura', String(data.trip.days)),
    ]),
    titled(
      'Pasajeros cubiertos',
      data.travellers.map((traveller) =>
        writer.rowUnit(
          `${traveller.name} · ${traveller.document} · nacimiento ${chileanDate(traveller.birthDate)}`,
          traveller.number,
        ),
      ),
    ),
    titled(
      'Coberturas y límites',
      data.plan.benefits.map((benefit) => writer.rowUnit(benefit.label, benefit.value)),
    ),
    ...addOnBlocks(writer, data),
    titled('Teléfonos de emergencia (24 horas, 365 días)', phones),
    ...(data.schengen ? [schengenStatement(writer, data, data.schengen.minimumCoverEur)] : []),
    titled(
      'Cómo activar tu asistencia',
      activationSteps(data.assistance).map((step, index) => writer.textUnit(`${index + 1}. ${step}`)),
    ),
    {
      units: [
        [
          space(12),
          ...writer.textUnit(
            `${data.company.legalName} · RUT ${data.company.rut} · ${data.company.address}. Este certificado es válido solo para las personas y fechas indicadas. Las condiciones generales del plan forman parte de este certificado.`,
            { size: 8, color: muted },
          ),
        ],
      ],
    },
  ];
}

/**
 * «Adicionales contratados»: each add-on a traveller bought, by name, with its benefits and limits as the plan's
 * table prints them. A certificate of several travellers names whose each one is; nobody bought any: no block.
 */
function addOnBlocks(writer: Writer, data: CertificateData): Block[] {
  const several = data.travellers.length > 1;
  const units = data.travellers.flatMap((traveller) =>
    (traveller.addOns ?? []).map((addOn) => [
      ...writer.textUnit(several ? `${addOn.name} · ${traveller.name}` : addOn.name, { bold: true, color: brand }),
      ...(addOn.description ? writer.textUnit(addOn.description, { size: 9, color: muted }) : []),
      ...addOn.benefits.flatMap((benefit) => writer.rowUnit(benefit.label, benefit.value)),
    ]),
  );
  return units.length > 0 ? [titled('Adicionales contratados', units)] : [];
}

/**
 * A QR code drawn as vector squares (one path of the dark modules' runs, with a one-module quiet zone), not an
 * embedded PNG: sharp at any zoom and print size, a few hundred bytes, and no PNG encoded, decoded and compressed again
 * for every certificate (that was most of a certificate's rendering time).
 */
export function drawQrCode(page: PDFPage, text: string, box: { x: number; y: number; size: number }) {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const quietZone = 1;
  const unit = box.size / (modules.size + 2 * quietZone);
  let path = '';
  for (let row = 0; row < modules.size; row += 1) {
    let column = 0;
    while (column < modules.size) {
      if (!modules.get(row, column)) {
        column += 1;
        continue;
      }
      const start = column;
      while (column < modules.size && modules.get(row, column)) column += 1;
      path += `M${start + quietZone} ${row + quietZone}h${column - start}v1h${start - column}z`;
    }
  }
  page.drawRectangle({ x: box.x, y: box.y, width: box.size, height: box.size, color: rgb(1, 1, 1) });
  // drawSvgPath reads y downwards from the given origin: the box's top-left corner.
  page.drawSvgPath(path, { x: box.x, y: box.y + box.size, scale: unit, color: rgb(0, 0, 0) });
}

/** A certificate of a paid sale as a real PDF (pdf-lib): who is covered, by what, where, when, and whom to call. */
export async function renderCertificatePdf(data: CertificateData): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.setTitle(`Certificado de asistencia en viaje – venta ${data.saleId}`);
  document.setAuthor(data.company.legalName);
  document.setSubject(`Plan ${data.plan.label}`);
  document.setLanguage('es-CL');
  document.setCreationDate(data.issuedAt);
  const fonts = {
    regular: await document.embedFont(StandardFonts.Helvetica),
    bold: await document.embedFont(StandardFonts.HelveticaBold),
  };
  const writer = new Writer(document, document.addPage(pageSize), fonts);
  writer.banner(`${data.company.name} · Certificado de asistencia en viaje`, `Venta N° ${data.saleId}`);
  if (data.testPayment) writer.text(testPaymentStamp, { size: 18, bold: true, color: rgb(0.75, 0.1, 0.1) });

  writer.text(`Plan ${data.plan.label}`, { size: 16, bold: true, color: brand });
  writer.text(
    `Emitido el ${data.issuedAt.toISOString().slice(0, 10).split('-').reverse().join('-')} por ${data.company.legalName}, RUT ${data.company.rut}.`,
    { color: muted },
  );

  const { page: firstPage, y: qrTop } = writer.position;
  drawQrCode(firstPage, data.verification.url, { x: 455, y: qrTop - 90, size: 90 });
  writer.text(`Verificación: código ${data.verification.code}`, { bold: true, width: 390 });
  writer.text(`Escanea el código QR o visita ${data.verification.url}`, { size: 8, color: muted, width: 390 });
  writer.text(`Verification code ${data.verification.code}: scan the QR code or visit the address above.`, {
    size: 8,
    color: muted,
    width: 390,
  });
  writer.gap(Math.max(0, writer.position.y - (qrTop - 96)));

  // Every part is a block, measured before it is drawn: none splits across pages (docs/certificates.md).
  for (const block of certificateBlocks(writer, data)) writer.block(block);
  if (data.testPayment) for (const page of document.getPages()) stampTestPayment(page, fonts.bold);
  return document.save();
}

const englishDate = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${iso}T00:00:00Z`),
  );

/** The plan's medical limit as printed («USD 60.000»), if the plan has one. */
const medicalLimit = (benefits: { label: string; value: string }[]) =>
  benefits.find((benefit) => /asistencia m[eé]dica/i.test(benefit.label))?.value;

/**
 * The English part of a certificate for a trip to a Schengen state, beside the Spanish one: the wording consulates
 * ask for — travel medical insurance valid in all Schengen states for the whole stay, emergency medical care,
 * hospitalisation and repatriation of at least EUR 30,000 without deductible, exact dates and each insured
 * person's passport or identity document.
 */
function schengenStatement(writer: Writer, data: CertificateData, minimumCoverEur: number): Block {
  const euros = `EUR ${minimumCoverEur.toLocaleString('en-GB')}`;
  const limit = medicalLimit(data.plan.benefits);
  const title = 'Travel medical insurance certificate (Schengen visa)';
  return {
    heading: { text: title, continued: `${title} (continued)` },
    units: [
      writer.textUnit(
        `${data.company.legalName} (${data.company.name}) certifies that the persons named below hold travel assistance plan «${data.plan.label}» for their trip to ${data.trip.destination}, valid in all states of the Schengen Area.`,
      ),
      writer.rowUnit(
        'Period of cover',
        `${englishDate(data.trip.departureDate)} to ${englishDate(data.trip.returnDate)}`,
      ),
      writer.rowUnit('Days covered', `${data.trip.days} days (both dates included)`),
      writer.rowUnit(
        'Emergency medical care, hospitalisation, medical repatriation and repatriation of remains',
        `At least ${euros} per person`,
      ),
      writer.rowUnit('Deductible (excess)', 'None (EUR 0)'),
      ...(limit ? [writer.rowUnit('Plan limit for medical assistance', limit)] : []),
      ...data.travellers.map((traveller) => {
        const [kind = '', ...rest] = traveller.document.split(' ');
        const document =
          kind === 'RUT'
            ? `Chilean ID (RUT) ${rest.join(' ')}`
            : kind === 'Pasaporte'
              ? `Passport ${rest.join(' ')}`
              : `Passport/ID ${rest.join(' ')}`;
        return writer.rowUnit(
          `Insured: ${traveller.name} · ${document} · born ${englishDate(traveller.birthDate)}`,
          traveller.number,
        );
      }),
      writer.textUnit(
        `Costs are paid directly by the assistance company, without advance payment by the insured, 24 hours a day. Verify this certificate at ${data.verification.url}.`,
        { size: 9 },
      ),
    ],
  };
}

/** The layout and colours of the certificate, for the other documents of a sale (the purchase receipt of «Mi compra»). */
export { brand, muted, Writer as PdfWriter };
