/** A field error as the form shows it (the API's §8 `errors` item, or the action's own check). */
type ShownError = { field: string; code: string; message: string };

/**
 * The errors of the last answer that still stand once the visitor has edited `edited` (input names) since: an error
 * goes as soon as its field changes (`documentos.1` with the file input `documentos`), and an error about the
 * certificate the claim names goes when any field it depends on changes — the number, the document (or its type)
 * for «not found» or «void», the number or the date for «outside its cover». The answer to the next post decides again.
 */
export function standingErrors<T extends ShownError>(errors: readonly T[], edited: ReadonlySet<string>): T[] {
  if (edited.size === 0) return [...errors];
  return errors.filter((error) => {
    const fields = [error.field.split('.')[0] ?? error.field, ...(dependsOn[error.code] ?? [])];
    return !fields.some((field) => edited.has(field));
  });
}

const dependsOn: Partial<Record<string, readonly string[]>> = {
  certificate_not_found: ['numeroCertificado', 'numeroDocumento', 'tipoDocumento'],
  certificate_void: ['numeroCertificado', 'numeroDocumento', 'tipoDocumento'],
  outside_cover: ['numeroCertificado', 'fechaIncidente'],
};
