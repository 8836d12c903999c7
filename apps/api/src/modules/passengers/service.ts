import { checkBands } from '@travesia/domain/bands';
import { errorMessages } from '@travesia/domain/messages';
import { ageMismatch, alreadyPaid as alreadyPaidRule } from '@travesia/domain/rules';
import type { Database } from '#app/db/client.ts';
import { ApiError, type FieldError, resourceNotFound } from '#app/errors.ts';
import { findCountry, listCountriesOfDestination, listPassengerTypes } from '#app/modules/catalog/service.ts';
import { eligibilityOf, listAddOns, offeredPerTraveller } from '#app/modules/plans/add-ons.ts';
import {
  changeUnderPurchaseLock,
  confirmingMessage,
  type LockPurchase,
  type Refusal,
} from '#app/modules/quotations/purchase-lock.ts';
import { type CheckoutValues, findQuotationRecord, getQuotation } from '#app/modules/quotations/service.ts';
import * as repository from './repository.ts';
import {
  type EmergencyContact,
  passengerMessages as m,
  type PassengerDetailBody,
  type PassengerDetailRow,
  type Passengers,
  type PassengersBody,
} from './schemas.ts';

type Gender = 'F' | 'M' | 'X';

/** A traveller as the payments and certificates steps read it. */
export type Traveller = {
  id: number;
  seq: number;
  passengerTypeId: number;
  firstName: string;
  lastName: string;
  gender: Gender;
  birthDate: string;
  /** One of `Nationality` (packages/domain/src/ids.ts). */
  nationality: number;
  /** `type`: one of `DocumentType` (packages/domain/src/ids.ts). */
  document: { type: number; id: string };
  email: string;
  phone: string;
  emergencyContact: EmergencyContact;
  /** The add-ons chosen for this traveller on the purchase step (ids; priced when the payment starts). */
  addOnIds: number[];
};

/** One traveller of a write, whichever shape it came in; `index` is its position in the request body. */
type TravellerDraft = {
  index: number;
  seq: number;
  firstName: string;
  lastName: string;
  gender: Gender;
  birthDate: string;
  nationality: number;
  documentType: number;
  documentNumber: string;
  email: string;
  phone: string;
  contact: EmergencyContact;
  /** The add-ons chosen for this traveller (the legacy shape has none: saving through it clears them). */
  addOnIds: number[];
  /** Legacy shape only: the passenger type and plan the client states, checked against the server's. */
  statedPassengerTypeId?: number;
  statedPlanId?: number | null;
};

type TravellersWrite = {
  shareEmergencyContact: boolean;
  emergencyContact: EmergencyContact | null;
  countryDestinationId: number;
  travellers: TravellerDraft[];
};

/** How each shape names the fields a quotation-dependent rule reports on. */
type FieldNames = {
  count: string;
  country: string;
  birthDate(index: number): string;
  passengerType(index: number): string;
  plan(index: number): string;
  addOns(index: number): string;
};

const passengersFields: FieldNames = {
  count: 'passangers',
  country: 'countryDestination',
  birthDate: (index) => `passangers.${index}.birthDate`,
  passengerType: (index) => `passangers.${index}.passengerTypeId`,
  plan: (index) => `passangers.${index}.planId`,
  addOns: (index) => `passangers.${index}.adicionales`,
};

const detailFields: FieldNames = {
  count: 'body',
  country: '0.idCountry',
  birthDate: (index) => `${index}.dob`,
  passengerType: (index) => `${index}.idPassangerType`,
  plan: (index) => `${index}.idProducto`,
  addOns: (index) => `${index}`,
};

const asGender = (value: string): Gender => (value === 'F' || value === 'M' ? value : 'X');

const alreadyPaid = () =>
  new ApiError(400, errorMessages.invalidInputs, [{ field: 'quotationId', ...alreadyPaidRule }]);

/** The quotation's purchase-step data; 404 when there is no such quotation. */
async function requireCheckout(db: Database, quotationId: string) {
  const checkout = await findQuotationRecord(db, quotationId);
  if (!checkout) throw resourceNotFound();
  return checkout;
}

