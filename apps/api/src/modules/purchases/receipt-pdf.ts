import { formatClp, formatUsd } from '@travesia/domain/money';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { brand, muted, PdfWriter } from '#app/modules/certificates/pdf.ts';
import { chileDate, type LedgerEntry, type SaleLedger, taxWording, totalIsNet } from '#app/modules/payments/ledger.ts';

/** What the receipt prints: the purchase as «Mi compra» shows it (service.ts purchaseView). */
export type ReceiptData = {
  idVenta: number;
  /** withdrawing / withdrawn: the buyer withdrew (an annulled purchase), its refund pending or done. */
  status: 'paid' | 'withdrawing' | 'withdrawn';
  testPayment: boolean;
  paidAt: string;
  plan: string;
  destination: string;
  /** The country the travellers named at checkout («País de destino»); none on sales that never named one. */
  destinationCountry: { label: string } | null;
  modality: string;
  departureDate: string;
  returnDate: string;
  days: number;
  amountClp: number;
  amountUsd: number;
  payment: {
    gateway: string | null;
    paymentType: string | null;
    cardLastDigits: string | null;
    instalments: number | null;
    instalmentAmountClp: number | null;
    authorizationCode: string | null;
  };
  /** Every payment and refund with the net (payments/ledger.ts). */
  ledger: SaleLedger;
  /** What was charged, split into the plan and the add-ons (service.ts priceBreakdownOf). */
  priceBreakdown?: { planClp: number; addOnsClp: number; totalClp: number };
  /** `addOns`: each traveller's add-ons with what they cost her (none on sales without add-ons). */
  travellers: {
    name: string;
    documentType: string;
    document: string;
    certificate: string | null;
    addOns?: { name: string; amountClp: number }[];
  }[];
  seller: { name: string; legalName: string; rut: string; address: string };
  /** The plan's IVA in basis points (1900: 19 %), null when it carries none: the total is worded as its price was. */
  taxBp: number | null;
  /** The tax documents issued for the sale (modules/tax-documents presentDocument); none: not issued yet. */
  taxDocuments?: {
    typeName: string;
    folio: number | null;
    date: string | null;
    formattedTotal: string;
    noTaxValue: boolean;
  }[];
};

const chileanDate = (iso: string) => iso.slice(0, 10).split('-').reverse().join('-');

/** The text of the total line, as the receipt prints it (tests look for it): «$80.625 (no afecto a IVA)». */
export const receiptTotalText = (amountClp: number, taxBp: number | null) =>
  `${formatClp(amountClp)} (${taxWording(taxBp)})`;

/** What the header of an annulled purchase's receipt says (tests look for it). */
export const annulledReceiptText = {
  withdrawing:
    'COMPRA ANULADA — te retractaste de esta compra: los certificados no otorgan cobertura y la devolución está en proceso.',
  withdrawn:
    'COMPRA ANULADA — te retractaste de esta compra: los certificados no otorgan cobertura y te devolvimos lo pagado.',
} as const;

/** One entry of the ledger: how it was paid or given back, and its state (below its amount line). */
function entryDetail(entry: LedgerEntry): string {
  if (entry.kind === 'payment') {
    return [
      entry.gatewayName,
      entry.paymentType,
      entry.instalmentsText,
      entry.cardLastDigits ? `tarjeta terminada en ${entry.cardLastDigits}` : null,
      entry.authorizationCode ? `autorización ${entry.authorizationCode}` : null,
      entry.statusLabel,
    ]
      .filter(Boolean)
      .join(' · ');
  }
  const done = entry.refundedAt && entry.status === 'refunded' ? ` el ${chileDate(entry.refundedAt)}` : '';
  return `${entry.gatewayName} · ${entry.statusLabel}${done}`;
}

/** The signed amount of an entry: a payment adds, a refund takes away. */
export const entryAmountText = (entry: LedgerEntry) =>
  entry.kind === 'payment' ? formatClp(entry.amountClp) : `-${formatClp(entry.amountClp)}`;

/**
 * The purchase receipt (comprobante de compra) as a PDF, with the certificate's layout: who sold (name, legal name,
 * RUT, address), what was bought (with the destination country, when the sale names one) and for whom, the total
 * with taxes, the date and the payment reference.
 */
