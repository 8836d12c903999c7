import { Link, useLoaderData } from 'react-router';
import { figuresOf, figureTarget } from '#app/features/today.ts';
import { callApi } from '#app/lib/api.server.ts';
import type { TodayFigure } from '#app/lib/contract.ts';
import { formatFigure } from '#app/lib/format.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/hoy';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Hoy') }];

export type TodayData = { figures: TodayFigure[]; error?: string };

/** The figures of the day; an API failure shows as a notice on the page, not as a broken console. */
export async function loader({ request, context }: Route.LoaderArgs): Promise<TodayData> {
  await requireOperator(context, request);
  const answer = await callApi<unknown>(context, request, '/today');
  if (!answer.ok) return { figures: [], error: answer.error.message };
  return { figures: figuresOf(answer.data) };
}

export function TodayView({ figures, error }: TodayData) {
  return (
    <section aria-labelledby="titulo" className="space-y-4">
      <div className="flex flex-wrap items-baseline gap-3">
        <h1 id="titulo" className="text-xl font-semibold">
          Hoy
        </h1>
        <Link to="." className="text-sm text-brand-700 underline">
          Actualizar
        </Link>
      </div>
      {error ? (
        <div role="alert" className="rounded border-l-4 border-red-700 bg-red-50 p-3 text-sm text-red-900">
          <p className="font-semibold">No pudimos cargar las cifras de hoy.</p>
          <p>{error}</p>
        </div>
      ) : figures.length === 0 ? (
        <p className="rounded border border-slate-300 bg-white p-3 text-sm">Todavía no hay cifras para mostrar hoy.</p>
      ) : (
        <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-4">
          {figures.map((figure) => {
            const target = figureTarget(figure.href);
            const body = (
              <>
                <span className="block text-sm text-slate-700">{figure.label}</span>
                <span className="mt-1 block text-2xl font-semibold tabular-nums">
                  {formatFigure(figure.value, figure.unit)}
                </span>
                {figure.warning ? (
                  <span className="mt-2 block rounded bg-amber-100 px-2 py-1 text-sm text-amber-950">
                    <span className="font-semibold">Atención: </span>
                    {figure.warning}
                  </span>
                ) : null}
              </>
            );
            return (
              <li key={figure.key}>
                {target ? (
                  <Link
                    to={target}
                    className="block rounded border border-slate-300 bg-white p-3 hover:border-brand-700 hover:bg-brand-50"
                  >
                    {body}
                  </Link>
                ) : (
                  <div className="rounded border border-slate-300 bg-white p-3">{body}</div>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

export default function Today() {
  return <TodayView {...useLoaderData<typeof loader>()} />;
}
