import { data, Form, redirect, useActionData, useNavigation, useSearchParams } from 'react-router';
import { TextField } from '#app/components/fields.tsx';
import { Notice } from '#app/components/Notice.tsx';
import { callApi, fieldError, relayedCookies, retryAfterText } from '#app/lib/api.server.ts';
import type { Me, SignInStep } from '#app/lib/contract.ts';
import { formText } from '#app/lib/form.server.ts';
import { returnPath } from '#app/lib/paths.ts';
import { currentOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/ingresar';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Ingresar') }];

/** Signed in already: straight to the page asked for. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const me = await currentOperator(context, request);
  if (me) throw redirect(returnPath(new URL(request.url).searchParams.get('volver')));
  return null;
}

/** The one answer for a wrong e-mail or password, whether or not the account exists (the contract's wording). */
export const wrongCredentials = 'Correo o contraseña incorrectos.';
export const wrongCode = 'El código no es válido o la verificación venció. Revísalo, o vuelve a empezar.';

export type SignInState =
  | { step: 'password'; email: string; message?: string; errors?: { email?: string; password?: string } }
  | { step: 'code'; email: string; challenge: string; message?: string; codeError?: string };

/**
 * Two steps, each a plain form post (no script needed): e-mail and password give a challenge, then the code of the
 * authenticator or a recovery code opens the session (the API's cookie passes through to the browser).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const email = formText(form, 'email');
  if (formText(form, 'intent') === 'code') {
    const challenge = formText(form, 'challenge');
    const code = formText(form, 'code').replace(/\s+/g, '');
    if (!code) {
      return data<SignInState>(
        { step: 'code', email, challenge, codeError: 'Escribe el código de 6 dígitos o un código de recuperación.' },
        { status: 400 },
      );
    }
    const answer = await callApi<Pick<Me, 'operator' | 'csrfToken'>>(context, request, '/sign-in/second-factor', {
      method: 'POST',
      body: { challenge, code },
    });
    if (answer.ok) {
      throw redirect(returnPath(formText(form, 'volver')), { headers: relayedCookies(answer.headers) });
    }
    const retry = answer.status === 429 ? retryAfterText(answer.headers) : undefined;
    return data<SignInState>(
      {
        step: 'code',
        email,
        challenge,
        message: [answer.status === 401 ? wrongCode : answer.error.message, retry].filter(Boolean).join(' '),
        ...(fieldError(answer.error, 'code') ? { codeError: fieldError(answer.error, 'code') } : {}),
      },
      { status: answer.status },
    );
  }

  const password = form.get('password');
  const errors: { email?: string; password?: string } = {};
  if (!email) errors.email = 'Escribe tu correo.';
  if (typeof password !== 'string' || password === '') errors.password = 'Escribe tu contraseña.';
  if (errors.email || errors.password) {
    return data<SignInState>({ step: 'password', email, errors }, { status: 400 });
  }
  const answer = await callApi<SignInStep>(context, request, '/sign-in', {
    method: 'POST',
    body: { email, password },
  });
  if (answer.ok && answer.data?.step === 'second-factor') {
    return data<SignInState>({ step: 'code', email, challenge: answer.data.challenge });
  }
  if (answer.ok) {
    return data<SignInState>({ step: 'password', email, message: 'La respuesta del servidor no se entendió.' }, 502);
  }
  const retry = answer.status === 429 ? retryAfterText(answer.headers) : undefined;
  const fieldErrors = {
    ...(fieldError(answer.error, 'email') ? { email: fieldError(answer.error, 'email') } : {}),
    ...(fieldError(answer.error, 'password') ? { password: fieldError(answer.error, 'password') } : {}),
  };
  return data<SignInState>(
    {
      step: 'password',
      email,
      message: [answer.status === 401 ? wrongCredentials : answer.error.message, retry].filter(Boolean).join(' '),
      errors: fieldErrors,
    },
    { status: answer.status },
  );
}

export function SignInForms({
  state,
  volver,
  busy,
}: {
  state: SignInState | undefined;
  volver: string;
  busy: boolean;
}) {
  if (state?.step === 'code') {
    return (
      <Form method="post" className="space-y-4" aria-labelledby="paso-codigo">
        <h2 id="paso-codigo" className="text-base font-semibold">
          Paso 2 de 2: código de verificación
        </h2>
        {state.message ? <Notice tone="error">{state.message}</Notice> : null}
        <input type="hidden" name="intent" value="code" />
        <input type="hidden" name="challenge" value={state.challenge} />
        <input type="hidden" name="email" value={state.email} />
        <input type="hidden" name="volver" value={volver} />
        <TextField
          name="code"
          label="Código"
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          required
          autoFocus
          error={state.codeError}
          hint="Los 6 dígitos de tu aplicación de autenticación, o uno de tus códigos de recuperación."
        />
        <button type="submit" className="button-primary w-full" disabled={busy}>
          {busy ? 'Verificando…' : 'Verificar e ingresar'}
        </button>
        <p className="text-sm">
          <a href="/backoffice/ingresar" className="text-brand-700 underline">
            Volver a empezar
          </a>
        </p>
      </Form>
    );
  }
  return (
    <Form method="post" className="space-y-4" aria-labelledby="paso-clave">
      <h2 id="paso-clave" className="text-base font-semibold">
        Paso 1 de 2: correo y contraseña
      </h2>
      {state?.message ? <Notice tone="error">{state.message}</Notice> : null}
      <input type="hidden" name="intent" value="password" />
      <input type="hidden" name="volver" value={volver} />
      <TextField
        name="email"
        label="Correo"
        type="email"
        autoComplete="username"
        required
        defaultValue={state?.email ?? ''}
        error={state?.errors?.email}
      />
      <TextField
        name="password"
        label="Contraseña"
        type="password"
        autoComplete="current-password"
        required
        error={state?.errors?.password}
      />
      <button type="submit" className="button-primary w-full" disabled={busy}>
        {busy ? 'Revisando…' : 'Continuar'}
      </button>
    </Form>
  );
}

export default function SignIn() {
  const state = useActionData<typeof action>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  return (
    <main id="contenido" className="flex min-h-screen items-start justify-center px-4 py-10 sm:items-center">
      <div className="w-full max-w-sm space-y-5 rounded border border-slate-300 bg-white p-5 shadow-sm">
        <div>
          <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Consola Travesía</p>
          <h1 className="text-xl font-semibold">Ingresar</h1>
          <p className="mt-1 text-sm text-slate-700">Solo para el personal autorizado de la aseguradora.</p>
        </div>
        <SignInForms state={state} volver={returnPath(params.get('volver'))} busy={navigation.state === 'submitting'} />
      </div>
    </main>
  );
}
