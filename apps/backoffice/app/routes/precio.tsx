import { Form, Link, useActionData, useLoaderData, useNavigation } from 'react-router';
import { CsrfField } from '#app/components/fields.tsx';
import { Notice } from '#app/components/Notice.tsx';
import {
  DraftChanges,
  PublicationHistory,
  PublishSection,
  ResultNotice,
  ScheduledNotice,
} from '#app/components/Publishing.tsx';
import { TableWrap } from '#app/components/TableWrap.tsx';
import {
  adjustRates,
  centsText,
  changeText,
  type ImpactRow,
  lengthBandLabel,
  lengthBandsOf,
  type PlanPrices,
  type PriceGrid,
  type PriceItem,
  priceEditors,
  priceReaders,
  pricesFromForm,
  rateField,
} from '#app/features/prices.ts';
import type { Publication, PublishingResult } from '#app/features/publishing.ts';
import { callApi } from '#app/lib/api.server.ts';
import { useConsole } from '#app/lib/console.ts';
import { formText } from '#app/lib/form.server.ts';
import { formatDateTime } from '#app/lib/format.ts';
import { publishingAction, refused, saveDraftOf } from '#app/lib/publishing.server.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/precio';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Precios de un plan') }];

export type PriceData = {
  grid: PriceGrid | null;
  item: PriceItem | null;
  impact: ImpactRow[];
  history: Publication[];
  canEdit: boolean;
  error?: string;
};

const planPath = (id: string) => `/prices/${encodeURIComponent(id)}`;

export async function loader({ request, context, params }: Route.LoaderArgs): Promise<PriceData> {
  const me = await requireOperator(context, request, priceReaders);
  const canEdit = me.operator.roles.some((role) => priceEditors.includes(role));
  const base = planPath(params.id);
  const [grid, item, impact, history] = await Promise.all([
    callApi<PriceGrid>(context, request, `${base}/grid`),
    callApi<PriceItem>(context, request, base),
    callApi<{ rows: ImpactRow[] }>(context, request, `${base}/impact`),
    callApi<{ publications: Publication[] }>(context, request, `${base}/history`),
  ]);
  if (!grid.ok || !item.ok) {
    const failed = !grid.ok ? grid : item.ok ? undefined : item;
    return { grid: null, item: null, impact: [], history: [], canEdit, error: failed?.error.message };
  }
  return {
    grid: grid.data,
    item: item.data,
    impact: impact.ok ? impact.data.rows : [],
    history: history.ok ? history.data.publications : [],
    canEdit,
    ...(impact.ok ? {} : { error: `No pudimos calcular el impacto: ${impact.error.message}` }),
  };
}

export type PriceResult = PublishingResult;

/** The grid's actions: save the draft, adjust every rate by a percentage, preview, publish, cancel, roll back. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = formText(form, 'intent');
  const base = planPath(params.id);

  if (intent === 'guardar' || intent === 'ajustar') {
    const grid = await callApi<PriceGrid>(context, request, `${base}/grid`);
    if (!grid.ok) return refused(grid.error.message, grid.status);
    const posted = pricesFromForm(form, grid.data);
    if (Object.keys(posted.errors).length > 0) return refused('Revisa los precios marcados.', 400, posted.errors);
    if (intent === 'guardar') return saveDraftOf(context, request, base, form, posted.prices);
    const percent = Number(formText(form, 'ajuste').replace(',', '.'));
    if (!Number.isFinite(percent) || percent <= -100 || percent > 1000) {
      return refused('Escribe el ajuste como un porcentaje, por ejemplo 10 o -5.', 400, {
        ajuste: 'Un porcentaje mayor que −100.',
      });
    }
    return saveDraftOf(context, request, base, form, adjustRates(posted.prices, percent));
  }
  return (
    (await publishingAction(context, request, base, form, {
      published: 'Precios publicados: la tienda ya muestra los nuevos precios.',
      rolledBack: 'Listo: la tienda volvió a esos precios (queda en el historial).',
    })) ?? refused('Acción desconocida.', 400)
  );
}

function rateOf(prices: PlanPrices, destinationId: number, passengerTypeId: number, minDays: number) {
  return prices.rates.find(
    (r) => r.destinationId === destinationId && r.passengerTypeId === passengerTypeId && r.minDays === minDays,
  )?.rateCents;
}

/** One length band's grid: a row per region, a column per age band; blank: not sold (or, after the first band, the
 * price of the band before goes on). */
