import { Form } from 'react-router';
import { SelectField, TextField } from '#app/components/fields.tsx';
import { SubmitButton } from '#app/components/SubmitButton.tsx';
import { type AccessInput, documentKinds } from './purchase.ts';
import { primaryButton } from './styles.ts';
import { useBusy } from './useBusy.ts';

/** «Mi compra», first step: the purchase or certificate number and one's document, to be sent a code. */
export function RequestForm({
  input,
  errors,
  message,
}: {
  input: AccessInput;
  errors: Partial<Record<keyof AccessInput, string>>;
  message: string | null;
}) {
  const busy = useBusy('pedir');
  return (
    <>
      <p className="mt-3 text-slate-600">
        Revisa tu compra y descarga tus documentos. Si hiciste la compra, usa tu documento: te enviaremos un código al
        correo de la compra y verás la compra completa. Si eres otro pasajero, usa tu propio documento: te enviaremos el
        código a tu correo y verás tu viaje y tu certificado.
      </p>
      {message ? (
        <p role="alert" className="mt-6 rounded-lg bg-red-50 px-4 py-3 font-semibold text-red-800">
          {message}
        </p>
      ) : null}
      <Form
        method="post"
        noValidate
        aria-label="Pedir código"
        className="mt-6 grid gap-4 rounded-2xl bg-white p-5 shadow-lg ring-1 ring-slate-900/5 sm:p-6"
      >
        <input type="hidden" name="intent" value="pedir" />
        <TextField
          label="N° de compra o de certificado"
          name="number"
          defaultValue={input.number}
          error={errors.number}
          hint="Está en el correo de tu compra, por ejemplo 123456789 o TRV-2026-…"
          autoComplete="off"
          required
        />
        <SelectField label="Tipo de documento" name="documentType" defaultValue={input.documentType}>
          {documentKinds.map((kind) => (
            <option key={kind.value} value={kind.value}>
              {kind.label}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Tu documento"
          name="document"
          defaultValue={input.document}
          error={errors.document}
          hint="El RUT puede ir con o sin puntos y guion."
          autoComplete="off"
          required
        />
        <SubmitButton busy={busy} label="Enviar código" busyLabel="Enviando..." className={primaryButton} />
      </Form>
    </>
  );
}
