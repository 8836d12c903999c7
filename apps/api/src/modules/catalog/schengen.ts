/**
 * The Schengen area as the store first knew it: the states a Schengen visa (and its travel medical insurance
 * requirement of at least EUR 30,000 for medical care and repatriation, no deductible) covers. ISO 3166-1 alpha-2
 * codes, as the catalogue's countries store them (`countries.iso_code`). It seeds `countries.schengen` (migration
 * 0035 and the demo seed); from then on the flag is data, changed in the console's «Geografía» when the area changes. Current as of 2025: the 25 EU members that apply it in full (Bulgaria and Romania
 * since 1 January 2025) and Iceland, Liechtenstein, Norway and Switzerland. Ireland, Cyprus and the United Kingdom
 * are not in it.
 */
export const schengenCountryCodes: ReadonlySet<string> = new Set([
  'AT', // Austria
  'BE', // Belgium
  'BG', // Bulgaria
  'CH', // Switzerland
  'CZ', // Czechia
  'DE', // Germany
  'DK', // Denmark
  'EE', // Estonia
  'ES', // Spain
  'FI', // Finland
  'FR', // France
  'GR', // Greece
  'HR', // Croatia
  'HU', // Hungary
  'IS', // Iceland
  'IT', // Italy
  'LI', // Liechtenstein
  'LT', // Lithuania
  'LU', // Luxembourg
  'LV', // Latvia
  'MT', // Malta
  'NL', // Netherlands
  'NO', // Norway
  'PL', // Poland
  'PT', // Portugal
  'RO', // Romania
  'SE', // Sweden
  'SI', // Slovenia
  'SK', // Slovakia
]);

export const isSchengenCountry = (isoCode: string) => schengenCountryCodes.has(isoCode.toUpperCase());
