import { formatClp, formatUsd } from '@travesia/domain/money';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { brand, muted, PdfWriter } from '#app/modules/certificates/pdf.ts';

/** What the receipt prints: the purchase as «Mi compra» shows it (service.ts purchaseView). */
export type ReceiptData = {
  idVenta: number;
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
  travellers: { name: string; documentType: string; document: string; certificate: string | null }[];
  seller: { name: string; legalName: string; rut: string; address: string };
};

const chileanDate = (iso: string) => iso.slice(0, 10).split('-').reverse().join('-');

/** The text of the total line, as the receipt prints it (tests look for it). */
export const receiptTotalText = (amountClp: number) => `${formatClp(amountClp)} (impuestos incluidos)`;

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
  writer.banner(`${data.seller.name} · Comprobante de compra`, `Venta N° ${data.idVenta}`);
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

  writer.heading('Pago');
  writer.row('Fecha de compra', chileanDate(data.paidAt));
  if (data.payment.gateway) writer.row('Medio de pago', data.payment.gateway);
  if (data.payment.paymentType) writer.row('Tipo de pago', data.payment.paymentType);
  if (data.payment.instalments && data.payment.instalments > 1) {
    writer.row(
      'Cuotas',
      data.payment.instalmentAmountClp
        ? `${data.payment.instalments} cuotas de ${formatClp(data.payment.instalmentAmountClp)}`
        : `${data.payment.instalments} cuotas`,
    );
  }
  if (data.payment.authorizationCode) writer.row('Código de autorización', data.payment.authorizationCode);
  writer.row('Referencia', `Venta N° ${data.idVenta}`);
  writer.row('Total pagado', receiptTotalText(data.amountClp), { bold: true });
  writer.row('Equivalente en dólares', formatUsd(data.amountUsd));

  writer.gap(12);
  writer.text(
    `${data.seller.legalName} · RUT ${data.seller.rut} · ${data.seller.address}. Este comprobante acredita el pago de la compra indicada; no reemplaza la boleta o factura electrónica que corresponda.`,
    { size: 8, color: muted },
  );
  writer.text(`Emitido por ${data.seller.name}`, { size: 8, color: brand });
  return document.save();
}