export async function renderReceiptPdf(data: ReceiptData): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.setTitle(`Comprobante de compra – venta ${data.idVenta}`);
  document.setAuthor(data.seller.legalName);
  document.setLanguage('es-CL');
  document.setCreationDate(new Date(data.paidAt));
  const fonts = {
    regular: await document.embedFont(StandardFonts.Helvetica),
    bold: await document.embedFont(StandardFonts.HelveticaBold),
  };
  const writer = new PdfWriter(document, document.addPage([595.28, 841.89]), fonts);
  const annulled = data.status !== 'paid';
  writer.banner(
    `${data.seller.name} · Comprobante de compra`,
    annulled ? `Venta N° ${data.idVenta} · Compra anulada` : `Venta N° ${data.idVenta}`,
  );
  if (data.status !== 'paid') {
    writer.text(annulledReceiptText[data.status], { size: 12, bold: true, color: rgb(0.75, 0.1, 0.1) });
  }
  if (data.testPayment) {
    writer.text('SIN VALOR — PAGO DE PRUEBA: no se cobró dinero.', {
      size: 14,
      bold: true,
      color: rgb(0.75, 0.1, 0.1),
    });
  }

  writer.heading('Vendedor');
  writer.row('Razón social', data.seller.legalName);
  writer.row('RUT', data.seller.rut);
  writer.row('Domicilio', data.seller.address);

  writer.heading('Detalle de la compra');
  writer.row(`Plan de asistencia en viaje ${data.plan}`, data.destination);
  // As the certificates print it: the receipt and the certificates name the same trip.
  if (data.destinationCountry) writer.row('País de destino', data.destinationCountry.label);
  writer.row('Modalidad', data.modality);
  writer.row('Vigencia', `${chileanDate(data.departureDate)} al ${chileanDate(data.returnDate)} (${data.days} días)`);
  for (const traveller of data.travellers) {
    writer.row(`${traveller.name} · ${traveller.documentType} ${traveller.document}`, traveller.certificate ?? '');
  }

  // The add-ons (issue 27 §1): the plan's line, one line per traveller's add-on, and the total they add up to.
  const addOns = data.travellers.flatMap((traveller) =>
    (traveller.addOns ?? []).map((addOn) => ({ traveller: traveller.name, ...addOn })),
  );
  if (addOns.length > 0 && data.priceBreakdown) {
    writer.heading('Desglose del precio');
    writer.row(`Plan ${data.plan}`, formatClp(data.priceBreakdown.planClp));
    for (const line of addOns) writer.row(`${line.traveller} · ${line.name}`, formatClp(line.amountClp));
    writer.row('Total', formatClp(data.priceBreakdown.totalClp), { bold: true });
  }

  writer.heading('Pago');
  writer.row('Fecha de compra', chileDate(data.paidAt));
  const { ledger } = data;
  const [single] = ledger.entries;
  if (ledger.entries.length === 1 && single?.kind === 'payment') {
    // One payment, nothing given back: how it was paid, and its total.
    writer.row('Medio de pago', single.gatewayName);
    if (single.paymentType) writer.row('Tipo de pago', single.paymentType);
    if (single.instalments && single.instalments > 1) {
      writer.row(
        'Cuotas',
        single.instalmentAmountClp
          ? `${single.instalments} cuotas de ${formatClp(single.instalmentAmountClp)}`
          : `${single.instalments} cuotas`,
      );
    }
    if (single.authorizationCode) writer.row('Código de autorización', single.authorizationCode);
    writer.row('Referencia', `Venta N° ${data.idVenta}`);
    writer.row('Total pagado', receiptTotalText(ledger.netClp, data.taxBp), { bold: true });
    writer.row('Equivalente en dólares', formatUsd(data.amountUsd));
  } else {
    // Several payments or refunds: each one with what it was, then the net (instalments only beside their payment).
    writer.row('Referencia', `Venta N° ${data.idVenta}`);
    writer.heading('Pagos y devoluciones');
    for (const entry of ledger.entries) {
      writer.row(`${chileDate(entry.date)} · ${entry.label}`, entryAmountText(entry));
      writer.text(entryDetail(entry), { size: 8, color: muted });
      writer.gap(2);
    }
    if (totalIsNet(ledger)) {
      writer.row('Total pagado', receiptTotalText(ledger.netClp, data.taxBp), { bold: true });
    } else {
      writer.row('Pagado', formatClp(ledger.paidClp));
      writer.row('Devuelto', `-${formatClp(ledger.refundedClp)}`);
      if (ledger.pendingRefundClp > 0) writer.row('Devolución en proceso', `-${formatClp(ledger.pendingRefundClp)}`);
      writer.row('Neto pagado', receiptTotalText(ledger.netClp, data.taxBp), { bold: true });
      if (ledger.pendingRefundClp > 0) {
        writer.row('Neto pagado al completarse la devolución', formatClp(ledger.netAfterPendingClp));
      }
    }
    if (!annulled) writer.row('Precio actual del viaje', `${formatClp(data.amountClp)} (${formatUsd(data.amountUsd)})`);
  }

  const documents = data.taxDocuments ?? [];
  writer.heading('Documentos tributarios');
  if (documents.length === 0) {
    writer.text(
      'Tu boleta o factura electrónica se emite en unos minutos y te llegará por correo; también aparecerá en «Mi compra».',
      {
        size: 9,
        color: muted,
      },
    );
  }
  for (const doc of documents) {
    writer.row(
      `${doc.typeName} N° ${doc.folio ?? '—'}${doc.date ? ` · ${chileanDate(doc.date)}` : ''}`,
      doc.formattedTotal,
    );
    if (doc.noTaxValue) writer.text('SIN VALOR TRIBUTARIO (documento de prueba)', { size: 8, color: muted });
  }
  writer.gap(12);
  writer.text(
    `${data.seller.legalName} · RUT ${data.seller.rut} · ${data.seller.address}. Este comprobante acredita el pago de la compra indicada; los documentos tributarios se listan arriba.`,
    { size: 8, color: muted },
  );
  writer.text(`Emitido por ${data.seller.name}`, { size: 8, color: brand });
  return document.save();
}
