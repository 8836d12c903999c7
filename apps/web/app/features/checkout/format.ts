import { oldestAge } from '@travesia/domain/ids';
import { formatClp } from '@travesia/domain/money';

// The plans feature words age bands too: the label lives in #app/lib/format.ts.
export { bandLabel } from '#app/lib/format.ts';

/** The same calendar day `years` earlier (29 February falls back to 28 February). */
export function yearsBefore(isoDate: string, years: number): string {
  const [y = 0, m = 1, d = 1] = isoDate.split('-').map(Number);
  const year = y - years;
  const lastDay = new Date(Date.UTC(year, m, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(Math.min(d, lastDay)).padStart(2, '0')}`;
}

/** The range of birth dates whose age on the departure date falls in the band, never after today. */
export function birthDateRange(band: { ageFrom: number; ageTo: number }, departureDate: string, today: string) {
  const latest = yearsBefore(departureDate, band.ageFrom);
  const earliestExclusive = yearsBefore(departureDate, Math.min(band.ageTo, oldestAge - 1) + 1);
  const [y = 0, m = 1, d = 1] = earliestExclusive.split('-').map(Number);
  const next = new Date(Date.UTC(y, m - 1, d + 1));
  const earliest = next.toISOString().slice(0, 10);
  return { min: earliest, max: latest < today ? latest : today };
}

/** «1 cuota de $80.625 (pago contado)», «3 cuotas sin interés de $26.875»: how many and what each is. */
export function instalmentsLabel(instalments: number | null, amountClp: number | null): string {
  const each = amountClp === null ? '' : ` de ${formatClp(amountClp)}`;
  if (!instalments || instalments <= 1) return `1 cuota${each} (pago contado)`;
  return `${instalments} cuotas sin interés${each}`;
}

/** The general conditions as a printable PDF (the API's GET /legal/condiciones-generales.pdf). */
export const generalConditionsPdfUrl = '/api/legal/condiciones-generales.pdf';

/**
 * One traveller's certificate, from the sale's link (`…/b2c/{idVenta}/certificado.pdf?token=…`): the same sale and
 * proof, with the certificate number (`…/b2c/{idVenta}/certificados/{number}?token=…`).
 */
export function travellerCertificateUrl(saleCertificateUrl: string, number: string): string {
  return saleCertificateUrl.replace(/\/certificado\.pdf(?=\?|$)/, `/certificados/${encodeURIComponent(number)}`);
}
