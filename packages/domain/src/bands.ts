/**
 * Passenger types are age bands on the departure date (spec §9). These answer which band a traveller is in and
 * whether the travellers are the ones quoted: the storefront checks one traveller against its quoted band as the
 * visitor types, the API checks them all against the quotation. Pure: the callers load the data.
 */

export type Band = { id: number; ageFrom: number; ageTo: number };
export type QuotedCount = { passengerTypeId: number; quantity: number };

/** Full years between a birth date and a day (both 'YYYY-MM-DD'); born on 29 February, one is older from 1 March. */
export function ageOn(birthDate: string, day: string): number {
  const [birthYear = 0, birthMonth = 0, birthDay = 0] = birthDate.split('-').map(Number);
  const [year = 0, month = 0, date = 0] = day.split('-').map(Number);
  const beforeBirthday = month < birthMonth || (month === birthMonth && date < birthDay);
  return year - birthYear - (beforeBirthday ? 1 : 0);
}

/** True when the age on `day` of someone born on `birthDate` is within the band. */
export function fitsBand(birthDate: string, band: Omit<Band, 'id'>, day: string): boolean {
  const age = ageOn(birthDate, day);
  return age >= band.ageFrom && age <= band.ageTo;
}

/** The band an age falls in (the youngest first when bands overlap), or undefined when none does. */
export function bandOf(age: number, bands: Band[]): Band | undefined {
  return [...bands].sort((a, b) => a.ageFrom - b.ageFrom).find((band) => age >= band.ageFrom && age <= band.ageTo);
}

export type TravellerAge = { birthDate: string };

export type BandCheck = {
  /** The band of each traveller, in the order given (undefined: the age fits no band of the company). */
  bands: (Band | undefined)[];
  /** Positions of the travellers whose age fits no band, or a band quoted fewer times than it appears. */
  mismatched: number[];
};

/**
 * Matches the travellers' bands on the departure date against the quoted counts: each traveller takes one seat of
 * its band; one whose band has no seat left (or who has no band) is a mismatch. With as many travellers as quoted
 * passengers, no mismatch means the multiset of bands equals the quoted counts.
 */
export function checkBands(
  travellers: TravellerAge[],
  departureDate: string,
  bands: Band[],
  quoted: QuotedCount[],
): BandCheck {
  const seats = new Map(quoted.map((q) => [q.passengerTypeId, q.quantity]));
  const found = travellers.map((traveller) => bandOf(ageOn(traveller.birthDate, departureDate), bands));
  const mismatched: number[] = [];
  found.forEach((band, index) => {
    const left = band ? (seats.get(band.id) ?? 0) : 0;
    if (!band || left <= 0) {
      mismatched.push(index);
      return;
    }
    seats.set(band.id, left - 1);
  });
  return { bands: found, mismatched };
}
