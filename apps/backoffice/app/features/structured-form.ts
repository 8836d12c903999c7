/**
 * Forms for the site's structured documents (navigation bar, contacts, home blocks, marketing scripts; issue 25 item
 * 6) described once as a spec: the screen renders fields from it (components/StructuredFields.tsx) and the action
 * reads the posted form back into the document with it. Field names are the document's paths (`items.0.label`), so
 * the API's field errors (`body.items.0.label`) point at the very input. Every list item has «Quitar» and a position
 * (to reorder), and a blank item at the end adds one when any of its text is filled. The API validates the result.
 */

export type FieldSpec =
  | { type: 'text'; label: string; multiline?: boolean; hint?: string }
  /** Blank is null (an optional WhatsApp, a colour left unset). */
  | { type: 'optional-text'; label: string; multiline?: boolean; hint?: string }
  | { type: 'check'; label: string }
  | { type: 'number'; label: string; min: number; max: number }
  | { type: 'choice'; label: string; options: readonly { value: string; label: string }[] }
  /** A list of texts, one per line (phones); `wrap` turns each into `{ [wrap]: text }` (the directory's e-mails). */
  | { type: 'lines'; label: string; wrap?: string }
  /** An object; `nullable`: every text blank is null (a contact without a web link). */
  | { type: 'group'; label: string; fields: ObjectSpec; nullable?: boolean }
  | ListSpec;

export type ListSpec = {
  type: 'list';
  /** What one item is called («Ítem», «Tarjeta de ayuda»). */
  item: string;
  /** The most items the document takes (the API's own limit): a posted count above it reads only this many. */
  max: number;
  fields: ObjectSpec;
  /** How an item is titled in its fieldset, from its values. */
  title?: (item: Record<string, unknown>) => string;
  /** Document item ⇄ form item, when they differ (a script is code or an address: the form has both). */
  toForm?: (item: unknown) => Record<string, unknown>;
  fromForm?: (item: Record<string, unknown>) => unknown;
};

export type ObjectSpec = Readonly<Record<string, FieldSpec>>;

/** The name of the blank item's fields at the end of a list. */
export const newItem = 'nuevo';

export const fieldName = (path: readonly (string | number)[]) => path.join('.');

/** The posted fields by name, read once (a lookup per field, never a scan of the whole form). */
type Posted = ReadonlyMap<string, string>;

function postedFields(form: FormData): Posted {
  const fields = new Map<string, string>();
  for (const [name, value] of form) if (typeof value === 'string' && !fields.has(name)) fields.set(name, value);
  return fields;
}

const formText = (form: Posted, name: string) => (form.get(name) ?? '').trim();

/** The value of a field no item has yet (the blank item's defaults). */
export function blankOf(spec: FieldSpec): unknown {
  switch (spec.type) {
    case 'text':
      return '';
    case 'optional-text':
      return null;
    case 'check':
      return false;
    case 'number':
      return spec.min;
    case 'choice':
      return spec.options[0]?.value ?? '';
    case 'lines':
      return [];
    case 'group':
      return spec.nullable ? null : blankObjectOf(spec.fields);
    case 'list':
      return [];
  }
}

export const blankObjectOf = (fields: ObjectSpec) =>
  Object.fromEntries(Object.entries(fields).map(([key, spec]) => [key, blankOf(spec)]));

/** Whether any text the blank item's fields posted is filled (the blank item is then added). */
function filledIn(form: Posted, fields: ObjectSpec, path: readonly (string | number)[]): boolean {
  return Object.entries(fields).some(([key, spec]) => {
    const name = fieldName([...path, key]);
    if (spec.type === 'group') return filledIn(form, spec.fields, [...path, key]);
    if (spec.type === 'text' || spec.type === 'optional-text' || spec.type === 'lines')
      return formText(form, name) !== '';
    return false;
  });
}

function readField(form: Posted, spec: FieldSpec, path: readonly (string | number)[]): unknown {
  const name = fieldName(path);
  switch (spec.type) {
    case 'text':
    case 'choice':
      return formText(form, name);
    case 'optional-text':
      return formText(form, name) || null;
    case 'check':
      return form.get(name) === 'si';
    case 'number': {
      const text = formText(form, name);
      // Not a number: sent as typed, so the API names the field in words.
      return /^-?\d+$/.test(text) ? Number(text) : text;
    }
    case 'lines': {
      const lines = formText(form, name)
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line !== '');
      const { wrap } = spec;
      return wrap ? lines.map((line) => ({ [wrap]: line })) : lines;
    }
    case 'group':
      if (spec.nullable && !filledIn(form, spec.fields, path)) return null;
      return readObject(form, spec.fields, path);
    case 'list':
      return readList(form, spec, path);
  }
}

function readObject(form: Posted, fields: ObjectSpec, path: readonly (string | number)[] = []) {
  return Object.fromEntries(Object.entries(fields).map(([key, spec]) => [key, readField(form, spec, [...path, key])]));
}

/** A list's count field: how many items the form showed (the blank one aside). */
export const countName = (path: readonly (string | number)[]) => fieldName([...path, 'cantidad']);
export const removeName = (path: readonly (string | number)[]) => fieldName([...path, 'quitar']);
export const positionName = (path: readonly (string | number)[]) => fieldName([...path, 'posicion']);

function readList(form: Posted, spec: ListSpec, path: readonly (string | number)[]): unknown[] {
  // Never more than the document takes: a forged count cannot make the server build a huge document.
  const count = Math.max(0, Math.min(Math.trunc(Number(formText(form, countName(path)))) || 0, spec.max));
  const kept: { position: number; index: number; item: Record<string, unknown> }[] = [];
  for (let index = 0; index < count; index += 1) {
    const itemPath = [...path, index];
    if (form.get(removeName(itemPath)) === 'si') continue;
    const position = Number(formText(form, positionName(itemPath)));
    kept.push({
      position: Number.isFinite(position) ? position : index + 1,
      index,
      item: readObject(form, spec.fields, itemPath),
    });
  }
  const blankPath = [...path, newItem];
  if (filledIn(form, spec.fields, blankPath)) {
    kept.push({ position: Number.POSITIVE_INFINITY, index: count, item: readObject(form, spec.fields, blankPath) });
  }
  // Stable: equal positions keep the order they were shown in.
  kept.sort((a, b) => a.position - b.position || a.index - b.index);
  return kept.map(({ item }) => (spec.fromForm ? spec.fromForm(item) : item));
}

/**
 * The document the form posted; top-level fields the spec does not name are kept from the document the form showed.
 */
export function documentFromForm(form: FormData, fields: ObjectSpec, shown: Record<string, unknown>) {
  return { ...shown, ...readObject(postedFields(form), fields) };
}
