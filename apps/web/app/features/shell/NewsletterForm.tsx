import { zodResolver } from '@hookform/resolvers/zod';
import { uiMessages } from '@travesia/domain/messages';
import { type NewsletterInput, newsletterSchema } from '@travesia/domain/rules';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { browserApi } from '#app/lib/api.ts';

/**
 * Suscríbete (spec §5): validated in the browser with the same schema the API applies; an invalid form makes
 * no call; success shows «El email ha sido suscrito» and resets; a failed call is only logged.
 */
export function NewsletterForm({ companyId }: { companyId: number }) {
  const [subscribed, setSubscribed] = useState(false);
  const inputId = useId();
  const errorId = useId();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<NewsletterInput>({
    resolver: zodResolver(newsletterSchema),
    defaultValues: { email: '' },
  });

  const onValid = async (values: NewsletterInput) => {
    const { response } = await browserApi.POST('/companies/{companyId}/subscriptions', {
      params: { path: { companyId } },
      body: values,
    });
    if (response.ok) {
      setSubscribed(true);
      reset();
    } else {
      console.warn(`Newsletter subscription failed with status ${response.status}`);
    }
  };

  const error = errors.email?.message;
  return (
    <form
      noValidate
      onSubmit={handleSubmit(onValid, () => setSubscribed(false))}
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
          {...register('email', { onChange: () => setSubscribed(false) })}
        />
        <button
          type="submit"
          disabled={isSubmitting}
          className="rounded-lg bg-accent-700 px-4 py-2 font-semibold text-white hover:bg-accent-800 disabled:opacity-60"
        >
          {isSubmitting ? 'Enviando...' : 'Suscribirme'}
        </button>
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
