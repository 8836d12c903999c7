import { Form, Link } from 'react-router';
import { TextField } from '#app/components/fields.tsx';
import { SubmitButton } from '#app/components/SubmitButton.tsx';
import type { AccessInput } from './purchase.ts';
import { primaryButton, secondaryButton } from './styles.ts';
import { useBusy } from './useBusy.ts';

function HiddenInput({ input }: { input: AccessInput }) {
  return (
    <>
      <input type="hidden" name="number" value={input.number} />
      <input type="hidden" name="documentType" value={input.documentType} />
      <input type="hidden" name="document" value={input.document} />
    </>
  );
}

/** «Mi compra», second step: the code sent by e-mail, or another code, or other details. */
export function CodeForm({ input, error }: { input: AccessInput; error: string | null }) {
  const checking = useBusy('codigo');
  const resending = useBusy('pedir');
  return (
    <>
      <p className="mt-3 text-slate-600" role="status">
        Si los datos coinciden con una compra, enviamos un código de 6 dígitos al correo de quien hizo la compra o, si
        es el documento de otro pasajero, a su propio correo. Vence en 10 minutos.
      </p>
      <Form
        method="post"
        noValidate
        aria-label="Ingresar código"
        className="mt-6 grid gap-4 rounded-2xl bg-white p-5 shadow-lg ring-1 ring-slate-900/5 sm:p-6"
      >
        <input type="hidden" name="intent" value="codigo" />
        <HiddenInput input={input} />
        <TextField
          label="Código"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          error={error ?? undefined}
          required
          autoFocus
        />
        <SubmitButton busy={checking} label="Ver mi compra" busyLabel="Revisando..." className={primaryButton} />
      </Form>
      <div className="mt-5 flex flex-col gap-3 sm:flex-row sm:items-center">
        <Form method="post">
          <input type="hidden" name="intent" value="pedir" />
          <HiddenInput input={input} />
          <SubmitButton
            busy={resending}
            label="Enviar otro código"
            busyLabel="Enviando..."
            className={secondaryButton}
          />
        </Form>
        <Link to="/mi-compra" className="font-semibold text-brand-700 underline underline-offset-4">
          Cambiar mis datos
        </Link>
      </div>
    </>
  );
}