/**
 * Every rule that needs the quotation: as many travellers as quoted, each one's age on the departure date in a band
 * of the company, the bands those quoted, the country in the destination region (and, in the legacy shape, the
 * stated passenger type and plan the server's). Answers the band of each traveller, or throws one error per problem.
 */
async function validateAgainstQuotation(
  db: Database,
  companyId: number,
  quotationId: string,
  write: TravellersWrite,
  fields: FieldNames,
): Promise<number[]> {
  const quotation = await getQuotation(db, companyId, quotationId);
  const [bands, countries] = await Promise.all([
    listPassengerTypes(db, companyId),
    listCountriesOfDestination(db, companyId, quotation.destination),
  ]);
  const errors: FieldError[] = [];
  const expected = quotation.passangerTypes.reduce((sum, p) => sum + p.quantity, 0);
  const { travellers } = write;
  const check = checkBands(travellers, quotation.departureDate, bands, quotation.passangerTypes);

  if (travellers.length !== expected) {
    errors.push({ field: fields.count, code: 'count_mismatch', message: m.passengerCount(expected) });
  }
  travellers.forEach((traveller, position) => {
    const band = check.bands[position];
    // With the wrong number of travellers only the ages that fit no band at all are a problem of their own.
    if (travellers.length === expected ? check.mismatched.includes(position) : !band) {
      errors.push({ field: fields.birthDate(traveller.index), ...ageMismatch });
    }
    if (traveller.statedPassengerTypeId !== undefined && band && band.id !== traveller.statedPassengerTypeId) {
      errors.push({
        field: fields.passengerType(traveller.index),
        code: 'passenger_type_mismatch',
        message: m.passengerTypeMismatch,
      });
    }
    if (traveller.statedPlanId !== undefined && traveller.statedPlanId !== quotation.planId) {
      errors.push({ field: fields.plan(traveller.index), code: 'plan_mismatch', message: m.planMismatch });
    }
  });
  if (!countries.some((country) => country.id === write.countryDestinationId)) {
    errors.push({ field: fields.country, code: 'country_outside_region', message: m.countryOutsideRegion });
  }
  errors.push(...(await addOnProblems(db, companyId, quotation, write.travellers, check.bands, fields)));
  if (errors.length > 0) throw new ApiError(400, errorMessages.invalidInputs, errors);
  return check.bands.map((band) => band?.id ?? 0);
}

/**
 * The add-ons chosen per traveller must be ones that traveller may buy: sold to their age band, with the quotation's
 * plan, modality and region (issue 27 §1). Priced only when the payment starts.
 */
async function addOnProblems(
  db: Database,
  companyId: number,
  quotation: Awaited<ReturnType<typeof getQuotation>>,
  travellers: TravellerDraft[],
  bands: ({ id: number } | undefined)[],
  fields: FieldNames,
): Promise<FieldError[]> {
  if (travellers.every((traveller) => traveller.addOnIds.length === 0)) return [];
  const addOnList = await listAddOns(db, companyId);
  const trip = { modalityId: quotation.modality, destinationId: quotation.destination };
  const errors: FieldError[] = [];
  travellers.forEach((traveller, position) => {
    const band = bands[position];
    for (const addOnId of new Set(traveller.addOnIds)) {
      const addOn = addOnList.find((candidate) => candidate.id === addOnId);
      const field = fields.addOns(traveller.index);
      if (!addOn || !offeredPerTraveller(addOn)) {
        errors.push({ field, code: 'add_on_unknown', message: m.addOn });
      } else if (quotation.planId === null) {
        errors.push({ field, code: 'plan_required', message: 'Elige un plan antes de agregar adicionales' });
      } else if (band) {
        const eligibility = eligibilityOf(addOn, trip, quotation.planId, band.id);
        if (!eligibility.eligible) {
          errors.push({ field, code: 'add_on_unavailable', message: `${addOn.name}: ${eligibility.reason}` });
        }
      }
    }
  });
  return errors;
}

/**
 * Replaces the quotation's travellers and purchase-step columns in one transaction, under the purchase lock: a
 * failure leaves the previous ones in place, and the attempts still open are voided with the change (the
 * certificates name these people). Answers the refusal (and writes nothing) once paid or while a payment is being
 * confirmed.
 */
