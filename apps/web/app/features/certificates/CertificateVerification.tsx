import { todayInChile } from '@travesia/domain/dates';
import { formatDay } from '#app/lib/format.ts';
import type { CertificateVerification as Verification } from './certificates.server.ts';

/** The day in Chile of an instant, as the visitor writes days («28-11-2026»). */
const chileanDay = (instant: string) => formatDay(todayInChile(new Date(instant)));

const statuses: Record<
  Verification['status'],
  { title: string; english: string; detail: string | ((verification: Verification) => string); tone: string }
> = {
  valid: {
    title: 'Certificado VIGENTE',
    english: 'Valid certificate: the holders are covered today',
    detail: 'La asistencia en viaje está vigente hoy para las personas y fechas indicadas.',
    tone: 'bg-emerald-700',
  },
  not_started: {
    title: 'Certificado emitido, AÚN NO VIGENTE',
    english: 'Issued certificate: cover starts on the departure date',
    detail: 'El certificado es auténtico; la cobertura comienza en la fecha de salida.',
    tone: 'bg-brand-700',
  },
  expired: {
    title: 'Certificado VENCIDO',
    english: 'Expired certificate: cover ended on the return date',
    detail: 'El certificado es auténtico, pero su vigencia terminó en la fecha de regreso.',
    tone: 'bg-slate-700',
  },
  void: {
    title: 'Certificado SIN VALOR',
    english: 'Void certificate: issued by a test payment, it covers nobody',
    detail: 'Este certificado se emitió con un pago de prueba: no otorga cobertura.',
    tone: 'bg-red-700',
  },
  cancelled: {
    title: 'Certificado ANULADO',
    english: 'Cancelled certificate: the purchase was withdrawn, it covers nobody',
    detail:
      'Este certificado fue anulado porque la compra se dejó sin efecto (derecho a retracto): no otorga cobertura.',
    tone: 'bg-red-700',
  },
  replaced: {
    title: 'Certificado REEMPLAZADO',
    english: 'Replaced certificate: new certificates with another code replaced it after a change of dates',
    detail: (verification) =>
      `Este certificado fue reemplazado${verification.replacedAt ? ` el ${chileanDay(verification.replacedAt)}` : ''} por uno nuevo, con otro código, tras un cambio de fechas del viaje: ya no otorga cobertura. Pide al titular su certificado vigente.`,
    tone: 'bg-amber-800',
  },
};

/** /verificar/{code}: what a consulate or a clinic needs to know, in Spanish and English, and nothing more. */
export function CertificateVerification({ verification }: { verification: Verification }) {
  const status = statuses[verification.status];
  const replaced = verification.status === 'replaced';
  const rows = [
    { term: 'Código de verificación', english: 'Verification code', detail: verification.code },
    {
      // A replaced certificate shows the dates it had, never those of the one that replaced it.
      term: replaced ? 'Vigencia que indicaba' : 'Vigencia',
      english: replaced ? 'Period of cover it stated' : 'Period of cover',
      detail: `${formatDay(verification.departureDate)} al ${formatDay(verification.returnDate)}`,
    },
    ...(replaced && verification.replacedAt
      ? [{ term: 'Reemplazado el', english: 'Replaced on', detail: chileanDay(verification.replacedAt) }]
      : []),
    { term: 'Destino', english: 'Destination', detail: verification.destination },
    { term: 'Plan', english: 'Plan', detail: verification.plan },
    {
      term: 'Titulares (iniciales)',
      english: 'Insured persons (initials)',
      detail: verification.holders.join(' · '),
    },
  ];
  return (
    <section className="mx-auto max-w-2xl px-4 py-10 sm:py-14">
      <h1 className="mb-2 text-2xl font-bold text-brand-700 sm:text-3xl">Verificación de certificado</h1>
      <p className="mb-6 text-slate-600">Certificate verification</p>
      <div className={`mb-6 rounded-2xl px-5 py-5 text-white shadow ${status.tone}`}>
        <p className="text-2xl font-extrabold">{status.title}</p>
        <p lang="en" className="mt-1 font-semibold">
          {status.english}
        </p>
        <p className="mt-2">{typeof status.detail === 'function' ? status.detail(verification) : status.detail}</p>
      </div>
      <dl className="grid gap-3 rounded-2xl bg-white p-5 shadow ring-1 ring-slate-900/5">
        {rows.map((row) => (
          <div key={row.term} className="grid gap-1 border-b border-slate-100 pb-2 last:border-0 sm:grid-cols-2">
            <dt className="text-sm text-slate-600">
              {row.term} <span lang="en">/ {row.english}</span>
            </dt>
            <dd className="font-semibold break-words text-slate-900 sm:text-right">{row.detail}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-6 text-sm text-slate-600">
        Por privacidad solo mostramos las iniciales de los titulares: compáralas con el documento del viajero. El estado
        se calcula con la fecha de hoy en Chile.{' '}
        <span lang="en">
          For privacy only the holders&apos; initials are shown: compare them with the traveller&apos;s passport.
        </span>
      </p>
    </section>
  );
}
