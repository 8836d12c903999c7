/**
 * Field errors: what the spec §8 body lists in `errors`, and what a form shows beside a field. Each carries a
 * machine `code` (stable: clients branch on it) beside the Spanish `message` (for people: it may be reworded).
 */

/** Every code a field error can carry, with what it means (the OpenAPI document and docs/api.md list them). */
export const fieldErrorCodes = {
  required: 'Missing or blank (also a missing query parameter, and a list that needs at least one item)',
  too_long: 'Longer than the field allows',
  too_many: 'More items than the list allows (at most 9 passengers)',
  out_of_range: 'A number outside the accepted range (ids are positive integers)',
  invalid_type: 'The wrong JSON type: a number where text is expected, text where a boolean is…',
  invalid_option: 'Not one of the values the field accepts (gender, nationality, document type…)',
  invalid_format: 'Not in the expected form (an id that is not a UUID, passengers not as type:quantity…)',
  invalid_character: 'Holds a character that cannot be stored (U+0000)',
  invalid_body: 'The request body cannot be read (malformed JSON…)',
  invalid_email: 'Not an e-mail address',
  invalid_phone: 'Not a phone number: 8 to 20 digits, spaces, +, parentheses or hyphens',
  invalid_rut: 'Not a RUT with a correct check digit',
  invalid_document: 'A DNI or passport number shorter than 5 characters or with spaces',
  invalid_date: 'Not a calendar date (YYYY-MM-DD)',
  future_date: 'A date after today (birth date, refund incident date)',
  departure_in_past: 'The departure date is before today',
  departure_too_far: 'The departure date is more than 365 days ahead',
  return_before_departure: 'The return date is before the departure date',
  trip_too_short: 'Shorter than the modality allows',
  trip_too_long: 'Longer than the modality allows',
  return_date_fixed: 'The modality fixes the return date and this is not it',
  duplicate: 'The same passenger type twice',
  not_available: 'Not offered by the company (origin, modality, destination, passenger type, payment gateway)',
  plan_unavailable: 'The plan is not sold for this trip (any more)',
  plan_required: 'No plan has been chosen yet',
  passengers_missing: 'The travellers have not been entered yet',
  passengers_mismatch: "The travellers entered no longer match the quotation's passengers",
  billing_missing: 'The billing details have not been entered yet',
  consent_required: "The buyer has not authorised the processing of the travellers' data (payment start)",
  count_mismatch: "Not as many travellers as the quotation's passengers",
  age_mismatch: "The age on the departure date fits none of the quotation's passenger types",
  passenger_type_mismatch: 'The passenger type stated is not the one of the age on the departure date',
  plan_mismatch: "The plan stated is not the quotation's",
  add_on_unknown: 'An add-on id that is not one the store offers per traveller (unknown, retired or the covid upgrade)',
  add_on_unavailable:
    "An add-on the traveller may not buy: not for their age band, the trip's modality or region, or the chosen plan",
  country_outside_region: "The destination country is not in the quotation's destination region",
  country_mismatch: 'The rows name different destination countries',
  invalid_sequence: 'The sequence numbers are not 1…n without repeats',
  already_paid: 'The purchase is paid: it can no longer change or be paid again',
  payment_confirming: 'A payment of this purchase is being confirmed: wait for its result',
  quotation_changed: 'The quotation changed while the payment was starting',
  discount_code_refused:
    "The quotation's discount code no longer applies (expired, deactivated, changed, or its use limit reached): nothing was charged",
  captcha_failed: 'The reCAPTCHA token was not accepted by Google (expired, used already or not solved)',
  invalid_file_type: 'A file that is empty, not a PDF, JPG or PNG by its content, or whose name says another type',
  file_too_large: 'A file larger than its limit (5 MB for refund documents)',
  invalid_transition: 'The refund request cannot move from its status to the one asked for',
  documents_not_requested: 'Documents can be added to a refund request only while it is missing documents',
  certificate_not_found:
    'A refund claim names no certificate (or sale) held by the document given; the same whether the number is unknown or the document wrong',
  certificate_void: 'A refund claim names a voided certificate (withdrawal, or replaced by a date change)',
  outside_cover: "A refund claim's incident date is outside the certificate's cover (its trip's departure to return)",
  sale_withdrawn: 'The purchase was withdrawn (derecho a retracto): its certificates are void',
  withdrawal_window_expired: 'The 10 days to withdraw from the purchase have passed',
  withdrawal_trip_started: 'The cover of the purchase has started: it can no longer be withdrawn',
  withdrawal_unrefundable: "The sale's payments have nothing left to give back: the company looks at it",
  trip_started: "The purchase's departure date has come: its dates can no longer change",
  same_dates: 'A date change asked for the dates (and country) the purchase already has',
  not_changeable: 'The purchase cannot change (not paid, withdrawn or refunded)',
  refund_in_progress: 'The sale refund is being attempted at the gateway (or recorded) right now: try again shortly',
  refund_not_held:
    'The sale refund is not on hold: hold it first (POST …/hold), which also checks the gateway has not refunded it',
  gateway_unavailable: 'The payment gateway did not answer: nothing changed, try again later',
  reference_taken: 'A bank transfer reference already recorded for another sale refund (each transfer gives back one)',
  weak_password:
    'An operator password shorter than 12 characters, or one the strength estimator finds easy to guess (operator console)',
  invalid_code: 'A TOTP or recovery code that is wrong, already used or expired (operator console)',
  rate_jump:
    'An exchange rate that moves more than 20 % from the one in force: sent again with confirmJump, it is recorded (operator console)',
  source_unavailable:
    'The exchange-rate source did not answer, refused our credentials or answered no rate: nothing changed (operator console)',
  stale: 'The item changed since it was read (another operator acted on it first): read it again',
  invalid: 'Any other problem',
} as const;