export async function replaceTravellers(
  db: Database,
  lockPurchase: LockPurchase,
  quotationId: string,
  checkout: CheckoutValues,
  rows: repository.TravellerValues[],
): Promise<'saved' | { refused: Refusal }> {
  const refused = await changeUnderPurchaseLock(db, lockPurchase, quotationId, (lock) =>
    repository.replaceTravellers(lock, quotationId, checkout, rows),
  );
  return refused ?? 'saved';
}

async function saveTravellers(
  db: Database,
  lockPurchase: LockPurchase,
  quotationId: string,
  write: TravellersWrite,
  fields: FieldNames,
) {
  const checkout = await requireCheckout(db, quotationId);
  if (checkout.paid) throw alreadyPaid();
  const bandIds = await validateAgainstQuotation(db, checkout.companyId, quotationId, write, fields);
  const shared = write.shareEmergencyContact ? write.emergencyContact : null;
  const outcome = await replaceTravellers(
    db,
    lockPurchase,
    quotationId,
    {
      shareEmergencyContact: write.shareEmergencyContact,
      emergencyFirstName: shared?.firstName ?? null,
      emergencyLastName: shared?.lastName ?? null,
      emergencyPhone: shared?.phone ?? null,
      countryDestinationId: write.countryDestinationId,
    },
    write.travellers.map((traveller, position) => ({
      seq: traveller.seq,
      passengerTypeId: bandIds[position] ?? 0,
      firstName: traveller.firstName,
      lastName: traveller.lastName,
      gender: traveller.gender,
      birthDate: traveller.birthDate,
      nationalityId: traveller.nationality,
      documentType: traveller.documentType,
      documentNumber: traveller.documentNumber,
      email: traveller.email,
      phone: traveller.phone,
      contactFirstName: (shared ?? traveller.contact).firstName,
      contactLastName: (shared ?? traveller.contact).lastName,
      contactPhone: (shared ?? traveller.contact).phone,
      addOnIds: [...new Set(traveller.addOnIds)],
    })),
  );
  // Paid, or a payment is being confirmed, between the first look and the write: nothing was written.
  if (outcome !== 'saved') {
    if (outcome.refused === 'paid') throw alreadyPaid();
    throw new ApiError(400, errorMessages.invalidInputs, [
      { field: 'quotationId', code: 'payment_confirming', message: confirmingMessage },
    ]);
  }
}

/** PUT …/passangers. The schema has already checked every rule that does not need the quotation. */
export function savePassengers(db: Database, lockPurchase: LockPurchase, quotationId: string, body: PassengersBody) {
  const shared = body.shareEmergencyContact ? (body.emergencyContact ?? null) : null;
  return saveTravellers(
    db,
    lockPurchase,
    quotationId,
    {
      shareEmergencyContact: body.shareEmergencyContact,
      emergencyContact: shared,
      countryDestinationId: body.countryDestination,
      travellers: body.passangers.map((p, index) => ({
        index,
        seq: index + 1,
        firstName: p.firstName,
        lastName: p.lastName,
        gender: p.gender,
        birthDate: p.birthDate,
        nationality: p.nationality,
        documentType: p.document.type,
        documentNumber: p.document.id,
        email: p.email,
        phone: p.phone,
        // The schema requires a contact per passenger when none is shared.
        contact: shared ?? p.emergencyContact ?? { firstName: '', lastName: '', phone: '' },
        addOnIds: p.adicionales ?? [],
      })),
    },
    passengersFields,
  );
}

/** PUT …/passangers-detail: the legacy rows, in seq order, with one contact per traveller. */
export function savePassengerDetail(
  db: Database,
  lockPurchase: LockPurchase,
  quotationId: string,
  rows: PassengerDetailBody,
) {
  const travellers = rows
    .map(
      (row, index): TravellerDraft => ({
        index,
        seq: row.seq,
        firstName: row.name,
        lastName: row.lastName,
        gender: row.gender,
        birthDate: row.dob,
        nationality: row.idNacionality,
        documentType: row.idIdentification,
        documentNumber: row.identification,
        email: row.email,
        phone: row.phone,
        contact: { firstName: row.nameContact, lastName: row.lastNameContact, phone: row.phoneContact },
        addOnIds: [],
        statedPassengerTypeId: row.idPassangerType,
        statedPlanId: row.idProducto,
      }),
    )
    .sort((a, b) => a.seq - b.seq);
  return saveTravellers(
    db,
    lockPurchase,
    quotationId,
    {
      shareEmergencyContact: false,
      emergencyContact: null,
      countryDestinationId: rows[0]?.idCountry ?? 0,
      travellers,
    },
    detailFields,
  );
}

