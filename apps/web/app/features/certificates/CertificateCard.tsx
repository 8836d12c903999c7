import { useState } from 'react';
import { useFetcher } from 'react-router';
import { formatDay } from '#app/lib/format.ts';
import type { FoundCertificate, SendOutcome } from './certificates.server.ts';

/** The company's documents every certificate card links to. */
export type Links = { generalConditionsUrl: string; activationProcedureUrl: string };

/** One certificate found: its holder, plan and dates, its download and «send it by e-mail». */
export function CertificateCard({
  certificate,
  downloads,
  links,
  sent,
}: {
  certificate: FoundCertificate;
  downloads: boolean;
  links: Links;
  sent: SendOutcome | null;
}) {
  const sender = useFetcher<SendOutcome>();
  const sending = sender.state !== 'idle';
  const outcome = sender.state === 'idle' ? (sender.data ?? sent) : null;
  const headingId = `certificado-${certificate.certificate}`;
  const rows = [
    { term: 'Nombre', detail: certificate.name },
    { term: 'Apellido', detail: certificate.lastName },
    { term: 'Email', detail: certificate.email },
    { term: 'Fecha de salida', detail: formatDay(certificate.departureDate) },
    { term: 'Fecha de regreso', detail: formatDay(certificate.returnDate) },
  ];
  return (
    <li aria-labelledby={headingId} className="flex flex-col rounded-2xl bg-white p-5 shadow ring-1 ring-slate-900/5">
      <h3 id={headingId} className="mb-3 font-mono text-sm font-semibold text-slate-600">
        Certificado N° {certificate.certificate}
      </h3>
      <dl className="mb-5 grid gap-2 text-sm">
        {rows.map((row) => (
          <div key={row.term} className="flex justify-between gap-4 border-b border-slate-100 pb-1.5 last:border-0">
            <dt className="text-slate-600">{row.term}</dt>
            <dd className="text-right font-semibold break-all text-slate-900">{row.detail}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-auto grid gap-3">
        {downloads && certificate.downloadToken ? (
          <DownloadButton idVenta={certificate.idVenta} token={certificate.downloadToken} />
        ) : null}
        <sender.Form method="post">
          <input type="hidden" name="certificado" value={certificate.certificate} />
          <button
            type="submit"
            disabled={sending}
            className="w-full rounded-xl border-2 border-brand-700 px-4 py-2.5 font-bold text-brand-700 hover:bg-brand-700 hover:text-white disabled:cursor-wait disabled:opacity-60 disabled:hover:bg-transparent disabled:hover:text-brand-700"
          >
            {sending ? 'Enviando...' : 'Enviar Certificado'}
          </button>
        </sender.Form>
        <div aria-live="polite" className="empty:hidden">
          {outcome ? (
            <p
              role={outcome.sent ? 'status' : 'alert'}
              className={`rounded-lg px-3 py-2 text-sm font-semibold ${outcome.sent ? 'bg-emerald-50 text-emerald-800' : 'bg-red-50 text-red-800'}`}
            >
              {outcome.message}
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap justify-between gap-x-4 gap-y-1 text-sm">
          <a href={links.generalConditionsUrl} className="font-semibold text-brand-700 underline underline-offset-4">
            Condiciones Generales
          </a>
          <a href={links.activationProcedureUrl} className="font-semibold text-brand-700 underline underline-offset-4">
            Procedimiento Activación
          </a>
        </div>
      </div>
    </li>
  );
}

/** «Descargar Certificado»: the PDF through a short-lived link; «Descargando...» while it arrives. */
function DownloadButton({ idVenta, token }: { idVenta: number; token: string }) {
  const [busy, setBusy] = useState(false);
  const href = `/api/certificates/b2c/${idVenta}/certificado.pdf?token=${encodeURIComponent(token)}`;
  return (
    <a
      href={href}
      download="certificado.pdf"
      aria-disabled={busy || undefined}
      onClick={async (event) => {
        event.preventDefault();
        if (busy) return;
        setBusy(true);
        try {
          const response = await fetch(href);
          if (!response.ok) throw new Error(String(response.status));
          const url = URL.createObjectURL(await response.blob());
          const link = document.createElement('a');
          link.href = url;
          link.download = 'certificado.pdf';
          link.click();
          URL.revokeObjectURL(url);
        } catch {
          // Spec §8: a failed download only resets the busy flag.
        } finally {
          setBusy(false);
        }
      }}
      className="rounded-xl bg-accent-700 px-4 py-3 text-center font-bold text-white shadow hover:bg-accent-800 aria-disabled:cursor-wait aria-disabled:opacity-70"
    >
      {busy ? 'Descargando...' : 'Descargar Certificado'}
    </a>
  );
}
