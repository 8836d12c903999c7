import { oldestAge } from '@travesia/domain/ids';

/** Formatting glue shared by every feature: days as the visitor writes them, counted nouns, age bands. */

/** 'YYYY-MM-DD' → 'dd-mm-aaaa' (the visitor's format); anything else is shown as it came. */
export function formatDay(isoDate: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate);
  return match ? `${match[3]}-${match[2]}-${match[1]}` : isoDate;
}

/** «1 pasajero», «3 pasajeros». */
export function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** An age band as the visitor reads it: «de 0 a 74 años», «de 85 años o más». */
export function bandLabel(band: { ageFrom: number; ageTo: number }): string {
  return band.ageTo >= oldestAge ? `de ${band.ageFrom} años o más` : `de ${band.ageFrom} a ${band.ageTo} años`;
}
