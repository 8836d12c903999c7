import { type Role, roleLabels, roles } from '#app/lib/contract.ts';

/** The four roles as checkboxes in a fieldset (a repeated `roles` field); `idPrefix` keeps ids unique per form. */
export function RoleChoices({
  idPrefix,
  checked = [],
  legend = 'Roles',
  error,
}: {
  idPrefix: string;
  checked?: readonly Role[];
  legend?: string;
  error?: string | undefined;
}) {
  const errorId = error ? `${idPrefix}-roles-error` : undefined;
  return (
    <fieldset aria-describedby={errorId}>
      <legend className="field-label">{legend}</legend>
      <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
        {roles.map((role) => (
          <label key={role} htmlFor={`${idPrefix}-${role}`} className="inline-flex items-center gap-1.5 text-sm">
            <input
              id={`${idPrefix}-${role}`}
              type="checkbox"
              name="roles"
              value={role}
              defaultChecked={checked.includes(role)}
              className="size-4"
            />
            {roleLabels[role]}
          </label>
        ))}
      </div>
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** The roles of a posted form that are roles; anything else is dropped. */
export function postedRoles(values: string[]): Role[] {
  return roles.filter((role) => values.includes(role));
}
