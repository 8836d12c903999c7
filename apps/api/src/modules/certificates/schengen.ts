/**
 * The Schengen area: the states a Schengen visa (and its travel medical insurance requirement of at least EUR 30,000
 * for medical care and repatriation, no deductible) covers. ISO 3166-1 alpha-2 codes, as the catalogue's countries
 * store them (`countries.iso_code`). Current as of 2025: the 25 EU members that apply it in full (Bulgaria and Romania
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

/** The least medical and repatriation cover a Schengen visa requires, in euros; the certificate guarantees it. */
export const schengenMinimumCoverEur = 30_000;

export const isSchengenCountry = (isoCode: string) => schengenCountryCodes.has(isoCode.toUpperCase());
