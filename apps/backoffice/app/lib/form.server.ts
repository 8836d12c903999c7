/** A text field of a posted form, trimmed; '' when absent or a file. */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value.trim() : '';
}

/** Every checked value of a repeated field (checkboxes), without files or blanks. */
export function formList(form: FormData, name: string): string[] {
  return form
    .getAll(name)
    .filter((value): value is string => typeof value === 'string' && value.trim() !== '')
    .map((value) => value.trim());
}

/** A file the form carries, or undefined when none was chosen. */
export function chosenFile(form: FormData, name: string): File | undefined {
  const value = form.get(name);
  return value instanceof Blob && value.size > 0 ? (value as File) : undefined;
}