const contactOf = (row: repository.TravellerRow): EmergencyContact => ({
  firstName: row.contactFirstName,
  lastName: row.contactLastName,
  phone: row.contactPhone,
});

/** GET …/passangers: 404 until the travellers have been saved. */
export async function getPassengers(db: Database, quotationId: string): Promise<Passengers> {
  const checkout = await requireCheckout(db, quotationId);
  const people = await listTravellers(db, quotationId);
  if (people.length === 0 || checkout.countryDestinationId === null) throw resourceNotFound();
  const shared = checkout.shareEmergencyContact === true;
  return {
    shareEmergencyContact: shared,
    emergencyContact: shared
      ? {
          firstName: checkout.emergencyFirstName ?? '',
          lastName: checkout.emergencyLastName ?? '',
          phone: checkout.emergencyPhone ?? '',
        }
      : null,
    countryDestination: checkout.countryDestinationId,
    // A shared contact is answered once, at the top, as it was sent.
    passangers: people.map(({ id: _id, addOnIds, ...person }) => ({
      ...person,
      emergencyContact: shared ? null : person.emergencyContact,
      adicionales: addOnIds,
    })),
  };
}

/**
 * The destination country the travellers named at checkout, with its label, or null (none saved yet, or no such
 * quotation): what the purchase snapshot keeps and the certificate prints as «País de destino».
 */
export async function destinationCountryOf(db: Database, quotationId: string) {
  const checkout = await findQuotationRecord(db, quotationId);
  if (!checkout?.countryDestinationId) return null;
  const country = await findCountry(db, checkout.countryDestinationId);
  return country ? { id: country.id, label: country.label } : null;
}

/** GET …/passangers-detail: the travellers as legacy rows, in seq order (an empty list until they are saved). */
export async function getPassengerDetail(db: Database, quotationId: string): Promise<PassengerDetailRow[]> {
  const checkout = await requireCheckout(db, quotationId);
  const rows = await repository.listTravellers(db, quotationId);
  if (rows.length === 0 || checkout.countryDestinationId === null) return [];
  const { planId } = await getQuotation(db, checkout.companyId, quotationId);
  const countryId = checkout.countryDestinationId;
  return rows.map((row) => ({
    idPassengerDetail: row.id,
    idVenta: checkout.saleId ?? null,
    idProducto: planId,
    idPassangerType: row.passengerTypeId,
    name: row.firstName,
    lastName: row.lastName,
    gender: asGender(row.gender),
    idNacionality: row.nationalityId,
    idIdentification: row.documentType,
    identification: row.documentNumber,
    dob: row.birthDate,
    email: row.email,
    phone: row.phone,
    idCountry: countryId,
    nameContact: row.contactFirstName,
    lastNameContact: row.contactLastName,
    phoneContact: row.contactPhone,
    seq: row.seq,
    status: row.status,
  }));
}

/** The stored rows of a quotation's travellers in seq order, for the certificates issued to them. */
export const listTravellerRows = repository.listTravellers;

export { correctTraveller, type TravellerCorrection } from './repository.ts';

/** Travellers by id (the ones certificates name), in seq order. */
export const listTravellersByIds = repository.listTravellersByIds;

/** The stored travellers of a quotation in seq order (empty when none were saved), for the payment step. */
export async function listTravellers(db: Database, quotationId: string): Promise<Traveller[]> {
  const rows = await repository.listTravellers(db, quotationId);
  return rows.map((row) => ({
    id: row.id,
    seq: row.seq,
    passengerTypeId: row.passengerTypeId,
    firstName: row.firstName,
    lastName: row.lastName,
    gender: asGender(row.gender),
    birthDate: row.birthDate,
    nationality: row.nationalityId,
    document: { type: row.documentType, id: row.documentNumber },
    email: row.email,
    phone: row.phone,
    emergencyContact: contactOf(row),
    addOnIds: row.addOnIds,
  }));
}
