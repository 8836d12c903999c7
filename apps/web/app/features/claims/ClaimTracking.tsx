import { documentAccept, formatRefundAmount, refundLimits } from '@travesia/domain/refunds';
import { Form, useNavigation } from 'react-router';
import { FormErrors, FormSection, TextField } from '#app/components/fields.tsx';
import { SubmitButton } from '#app/components/SubmitButton.tsx';
import type { FieldError } from '#app/lib/api-answer.server.ts';
import { errorOf } from './ClaimForm.tsx';
import type { ClaimTracking } from './claims.server.ts';
import { FileField } from './FileField.tsx';

const dateFormat = new Intl.DateTimeFormat('es-CL', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  timeZone: 'America/Santiago',
});
const day = (iso: string) => dateFormat.format(new Date(iso.length === 10 ? `${iso}T12:00:00Z` : iso));

/** The look-up form: request number and the holder's document, posted (the document never goes in a URL). */
export function TrackingLookup({
  numero,
  documento,
  errors = [],
}: {
  numero: string;
  documento: string;
  errors?: FieldError[];
}) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'lookup';
  return (
    <Form method="post" noValidate className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-900/5 sm:p-6">
      <input type="hidden" name="intent" value="lookup" />
      <div className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start">
        <TextField
          label="Número de solicitud"
          name="numero"
          defaultValue={numero}
          placeholder="R-7K3M9XQ2"
          autoCapitalize="characters"
          error={errorOf(errors, 'numero')}
        />
        <TextField
          label="Documento del titular"
          name="documento"
          defaultValue={documento}
          hint="RUT o DNI/pasaporte"
          error={errorOf(errors, 'documento')}
        />
        <SubmitButton
          busy={busy}
          label="Buscar"
          busyLabel="Buscando..."
          className="rounded-xl bg-accent-700 px-6 py-2.5 font-bold text-white shadow hover:bg-accent-800 disabled:opacity-70 sm:mt-6"
        />
      </div>
    </Form>
  );
}

/** What the status means for the holder, in words. */
function statusDetail(tracking: ClaimTracking) {
  const money = (amount: number) => formatRefundAmount(amount, tracking.moneda);
  switch (tracking.estado) {
    case 'recibida':
      return 'Recibimos tu solicitud. Pronto comenzaremos a revisarla.';
    case 'en_revision':
      return 'Estamos revisando tu solicitud y tus documentos.';
    case 'faltan_documentos':
      return `Para continuar necesitamos: ${tracking.documentosFaltantes ?? ''}`;
    case 'aprobada':
      return `Tu solicitud fue aprobada por ${money(tracking.montoAprobado ?? 0)}. Te transferiremos ese monto a la cuenta que indicaste.`;
    case 'rechazada':
      return `Tu solicitud fue rechazada. Motivo: ${tracking.motivoRechazo ?? ''}`;
    case 'pagada':
      return `Transferimos ${money(tracking.montoAprobado ?? tracking.monto)} a tu cuenta.`;
    default:
      return '';
  }
}

/** The request's status and documents; while documents are missing, the form to add them. */
export function TrackingResult({
  tracking,
  numero,
  documento,
  errors = [],
  uploaded,
}: {
  tracking: ClaimTracking;
  numero: string;
  documento: string;
  errors?: FieldError[];
  uploaded?: number;
}) {
  const navigation = useNavigation();
  const uploading = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'upload';
  const tone =
    tracking.estado === 'rechazada'
      ? 'bg-red-50 text-red-800 ring-red-200'
      : tracking.estado === 'faltan_documentos'
        ? 'bg-amber-50 text-amber-900 ring-amber-200'
        : 'bg-brand-50 text-brand-900 ring-brand-100';
  return (
    <div className="flex flex-col gap-5">
      {uploaded ? (
        <p
          role="status"
          className="rounded-xl bg-emerald-50 px-4 py-3 font-semibold text-emerald-800 ring-1 ring-emerald-200"
        >
          Recibimos {uploaded === 1 ? 'tu documento' : `tus ${uploaded} documentos`}. Tu solicitud volvió a revisión.
        </p>
      ) : null}
      <section
        aria-labelledby="refund-status"
        className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-900/5 sm:p-6"
      >
        <p className="text-sm text-slate-600">Solicitud {tracking.numero}</p>
        <h2 id="refund-status" className="mt-1 text-2xl font-bold text-slate-900">
          Estado: {tracking.estadoTexto}
        </h2>
        <p className={`mt-3 rounded-xl px-4 py-3 ring-1 ${tone}`}>{statusDetail(tracking)}</p>
        <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-slate-600">Monto solicitado</dt>
            <dd className="font-semibold text-slate-900">{formatRefundAmount(tracking.monto, tracking.moneda)}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Certificado o venta</dt>
            <dd className="font-semibold text-slate-900">{tracking.numeroCertificado}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Solicitud enviada</dt>
            <dd className="font-semibold text-slate-900">{day(tracking.fechaSolicitud)}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Última actualización</dt>
            <dd className="font-semibold text-slate-900">{day(tracking.fechaActualizacion)}</dd>
          </div>
        </dl>
        <h3 className="mt-5 font-bold text-slate-900">Documentos recibidos</h3>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-700">
          {tracking.documentos.map((file) => (
            <li key={`${file.nombre}-${file.fecha}`} className="break-all">
              {file.nombre} ({Math.max(1, Math.round(file.tamano / 1024))} KB, {day(file.fecha)})
            </li>
          ))}
        </ul>
      </section>
      {tracking.estado === 'faltan_documentos' ? (
        <FormSection title="Adjunta los documentos que faltan" description={tracking.documentosFaltantes ?? undefined}>
          <Form method="post" encType="multipart/form-data" noValidate className="flex flex-col gap-4">
            <input type="hidden" name="intent" value="upload" />
            <input type="hidden" name="numero" value={numero} />
            <input type="hidden" name="documento" value={documento} />
            <FileField
              label="Documentos"
              name="documentos"
              multiple
              accept={documentAccept}
              hint={`PDF, JPG o PNG. Hasta ${refundLimits.maxFiles} archivos de 5 MB cada uno.`}
              error={errorOf(errors, 'documentos')}
            />
            <SubmitButton
              busy={uploading}
              label="Enviar documentos"
              busyLabel="Enviando..."
              className="self-start rounded-xl bg-accent-700 px-6 py-3 font-bold text-white shadow hover:bg-accent-800 disabled:opacity-70"
            />
          </Form>
        </FormSection>
      ) : null}
    </div>
  );
}

export { FormErrors };
