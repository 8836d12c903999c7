import { useLoaderData } from 'react-router';
import { planReaders } from '#app/features/plans.ts';
import { callApi } from '#app/lib/api.server.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/planes';
import { type PlanChoice, type PlansData, PlansView } from './precios.tsx';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Planes') }];

export async function loader({ request, context }: Route.LoaderArgs): Promise<PlansData> {
  await requireOperator(context, request, planReaders);
  const answer = await callApi<{ plans: PlanChoice[] }>(context, request, '/prices');
  if (!answer.ok) return { plans: [], error: answer.error.message };
  return { plans: answer.data.plans ?? [] };
}

export default function Plans() {
  return (
    <PlansView
      {...useLoaderData<typeof loader>()}
      title="Planes"
      intro="Elige un plan para cambiar su nombre, para quién es, su imagen, colores, beneficios, dónde y a quién se vende, su IVA y sus condiciones generales, o para retirarlo. Los cambios quedan en borrador hasta que los publicas; puedes verlos antes en la tienda y volver atrás después."
      basePath="/planes"
    />
  );
}
