/** Formatting glue shared by every feature: days as the visitor writes them, counted nouns. */

/** 'YYYY-MM-DD' → 'dd-mm-aaaa' (the visitor's format); anything else is shown as it came. */
export function formatDay(isoDate: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate);
  return match ? `${match[3]}-${match[2]}-${match[1]}` : isoDate;
}

/** «1 pasajero», «3 pasajeros». */
export function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
