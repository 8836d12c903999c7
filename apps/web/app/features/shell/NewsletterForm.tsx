import { uiMessages } from '@travesia/domain/messages';
import { type FormEvent, useId, useState } from 'react';
import { SubmitButton } from '#app/components/SubmitButton.tsx';

/**
 * The newsletter's rule (the domain's zod schema, the API's own) and the API client: fetched when the visitor first
 * focuses the form, not with every page (docs/performance.md, «Client JavaScript»).
 */
const loadSubscribe = () =>
  Promise.all([import('@travesia/domain/rules'), import('#app/lib/api.ts')]).then(([rules, api]) => ({
    newsletterSchema: rules.newsletterSchema,
    browserApi: api.browserApi,
  }));
const preloadSubscribe = () => void loadSubscribe().catch(() => undefined);

/**
 * Suscríbete (spec §5): validated in the browser with the same schema the API applies; an invalid form makes
 * no call; success shows «El email ha sido suscrito» and resets; a failed call is only logged. After a first
 * submit, each change checks the address again.
 */
export function NewsletterForm({ companyId }: { companyId: number }) {
  const [subscribed, setSubscribed] = useState(false);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [submitted, setSubmitted] = useState(false);
  const [isSubmitting, setSubmitting] = useState(false);
  const inputId = useId();
  const errorId = useId();

  const check = async (value: string) => {
    const { newsletterSchema } = await loadSubscribe();
    const result = newsletterSchema.safeParse({ email: value });
    setError(result.success ? undefined : result.error.issues[0]?.message);
    return result.success ? result.data : null;
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    setSubmitting(true);
    try {
      const values = await check(email);
      if (!values) {
        setSubscribed(false);
        return;
      }
      const { browserApi } = await loadSubscribe();
      const { response } = await browserApi.POST('/companies/{companyId}/subscriptions', {
        params: { path: { companyId } },
        body: values,
      });
      if (response.ok) {
        setSubscribed(true);
        setEmail('');
        setSubmitted(false);
      } else {
        console.warn(`Newsletter subscription failed with status ${response.status}`);
      }
    } catch (failure) {
      console.warn('Newsletter subscription failed', failure);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      onFocus={preloadSubscribe}
      className="flex flex-col gap-2"
      aria-label={uiMessages.subscribeTitle}
    >
      <h2 className="text-lg font-bold text-white">{uiMessages.subscribeTitle}</h2>
      <p className="text-sm text-slate-300">Recibe ofertas y consejos para viajar protegido.</p>
      <label htmlFor={inputId} className="sr-only">
        Correo electrónico
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id={inputId}
          type="email"
          autoComplete="email"
          placeholder="tu@correo.cl"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="min-w-0 flex-1 rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900"
          name="email"
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            setSubscribed(false);
            if (submitted) void check(event.target.value).catch(() => undefined);
          }}
        />
        <SubmitButton
          busy={isSubmitting}
          label="Suscribirme"
          busyLabel="Enviando..."
          className="rounded-lg bg-accent-700 px-4 py-2 font-semibold text-white hover:bg-accent-800 disabled:opacity-60"
        />
      </div>
      {error ? (
        <p id={errorId} role="alert" className="text-sm font-medium text-orange-300">
          {error}
        </p>
      ) : null}
      {subscribed ? (
        <output className="text-sm font-medium text-emerald-300" data-testid="newsletter-success">
          {uiMessages.emailSubscribed}
        </output>
      ) : null}
    </form>
  );
}
