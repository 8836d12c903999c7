import { useEffect, useRef } from 'react';
import { data, Form, type ShouldRevalidateFunction, useActionData, useLoaderData, useNavigation } from 'react-router';
import { CopyButton } from '#app/components/CopyButton.tsx';
import { TextField } from '#app/components/fields.tsx';
import { Notice } from '#app/components/Notice.tsx';
import { qrImageSource } from '#app/features/enrolment.server.ts';
import { groupedSecret, recoveryCodesFile, textDownloadHref } from '#app/features/enrolment.ts';
import { callApi, fieldError, relayedCookies } from '#app/lib/api.server.ts';
import { type Enrolment, type EnrolmentDone, type Role, roleLabels } from '#app/lib/contract.ts';
import { formText } from '#app/lib/form.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/enrolar';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Activar tu cuenta') }];

export type EnrolmentPage =
  | { state: 'invalid' }
  | { state: 'ready'; email: string; roles: Role[]; secret: string; otpauthUrl: string; qrImage: string };

/** The invitation behind the link: one answer (404) for a link that is unknown, used or expired. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const answer = await callApi<Enrolment>(context, request, `/enrolment/${encodeURIComponent(params.token)}`);
  if (!answer.ok || !answer.data?.totp) return data<EnrolmentPage>({ state: 'invalid' }, { status: 404 });
  const { email, roles, totp } = answer.data;
  return {
    state: 'ready',
    email,
    roles,
    secret: totp.secret,
    otpauthUrl: totp.otpauthUrl,
    qrImage: qrImageSource(totp.qrSvg),
  } satisfies EnrolmentPage;
}

/**
 * A done enrolment used its link: reading the link again (the loader after the action) would only answer 404, while
 * the page shows the recovery codes. A refused try keeps the link and the page as they are.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod === undefined ? defaultShouldRevalidate : false;

export type EnrolmentResult =
  | { state: 'done'; email: string; recoveryCodes: string[] }
  | { state: 'error'; message: string; name: string; errors: { name?: string; password?: string; totpCode?: string } };

/** Name, password and the first code of the authenticator: the API answers the 10 recovery codes and a session. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await request.formData();
  const name = formText(form, 'name');
  const password = form.get('password');
  const totpCode = formText(form, 'totpCode').replace(/\s+/g, '');
  const errors: { name?: string; password?: string; totpCode?: string } = {};
  if (!name) errors.name = 'Escribe tu nombre.';
  if (typeof password !== 'string' || password.length < 12) errors.password = 'Usa al menos 12 caracteres.';
  if (!/^\d{6}$/.test(totpCode)) errors.totpCode = 'Escribe los 6 dígitos que muestra tu aplicación.';
  if (errors.name || errors.password || errors.totpCode) {
    return data<EnrolmentResult>({ state: 'error', message: 'Revisa los campos marcados.', name, errors }, 400);
  }
  const answer = await callApi<EnrolmentDone>(context, request, `/enrolment/${encodeURIComponent(params.token)}`, {
    method: 'POST',
    body: { name, password, totpCode },
  });
  if (!answer.ok) {
    const found = {
      name: fieldError(answer.error, 'name'),
      password: fieldError(answer.error, 'password'),
      totpCode: fieldError(answer.error, 'totpCode'),
    };
    return data<EnrolmentResult>(
      {
        state: 'error',
        message: answer.error.message,
        name,
        errors: Object.fromEntries(Object.entries(found).filter(([, value]) => value)),
      },
      { status: answer.status },
    );
  }
  return data<EnrolmentResult>(
    { state: 'done', email: answer.data.operator.email, recoveryCodes: answer.data.recoveryCodes },
    { headers: relayedCookies(answer.headers) },
  );
}

export function RecoveryCodes({ email, codes }: { email: string; codes: string[] }) {
  const file = recoveryCodesFile(email, codes);
  const heading = useRef<HTMLHeadingElement>(null);
  // The form that was sent is gone: the keyboard and the screen reader continue from the codes' heading.
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby="codigos" className="space-y-3">
      <h2 id="codigos" ref={heading} tabIndex={-1} className="text-lg font-semibold">
        Tus 10 códigos de recuperación
      </h2>
      <Notice tone="info">
        Guárdalos en un lugar seguro: se muestran solo esta vez. Cada uno sirve una vez para ingresar si no tienes tu
        aplicación de autenticación.
      </Notice>
      <ol className="grid grid-cols-2 gap-1 rounded border border-slate-300 bg-white p-3 font-mono text-sm">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="flex flex-wrap items-center gap-2">
        <a href={textDownloadHref(file)} download="codigos-recuperacion-travesia.txt" className="button-secondary">
          Descargar
        </a>
        <CopyButton text={codes.join('\n')} />
      </div>
      <p>
        <a href="/backoffice" className="button-primary">
          Ir a la consola
        </a>
      </p>
    </section>
  );
}

export function EnrolmentForm({
  page,
  result,
  busy,
}: {
  page: Extract<EnrolmentPage, { state: 'ready' }>;
  result: Extract<EnrolmentResult, { state: 'error' }> | undefined;
  busy: boolean;
}) {
  return (
    <>
      <p className="text-sm">
        Cuenta <strong className="break-all">{page.email}</strong> ·{' '}
        {page.roles.map((role) => roleLabels[role]).join(', ')}
      </p>
      {result ? <Notice tone="error">{result.message}</Notice> : null}
      <section aria-labelledby="paso-app" className="space-y-2">
        <h2 id="paso-app" className="font-semibold">
          1. Agrega la cuenta a tu aplicación de autenticación
        </h2>
        <p className="text-sm">Escanea el código QR, o escribe la clave a mano en la aplicación.</p>
        <img
          src={page.qrImage}
          alt="Código QR para tu aplicación de autenticación (la misma clave aparece escrita abajo)"
          width={192}
          height={192}
          className="size-48 border border-slate-300 bg-white p-2"
        />
        <div className="flex flex-wrap items-center gap-2">
          <p className="text-sm">
            Clave:{' '}
            <code className="rounded bg-slate-100 px-1 py-0.5 font-mono break-all">{groupedSecret(page.secret)}</code>
          </p>
          <CopyButton text={page.secret} label="Copiar clave" />
        </div>
      </section>
      <Form method="post" className="space-y-3" aria-labelledby="paso-datos">
        <h2 id="paso-datos" className="font-semibold">
          2. Completa tus datos
        </h2>
        <TextField
          name="name"
          label="Nombre"
          autoComplete="name"
          required
          defaultValue={result?.name ?? ''}
          error={result?.errors.name}
        />
        <TextField
          name="password"
          label="Contraseña"
          type="password"
          autoComplete="new-password"
          required
          minLength={12}
          error={result?.errors.password}
          hint="Al menos 12 caracteres. Mejor una frase de varias palabras que no uses en otro sitio; no hace falta mezclar símbolos. Revisamos que no sea fácil de adivinar."
        />
        <TextField
          name="totpCode"
          label="Código de 6 dígitos de la aplicación"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9 ]*"
          required
          error={result?.errors.totpCode}
        />
        <button type="submit" className="button-primary" disabled={busy}>
          {busy ? 'Activando…' : 'Activar mi cuenta'}
        </button>
      </Form>
    </>
  );
}

export default function Enrol() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  return (
    <main id="contenido" className="mx-auto max-w-xl space-y-4 px-4 py-8">
      <div>
        <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Consola Travesía</p>
        <h1 className="text-xl font-semibold">Activar tu cuenta</h1>
      </div>
      {result?.state === 'done' ? (
        <RecoveryCodes email={result.email} codes={result.recoveryCodes} />
      ) : page.state === 'invalid' ? (
        <Notice tone="error">
          Este enlace no sirve: no existe, ya se usó o venció (dura 24 horas). Pide a un administrador uno nuevo.
        </Notice>
      ) : (
        <EnrolmentForm page={page} result={result?.state === 'error' ? result : undefined} busy={busy} />
      )}
    </main>
  );
}
