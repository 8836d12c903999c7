/**
 * «Planes» (issue 25 item 1): the shapes of the API's kind `plans` (apps/api/src/modules/plans/plan-details.ts, the
 * publishing model's `/plans/:key…` routes and plans/plan-files.ts's uploads) and the editor's form, in the console's
 * words. The API sanitises every text again on save; the form only reads what was posted.
 */
import type { Role } from '#app/lib/contract.ts';
import type { PublishingItem } from './publishing.ts';

export type Benefit = { label: string; value: string; isPriority: boolean };

export type PlanDetails = {
  label: string;
  audience: string;
  badge: { label: string; color: string } | null;
  arrowColor: string | null;
  titleColor: string;
  color: string;
  isBestSeller: boolean;
  medicalLimitUsd: number;
  benefits: Benefit[];
  modalityIds: number[];
  regionIds: number[];
  passengerTypeIds: number[];
  tax: { enabled: boolean; rateBp: number; reason: string };
  image: { large: string; small: string };
  conditionsKey: string | null;
  retired: boolean;
};

export type PlanItem = PublishingItem<PlanDetails>;

export type PlanOptions = {
  modalities: { id: number; label: string }[];
  regions: { id: number; label: string }[];
  passengerTypes: { id: number; label: string; ageFrom: number; ageTo: number }[];
};

/** Who edits and publishes plans; pricing reads them (apps/api/src/modules/operators/guard.ts). */
export const planEditors: readonly Role[] = ['admin', 'content'];
export const planReaders: readonly Role[] = ['admin', 'content', 'pricing'];

/** How many empty benefit rows the form offers after the plan's own. */
export const newBenefitRows = 2;

/** Where the storefront opens a plan's conditions (plan-files.ts serves `plan-conditions/…` under /api). */
export const conditionsUrl = (key: string | null) => (key ? `/api/${key}` : null);

const colourPattern = /^#[0-9a-fA-F]{6}$/;

/**
 * The errors the editor shows beside their field (planFromForm's and the uploads'); any other — the API's refusals,
 * named by the body's path (`benefits.2.value`), or a colour — is listed under the form.
 */
export const shownBesideField = (name: string) =>
  /^(nombre|cobertura|iva-tasa|color-mayores|modalidad|tramo|imagen-archivo|condiciones-archivo|beneficio-\d+-limite)$/.test(
    name,
  );

export type PlanForm = { plan: PlanDetails; errors: Record<string, string> };

/**
 * The plan the editor's form posted, over `base` (what the form was shown: the draft or the live plan): texts,
 * colours, benefits (a row without a name is dropped; «orden» sorts them), the checked modalities, regions and age
 * bands, IVA and retired.
 */
export function planFromForm(form: FormData, base: PlanDetails): PlanForm {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value.trim() : '';
  };
  const ids = (name: string) =>
    form
      .getAll(name)
      .map((value) => Number(value))
      .filter((value) => Number.isInteger(value) && value > 0);
  const errors: Record<string, string> = {};
  const colour = (name: string, what: string) => {
    const value = text(name);
    if (!colourPattern.test(value)) errors[name] = `${what}: escribe un color como #0b5563.`;
    return value;
  };
  const rows = Number(text('beneficios')) || 0;
  const benefits: (Benefit & { order: number })[] = [];
  for (let index = 0; index < rows; index += 1) {
    const label = text(`beneficio-${index}-nombre`);
    if (label === '') continue;
    const value = text(`beneficio-${index}-limite`);
    if (value === '') errors[`beneficio-${index}-limite`] = `«${label}»: escribe su límite.`;
    const order = Number(text(`beneficio-${index}-orden`).replace(',', '.'));
    benefits.push({
      label,
      value,
      isPriority: form.get(`beneficio-${index}-prioritario`) === 'on',
      order: Number.isFinite(order) ? order : index + 1,
    });
  }
  benefits.sort((a, b) => a.order - b.order);
  const medical = text('cobertura').replace(/\./g, '');
  if (!/^\d{1,9}$/.test(medical)) errors.cobertura = 'La cobertura médica es un monto en USD, sin decimales.';
  const taxText = text('iva-tasa').replace(',', '.');
  const taxPercent = Number(taxText || '0');
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(taxText || '0') || taxPercent > 100) {
    errors['iva-tasa'] = 'El IVA es un porcentaje de 0 a 100.';
  }
  const badgeLabel = text('insignia');
  const arrow = text('color-mayores');
  if (arrow !== '' && !colourPattern.test(arrow)) {
    errors['color-mayores'] = 'Color para mayores de 75: #RRGGBB, o vacío si no tiene.';
  }
  const plan: PlanDetails = {
    ...base,
    label: text('nombre'),
    audience: text('para-quien'),
    badge: badgeLabel ? { label: badgeLabel, color: colour('insignia-color', 'Color de la insignia') } : null,
    arrowColor: arrow === '' ? null : arrow,
    titleColor: colour('color-titulo', 'Color del título'),
    color: colour('color', 'Color del plan'),
    isBestSeller: form.get('mas-vendido') === 'on',
    medicalLimitUsd: Number(medical) || 0,
    benefits: benefits.map(({ order: _order, ...benefit }) => benefit),
    modalityIds: ids('modalidad'),
    regionIds: ids('region'),
    passengerTypeIds: ids('tramo'),
    tax: { enabled: form.get('iva') === 'on', rateBp: Math.round(taxPercent * 100), reason: text('iva-razon') },
    image: { large: text('imagen-grande'), small: text('imagen-chica') },
    conditionsKey: text('condiciones') || null,
    retired: form.get('retirado') === 'on',
  };
  if (plan.label === '') errors.nombre = 'El plan necesita un nombre.';
  if (plan.modalityIds.length === 0) errors.modalidad = 'Elige al menos una modalidad.';
  if (plan.passengerTypeIds.length === 0) errors.tramo = 'Elige al menos un tramo de edad.';
  return { plan, errors };
}
