import type { components } from '#app/lib/api-schema.d.ts';

export type FieldError = components['schemas']['ErrorBody']['errors'][number];

/** The `{ field, code, message }` list of an API error body, whatever shape openapi-fetch handed it over in. */
export function fieldErrors(error: unknown): FieldError[] {
  if (typeof error === 'string') {
    try {
      return fieldErrors(JSON.parse(error));
    } catch {
      return [];
    }
  }
  const errors = (error as { errors?: unknown } | null | undefined)?.errors;
  return Array.isArray(errors)
    ? errors.filter(
        (e): e is FieldError =>
          typeof e?.field === 'string' && typeof e?.code === 'string' && typeof e?.message === 'string',
      )
    : [];
}

/** What a checkout action answers when the API refuses the data: messages by form field, and for the whole form. */
export type CheckoutActionResult = {
  errors: FieldError[];
  formErrors: string[];
};

/**
 * Splits the API's field errors into those a form field can show (renamed by `toField`, null when no field
 * matches) and those for the whole form.
 */
export function splitErrors(errors: FieldError[], toField: (apiField: string) => string | null): CheckoutActionResult {
  const byField: FieldError[] = [];
  const formErrors: string[] = [];
  for (const error of errors) {
    const field = toField(error.field);
    if (field) byField.push({ ...error, field });
    else if (!formErrors.includes(error.message)) formErrors.push(error.message);
  }
  return { errors: byField, formErrors };
}

export const unavailableMessage = 'No pudimos guardar tus datos. Intenta nuevamente en unos minutos.';
