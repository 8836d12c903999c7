import {
  blankObjectOf,
  countName,
  type FieldSpec,
  fieldName,
  type ListSpec,
  newItem,
  type ObjectSpec,
  positionName,
  removeName,
} from '#app/features/structured-form.ts';

/**
 * The inputs of a structured document (features/structured-form.ts): labelled fields, a fieldset per list item with
 * «Quitar» and «Posición», and a blank item at the end of each list to add one. An input the API refused is marked
 * (aria-invalid) by its path; the list of errors under the form says why.
 */
type Path = readonly (string | number)[];
type Errors = Record<string, string>;

const textOf = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

function Field({
  spec,
  value,
  path,
  errors,
  context,
}: {
  spec: FieldSpec;
  value: unknown;
  path: Path;
  errors: Errors;
  context: string;
}) {
  const name = fieldName(path);
  const invalid = errors[name] ? true : undefined;
  // Screen readers hear which item a repeated label belongs to («Nombre (Tarjeta de ayuda 2)»).
  const label = (text: string, hint?: string) => (
    <span className="field-label">
      {text}
      {hint ? <span className="font-normal text-slate-600"> ({hint})</span> : null}
      {context ? <span className="sr-only"> ({context})</span> : null}
    </span>
  );
  switch (spec.type) {
    case 'text':
    case 'optional-text':
      return spec.multiline ? (
        <label className="block text-sm sm:col-span-2">
          {label(spec.label, spec.hint)}
          <textarea name={name} defaultValue={textOf(value)} rows={4} className="field-input" aria-invalid={invalid} />
        </label>
      ) : (
        <label className="block text-sm">
          {label(spec.label, spec.hint)}
          <input name={name} defaultValue={textOf(value)} className="field-input" aria-invalid={invalid} />
        </label>
      );
    case 'number':
      return (
        <label className="block text-sm">
          {label(spec.label)}
          <input
            name={name}
            type="number"
            min={spec.min}
            max={spec.max}
            defaultValue={textOf(value)}
            className="field-input max-w-32"
            aria-invalid={invalid}
          />
        </label>
      );
    case 'check':
      return (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name={name} value="si" defaultChecked={value === true} />
          {spec.label}
          {context ? <span className="sr-only"> ({context})</span> : null}
        </label>
      );
    case 'choice':
      return (
        <label className="block text-sm">
          {label(spec.label)}
          <select name={name} defaultValue={textOf(value)} className="field-input" aria-invalid={invalid}>
            {spec.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
      );
    case 'lines': {
      const { wrap } = spec;
      const lines = Array.isArray(value)
        ? value.map((line) => (wrap && line && typeof line === 'object' ? textOf(line[wrap]) : textOf(line)))
        : [];
      const lineInvalid = Object.keys(errors).some((field) => field === name || field.startsWith(`${name}.`));
      return (
        <label className="block text-sm">
          {label(spec.label, 'uno por línea')}
          <textarea
            name={name}
            defaultValue={lines.join('\n')}
            rows={Math.max(2, lines.length + 1)}
            className="field-input"
            aria-invalid={lineInvalid ? true : undefined}
          />
        </label>
      );
    }
    case 'group':
      return (
        <fieldset className="space-y-2 rounded border border-slate-200 p-2">
          <legend className="px-1 text-sm font-semibold">
            {spec.label}
            {context ? <span className="sr-only"> ({context})</span> : null}
          </legend>
          <ObjectFields
            fields={spec.fields}
            value={(value ?? {}) as Record<string, unknown>}
            path={path}
            errors={errors}
            context={context}
          />
        </fieldset>
      );
    case 'list':
      return <ListFields spec={spec} value={Array.isArray(value) ? value : []} path={path} errors={errors} />;
  }
}

export function ObjectFields({
  fields,
  value,
  path = [],
  errors,
  context = '',
}: {
  fields: ObjectSpec;
  value: Record<string, unknown>;
  path?: Path;
  errors: Errors;
  context?: string;
}) {
  const entries = Object.entries(fields);
  const simple = entries.filter(([, spec]) => spec.type !== 'list' && spec.type !== 'group');
  const nested = entries.filter(([, spec]) => spec.type === 'list' || spec.type === 'group');
  return (
    <div className="space-y-3">
      {simple.length > 0 ? (
        <div className="grid gap-2 sm:grid-cols-2">
          {simple.map(([key, spec]) => (
            <Field key={key} spec={spec} value={value[key]} path={[...path, key]} errors={errors} context={context} />
          ))}
        </div>
      ) : null}
      {nested.map(([key, spec]) => (
        <Field key={key} spec={spec} value={value[key]} path={[...path, key]} errors={errors} context={context} />
      ))}
    </div>
  );
}

function ListFields({ spec, value, path, errors }: { spec: ListSpec; value: unknown[]; path: Path; errors: Errors }) {
  const items = value.map((item) => (spec.toForm ? spec.toForm(item) : (item as Record<string, unknown>)));
  // Items nested in a new item are added once it is saved: the blank item has no lists of its own.
  const blankFields = Object.fromEntries(Object.entries(spec.fields).filter(([, field]) => field.type !== 'list'));
  return (
    <div className="space-y-3">
      <input type="hidden" name={countName(path)} value={items.length} />
      {items.map((item, index) => {
        const itemPath = [...path, index];
        const name = `${spec.item} ${index + 1}`;
        const title = spec.title?.(item);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: fields are named by position; the form remounts per version
          <fieldset key={index} className="space-y-2 rounded border border-slate-300 bg-white p-3">
            <legend className="px-1 font-semibold">
              {name}
              {title ? `: ${title}` : ''}
            </legend>
            <div className="flex flex-wrap items-end gap-4">
              <label className="block text-sm">
                <span className="field-label">
                  Posición<span className="sr-only"> ({name})</span>
                </span>
                <input
                  name={positionName(itemPath)}
                  type="number"
                  min={1}
                  defaultValue={index + 1}
                  className="field-input w-20"
                />
              </label>
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" name={removeName(itemPath)} value="si" />
                Quitar<span className="sr-only"> {name}</span>
              </label>
            </div>
            <ObjectFields fields={spec.fields} value={item} path={itemPath} errors={errors} context={name} />
          </fieldset>
        );
      })}
      <fieldset className="space-y-2 rounded border border-dashed border-slate-400 p-3">
        <legend className="px-1 font-semibold">Agregar: {spec.item.toLowerCase()}</legend>
        <ObjectFields
          fields={blankFields}
          value={blankObjectOf(blankFields)}
          path={[...path, newItem]}
          errors={{}}
          context={`nuevo: ${spec.item.toLowerCase()}`}
        />
      </fieldset>
    </div>
  );
}
