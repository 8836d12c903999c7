import { useEffect, useState } from 'react';
import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import type { z } from 'zod';
import type { FieldError, FormFailure } from '#app/lib/api-answer.server.ts';

/**
 * The checkout's forms post natively (`<form method="post">`, urlencoded, one field a name such as
 * `passengers.0.document.id`), with or without JavaScript: the route action reads them here, so no value ever
 * travels in the URL and one conversion serves the enhanced and the plain submission.
 */

/** A posted text field, '' when it was not sent (a select left on its disabled «Selecciona»). */
export function postedText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}

/** A posted checkbox: sent only when ticked. */
export function postedCheckbox(form: FormData, name: string): boolean {
  return form.has(name);
}

/** The form's own rules, broken on the server (a submission without JavaScript), as field errors by form field. */
export function issuesAsFieldErrors(issues: z.core.$ZodIssue[]): FieldError[] {
  return issues.map((issue) => {
    const params = (issue as { params?: { code?: unknown } }).params;
    return {
      field: issue.path.map(String).join('.'),
      // The rules of packages/domain name their codes from the same catalogue as the API (spec §8).
      code: (typeof params?.code === 'string' ? params.code : 'invalid') as FieldError['code'],
      message: issue.message,
    };
  });
}

/** A failed submission as the action answers it: the errors and what was entered, to show it again. */
export type FailureWithValues<T> = FormFailure & { values?: T };

/**
 * The errors of the last submission beside their fields. After hydration react-hook-form holds them (and clears
 * each once its field is fixed); before it, or without JavaScript, the server-rendered page shows the action's.
 */
export function useSubmissionErrors<T extends FieldValues>(
  actionResult: FormFailure | undefined,
  setError: UseFormSetError<T>,
) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    actionResult?.errors.forEach((error, index) => {
      setError(error.field as FieldPath<T>, { type: 'server', message: error.message }, { shouldFocus: index === 0 });
    });
  }, [actionResult, setError]);
  const serverErrors = hydrated ? [] : (actionResult?.errors ?? []);
  return {
    /** The message to show for `field`: react-hook-form's, else (before hydration) the action's. */
    errorOf: (field: string, client: string | undefined) =>
      client ?? serverErrors.find((error) => error.field === field)?.message,
    /** Whether the server-rendered page carries field errors react-hook-form does not hold yet. */
    serverHasErrors: serverErrors.length > 0,
  };
}
