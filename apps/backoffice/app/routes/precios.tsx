import { Link, useLoaderData } from 'react-router';
import { Notice } from '#app/components/Notice.tsx';
import { priceReaders } from '#app/features/prices.ts';
import { callApi } from '#app/lib/api.server.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/precios';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Precios') }];

export type PlanChoice = { id: number; code: string; label: string; rating: string };
export type PlansData = { plans: PlanChoice[]; error?: string };

export async function loader({ request, context }: Route.LoaderArgs): Promise<PlansData> {
  await requireOperator(context, request, priceReaders);
  const answer = await callApi<{ plans: PlanChoice[] }>(context, request, '/prices');
  if (!answer.ok) return { plans: [], error: answer.error.message };
  return { plans: answer.data.plans ?? [] };
}

/** The plans to pick from, for «Precios» and «Planes» (routes/planes.tsx): the title, a line of help, where a plan opens. */
export function PlansView({
  plans,
  error,
  title = 'Precios',
  intro = 'Elige un plan para cambiar su precio diario por región y tramo de edad, su descuento y su recargo covid. Los cambios quedan en borrador hasta que los publicas; puedes verlos antes en la tienda y volver atrás después.',
  basePath = '/precios',
}: PlansData & { title?: string; intro?: string; basePath?: string }) {
  return (
    <section aria-labelledby="titulo" className="space-y-4">
      <h1 id="titulo" className="text-xl font-semibold">
        {title}
      </h1>
      <p className="text-sm text-slate-700">{intro}</p>
      {error ? <Notice tone="error">{error}</Notice> : null}
      {plans.length === 0 && !error ? (
        <p className="rounded border border-slate-300 bg-white p-3 text-sm">No hay planes.</p>
      ) : (
        <ul className="grid gap-2 sm:grid-cols-2">
          {plans.map((plan) => (
            <li key={plan.id}>
              <Link
                to={`${basePath}/${plan.id}`}
                className="block rounded border border-slate-300 bg-white p-3 hover:border-brand-600 focus-visible:outline-2"
              >
                <span className="font-semibold">{plan.label}</span>
                <span className="block text-xs text-slate-700">
                  {plan.code} · {plan.rating === 'flat' ? 'precio por vigencia' : 'precio por día'}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default function Prices() {
  return <PlansView {...useLoaderData<typeof loader>()} />;
}