function BandGrid({
  grid,
  item,
  shown,
  minDays,
  title,
  canEdit,
  fieldErrors,
}: {
  grid: PriceGrid;
  item: PriceItem;
  shown: PlanPrices;
  minDays: number;
  title: string | null;
  canEdit: boolean;
  fieldErrors: Record<string, string>;
}) {
  const perDay = grid.plan.rating === 'daily';
  return (
    <div className="space-y-1">
      {title ? <h3 className="font-semibold">{title}</h3> : null}
      <TableWrap label={title ? `Grilla de precios: ${title}` : 'Grilla de precios'}>
        <table className="data-table">
          <caption className="sr-only">
            Precios por región (filas) y tramo de edad (columnas){title ? `, ${title}` : ''}; vacío:{' '}
            {minDays === 1 ? 'no se vende' : 'sigue el precio del tramo anterior'}
          </caption>
          <thead>
            <tr>
              <th scope="col">Región</th>
              {grid.passengerTypes.map((band) => (
                <th scope="col" key={band.id}>
                  {band.label}
                  <span className="block text-xs font-normal">
                    {band.ageFrom}–{band.ageTo} años
                  </span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {grid.regions.map((region) => (
              <tr key={region.id}>
                <th scope="row">{region.label}</th>
                {grid.passengerTypes.map((band) => {
                  const name = rateField(region.id, band.id, minDays);
                  const live = rateOf(item.live, region.id, band.id, minDays);
                  const draft = rateOf(shown, region.id, band.id, minDays);
                  return (
                    <td key={band.id}>
                      <input
                        name={name}
                        aria-label={`${region.label}, ${band.label}${title ? `, ${title}` : ''}: USD${perDay ? ' por día' : ''}`}
                        aria-invalid={fieldErrors[name] ? true : undefined}
                        inputMode="decimal"
                        className="field-input w-24 tabular-nums"
                        defaultValue={centsText(draft)}
                        readOnly={!canEdit}
                      />
                      {live !== draft ? (
                        <span className="block text-xs text-slate-700">publicado: {centsText(live) || '—'}</span>
                      ) : null}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </div>
  );
}

export function PriceView({
  grid,
  item,
  impact,
  history,
  canEdit,
  error,
  csrfToken,
  result,
  busy = false,
}: PriceData & { csrfToken: string; result?: PriceResult | undefined; busy?: boolean }) {
  if (!grid || !item) {
    return (
      <section aria-labelledby="titulo" className="space-y-4">
        <h1 id="titulo" className="text-xl font-semibold">
          Precios
        </h1>
        <Notice tone="error">{error ?? 'No encontramos este plan.'}</Notice>
        <Link to="/precios" className="underline">
          Volver a la lista de planes
        </Link>
      </section>
    );
  }
  const shown = item.draft?.body ?? item.live;
  const version = item.draft?.version ?? 0;
  const fieldErrors = result?.errors ?? {};
  const perDay = grid.plan.rating === 'daily';
  const lengths = perDay ? lengthBandsOf(shown) : [1];
  return (
    <section aria-labelledby="titulo" className="space-y-6">
      <div>
        <Link to="/precios" className="text-sm underline">
          ← Todos los planes
        </Link>
        <h1 id="titulo" className="text-xl font-semibold">
          Precios de {grid.plan.label}
        </h1>
        <p className="text-sm text-slate-700">
          {item.draft
            ? `Borrador versión ${item.draft.version}, guardado por ${item.draft.updatedBy} el ${formatDateTime(item.draft.updatedAt)}.`
            : 'Sin borrador: la grilla muestra los precios publicados.'}
        </p>
      </div>
      <ResultNotice result={result} />
      {error ? <Notice tone="error">{error}</Notice> : null}
      <ScheduledNotice scheduled={item.scheduled} canEdit={canEdit} csrfToken={csrfToken} busy={busy} />

      <Form method="post" className="space-y-4" aria-labelledby="grilla">
        <CsrfField token={csrfToken} />
        <input type="hidden" name="version" value={version} />
        <h2 id="grilla" className="text-lg font-semibold">
          {perDay ? 'Precio por día (USD) por región y tramo de edad' : 'Precio por vigencia (USD)'}
        </h2>
        {perDay ? (
          <div className="max-w-xl text-sm">
            <label className="block">
              <span className="field-label">Tramos por duración (día desde el que cambia el precio)</span>
              <input
                name="tramos"
                className="field-input"
                defaultValue={lengths.join(', ')}
                aria-describedby="tramos-ayuda"
                aria-invalid={fieldErrors.tramos ? true : undefined}
                readOnly={!canEdit}
              />
            </label>
            <p id="tramos-ayuda" className="text-xs text-slate-700">
              Por ejemplo «1, 16, 31»: un precio por día hasta 15 días, otro de 16 a 30 y otro desde 31, para todos los
              días del viaje. Un tramo nuevo parte con los precios del anterior; guarda y luego ajústalos.
            </p>
          </div>
        ) : null}
        {lengths.map((minDays, index) => (
          <BandGrid
            key={minDays}
            grid={grid}
            item={item}
            shown={shown}
            minDays={minDays}
            title={perDay && lengths.length > 1 ? lengthBandLabel(lengths, index) : null}
            canEdit={canEdit}
            fieldErrors={fieldErrors}
          />
        ))}
        {Object.values(fieldErrors).length > 0 ? (
          <ul className="text-sm text-red-800" aria-label="Errores">
            {Object.entries(fieldErrors).map(([name, message]) => (
              <li key={name}>{message}</li>
            ))}
          </ul>
        ) : null}
        <div className="grid gap-3 sm:grid-cols-3">
          <label className="block text-sm">
            <span className="field-label">Descuento del plan (%)</span>
            <input
              name="descuento"
              inputMode="decimal"
              className="field-input"
              defaultValue={String(shown.promotionBp / 100)}
              readOnly={!canEdit}
            />
          </label>
          <label className="block text-sm">
            <span className="field-label">Recargo covid (USD por día; vacío: no se ofrece)</span>
            <input
              name="covid"
              inputMode="decimal"
              className="field-input"
              defaultValue={centsText(shown.covidFeeCentsPerDay)}
              readOnly={!canEdit}
            />
          </label>
          {canEdit ? (
            <label className="block text-sm">
              <span className="field-label">Ajustar todos los precios (%)</span>
              <input name="ajuste" inputMode="decimal" className="field-input" placeholder="10" />
            </label>
          ) : null}
        </div>
        {canEdit ? (
          <div className="flex flex-wrap gap-2">
            <button type="submit" name="intent" value="guardar" className="button-primary" disabled={busy}>
              Guardar borrador
            </button>
            <button type="submit" name="intent" value="ajustar" className="button-secondary" disabled={busy}>
              Aplicar el ajuste y guardar
            </button>
          </div>
        ) : (
          <p className="text-sm text-slate-700">Tu rol puede ver los precios, no cambiarlos.</p>
        )}
      </Form>

      <DraftChanges changes={item.changes} />

      <section aria-labelledby="impacto" className="space-y-2">
        <h2 id="impacto" className="text-lg font-semibold">
          Impacto
        </h2>
        <p className="text-sm text-slate-700">
          Viajes de ejemplo de un pasajero, sin código de descuento: el total de hoy y el del borrador, en USD y en
          pesos al tipo de cambio de hoy.
        </p>
        {impact.length === 0 ? (
          <p className="rounded border border-slate-300 bg-white p-3 text-sm">
            No hay viajes de ejemplo para este plan.
          </p>
        ) : (
          <TableWrap label="Tabla de impacto">
            <table className="data-table">
              <caption className="sr-only">Impacto del borrador en viajes de ejemplo</caption>
              <thead>
                <tr>
                  <th scope="col">Región</th>
                  <th scope="col">Tramo</th>
                  <th scope="col">Días</th>
                  <th scope="col">Hoy (USD)</th>
                  <th scope="col">Nuevo (USD)</th>
                  <th scope="col">Hoy (CLP)</th>
                  <th scope="col">Nuevo (CLP)</th>
                  <th scope="col">Cambio</th>
                </tr>
              </thead>
              <tbody>
                {impact.map((row) => (
                  <tr key={`${row.destinationId}-${row.passengerTypeId}-${row.days}`}>
                    <td>{row.region}</td>
                    <td>{row.band}</td>
                    <td className="tabular-nums">{row.days}</td>
                    <td className="tabular-nums">{row.formatted.todayUsd}</td>
                    <td className="tabular-nums">{row.formatted.newUsd}</td>
                    <td className="tabular-nums">{row.formatted.todayClp}</td>
                    <td className="tabular-nums">{row.formatted.newClp}</td>
                    <td className="tabular-nums">{changeText(row.changePercent)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </section>

      {canEdit && item.draft ? <PublishSection version={version} csrfToken={csrfToken} busy={busy} preview /> : null}

      <PublicationHistory
        history={history}
        canEdit={canEdit}
        csrfToken={csrfToken}
        busy={busy}
        words={{ noChanges: 'Sin cambios de precio.', backToBefore: 'Volver a los precios anteriores' }}
      />
    </section>
  );
}

export default function PricePage() {
  const { csrfToken } = useConsole();
  const busy = useNavigation().state !== 'idle';
  return (
    <PriceView
      {...useLoaderData<typeof loader>()}
      csrfToken={csrfToken}
      result={useActionData<typeof action>()}
      busy={busy}
    />
  );
}
