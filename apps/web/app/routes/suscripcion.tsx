import { uiMessages } from '@travesia/domain/messages';
import { Link } from 'react-router';
import { NewsletterForm } from '#app/features/shell/NewsletterForm.tsx';
import { subscribeFromForm } from '#app/features/shell/newsletter.server.ts';
import { safeReturnPath } from '#app/lib/safe-path.ts';
import { pageTitle, useWebsite } from '#app/lib/website.ts';
import type { Route } from './+types/suscripcion';

export const meta = () => pageTitle(uiMessages.subscribeTitle);

export function loader({ request }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  return { subscribed: query.get('estado') === 'suscrito', returnTo: safeReturnPath(query.get('volver')) };
}

export function action({ context, request }: Route.ActionArgs) {
  return subscribeFromForm(context, request);
}

/**
 * Where the footer's Suscríbete form posts when the page's scripts have not run: the confirmation, or the form again
 * with the address as typed and its problem.
 */
export default function SubscriptionPage({ loaderData, actionData }: Route.ComponentProps) {
  const { companyId } = useWebsite();
  const returnTo = actionData?.returnTo ?? loaderData.returnTo;
  return (
    <section className="mx-auto max-w-xl px-4 py-10 sm:py-14">
      <h1 className="mb-6 text-3xl font-bold text-brand-700">Suscripción</h1>
      <div className="surface-dark rounded-2xl bg-brand-900 p-6">
        <NewsletterForm
          companyId={companyId}
          returnTo={returnTo}
          initial={{
            email: actionData?.email ?? '',
            error: actionData?.error,
            subscribed: !actionData && loaderData.subscribed,
          }}
        />
      </div>
      <Link to={returnTo} className="mt-6 inline-block font-semibold text-brand-700 underline">
        Volver a la página anterior
      </Link>
    </section>
  );
}
