import type { FieldError } from '#app/errors.ts';

/** PostgreSQL text cannot hold U+0000: an input carrying it is refused up front instead of failing in the database. */
export const nulCharacterMessage = 'Contiene un carácter no permitido';

type Step = { key: string; parent: Step | undefined };

const pathOf = (step: Step | undefined, root: string) => {
  const keys: string[] = [];
  for (let at = step; at; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.') || root;
};

/**
 * The fields (dotted paths, as validation errors name them) whose string value, or key, holds a NUL character.
 * `root` names a top-level string (a body that is just a string). Iterative, so any nesting depth is safe.
 */
export function fieldsWithNul(input: unknown, root: string): string[] {
  const found = new Set<string>();
  const pending: { value: unknown; step: Step | undefined }[] = [{ value: input, step: undefined }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, step } = next;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) found.add(pathOf(step, root));
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => {
        pending.push({ value: item, step: { key: String(index), parent: step } });
      });
    } else if (typeof value === 'object' && value !== null && !ArrayBuffer.isView(value)) {
      for (const [key, item] of Object.entries(value)) {
        const itemStep = { key: key.replaceAll('\u0000', ''), parent: step };
        if (key.includes('\u0000')) found.add(pathOf(itemStep, root));
        pending.push({ value: item, step: itemStep });
      }
    }
  }
  return [...found].sort();
}

/** The field errors for NUL characters in a request's path parameters, query string and body (none: an empty list). */
export function nulFieldErrors(request: { params: unknown; query: unknown; body: unknown }): FieldError[] {
  return [
    ...fieldsWithNul(request.params, 'params'),
    ...fieldsWithNul(request.query, 'query'),
    ...fieldsWithNul(request.body, 'body'),
  ].map((field) => ({
    field,
    code: 'invalid_character',
    message: nulCharacterMessage,
  }));
}