export type FieldErrorCode = keyof typeof fieldErrorCodes;
export const fieldErrorCodeList = Object.keys(fieldErrorCodes) as [FieldErrorCode, ...FieldErrorCode[]];

export type FieldError = { field: string; code: FieldErrorCode; message: string };

/** A rule's failure: its code and its one Spanish message. */
export type Rule = { code: FieldErrorCode; message: string };

export function isFieldErrorCode(value: unknown): value is FieldErrorCode {
  return typeof value === 'string' && Object.hasOwn(fieldErrorCodes, value);
}

/** The parts of a zod issue the code depends on (zod's own issues, and those fastify hands over, fit it). */
export type IssueLike = {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  origin?: unknown;
  format?: unknown;
  minimum?: unknown;
  params?: unknown;
};

/** The value at `path` inside `input` (undefined when any step is missing). */
export function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * The machine code of a validation issue. A rule of ours states its code (`params.code` of a custom issue); zod's
 * own checks are named by kind: a missing value (looked up in `input`, the value that was validated: zod does not
 * tell a missing value from a wrong one) is `required`,
 * a string or list shorter than one item is `required`, longer is `too_long` / `too_many`, and so on.
 */
export function issueCode(issue: IssueLike, input: unknown): FieldErrorCode {
  switch (issue.code) {
    case 'custom': {
      const code = (issue.params as { code?: unknown } | undefined)?.code;
      return isFieldErrorCode(code) ? code : 'invalid';
    }
    case 'invalid_type':
      return valueAt(input, issue.path) == null ? 'required' : 'invalid_type';
    case 'invalid_value':
      return valueAt(input, issue.path) == null ? 'required' : 'invalid_option';
    case 'too_small':
      if (issue.origin === 'string' || issue.origin === 'array') {
        return typeof issue.minimum === 'number' && issue.minimum <= 1 ? 'required' : 'invalid';
      }
      return 'out_of_range';
    case 'too_big':
      if (issue.origin === 'string') return 'too_long';
      return issue.origin === 'array' ? 'too_many' : 'out_of_range';
    case 'invalid_format':
      return issue.format === 'email' ? 'invalid_email' : 'invalid_format';
    default:
      return 'invalid';
  }
}

/** The field errors of a failed validation of `input`; paths are dotted (`passangers.0.email`), `root` for the top. */
export function fieldErrorsOf(issues: readonly IssueLike[], input: unknown, root = 'body'): FieldError[] {
  return issues.map((issue) => ({
    field: issue.path.map(String).join('.') || root,
    code: issueCode(issue, input),
    message: issue.message,
  }));
}
