import { uiMessages } from '@travesia/domain/messages';
import { type FormEvent, useId, useState } from 'react';
import { useLocation } from 'react-router';
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

/** The path of routes/suscripcion.tsx, which answers the form's native post (see features/shell/newsletter.server.ts). */
export const subscriptionPath = '/suscripcion';

type Props = {
  companyId: number;
  /** Where the subscription page links back to; the footer's form names the page it is on. */
  returnTo?: string;
  /** What the subscription page shows after a native post: the address as typed and its problem, or success. */
  initial?: { email: string; error?: string; subscribed: boolean };
};

/**
 * Suscríbete (spec §5): validated in the browser with the same schema the API applies; an invalid form makes
 * no call; success shows «El email ha sido suscrito», asks to confirm from the inbox (double opt-in) and resets; a failed call is only logged. After a first
 * submit, each change checks the address again. Before the scripts run (or without them) it is a plain POST to
 * /suscripcion, which checks and saves the address on the server and shows the outcome: the address never rides
 * in a URL.
 */
export function NewsletterForm({ companyId, returnTo, initial }: Props) {
  const location = useLocation();
  const [subscribed, setSubscribed] = useState(initial?.subscribed ?? false);
  const [email, setEmail] = useState(initial?.email ?? '');
  const [error, setError] = useState<string | undefined>(initial?.error);
  const [submitted, setSubmitted] = useState(initial?.error !== undefined);
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

  // The subscription page shows its own form (with the post's outcome): the footer's would be a twin.
  if (!initial && location.pathname === subscriptionPath) return null;

  return (
    <form
      method="post"
      action={subscriptionPath}
      noValidate
      onSubmit={onSubmit}
      onFocus={preloadSubscribe}
      className="flex flex-col gap-2"
      aria-label={uiMessages.subscribeTitle}
    >
      <h2 className="text-lg font-bold text-white">{uiMessages.subscribeTitle}</h2>
      <input type="hidden" name="volver" value={returnTo ?? `${location.pathname}${location.search}`} />
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
          {uiMessages.emailSubscribed}. {uiMessages.subscriptionCheckInbox}
        </output>
      ) : null}
    </form>
  );
}
