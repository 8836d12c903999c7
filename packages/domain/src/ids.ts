/**
 * The ids the spec gives a meaning to, by name. The wire carries the numbers (spec §7); code says the names.
 */

/** Spec §9: the nationality options of a traveller. */
export const Nationality = { chile: 9, other: 38 } as const;
export type NationalityId = (typeof Nationality)[keyof typeof Nationality];
export const nationalityIds = [Nationality.chile, Nationality.other] as const;

/**
 * Spec §9: the identification options of a traveller (a RUT is checked by its check digit, a DNI or passport by its
 * form). 1 and 2 are the spec's; 3 (passport) was added for foreign travellers and visa desks (issue #12).
 */
export const DocumentType = { rut: 1, dni: 2, passport: 3 } as const;
export type DocumentTypeId = (typeof DocumentType)[keyof typeof DocumentType];
export const documentTypeIds = [DocumentType.rut, DocumentType.dni, DocumentType.passport] as const;

/** How a document type is printed and offered («Pasaporte» on the certificate and in the passenger form). */
export const documentTypeLabels: Record<DocumentTypeId, string> = {
  [DocumentType.rut]: 'RUT',
  [DocumentType.dni]: 'DNI',
  [DocumentType.passport]: 'Pasaporte',
};

/** The label of a stored document type; an unknown number reads as DNI, as rows before passports did. */
export const documentTypeLabel = (type: number): string =>
  documentTypeLabels[type as DocumentTypeId] ?? documentTypeLabels[DocumentType.dni];

/**
 * The passenger types of the catalogue: age bands on the departure date. Spec §9: the over-75 band reads «75 to 84
 * years». The open-ended band ends at {@link oldestAge}.
 */
export const PassengerType = { upTo74: 1, from75To84: 2, from85: 3 } as const;
export type PassengerTypeId = (typeof PassengerType)[keyof typeof PassengerType];

/** The age that closes the open-ended band: a band ending there reads «de 85 años o más». */
export const oldestAge = 120;

export const passengerBands = [
  { id: PassengerType.upTo74, ageFrom: 0, ageTo: 74 },
  { id: PassengerType.from75To84, ageFrom: 75, ageTo: 84 },
  { id: PassengerType.from85, ageFrom: 85, ageTo: oldestAge },
] as const;

/** Spec §2/§4: the preview shows every plan selected except this one. */
export const unselectedPreviewPlanId = 418;
