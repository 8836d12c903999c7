/**
 * Chilean RUT (Rol Único Tributario) helpers, spec: "up to 2 digits, then 3, then 3 digits, optional dots and dash,
 * check digit a digit or k. Repeated-digit RUTs are rejected by default."
 *
 * Accepted input forms (surrounding whitespace is ignored, `k` may be either case):
 * - plain: `123456785`, `12345678-5`
 * - dotted: `12.345.6785`, `12.345.678-5` — the dots must group the body in threes from the right
 *   (`1.2345.678-5` and half-dotted bodies such as `12345.678-5` are rejected).
 *
 * The body has 1 to 8 digits and no leading zero (so a body of `0` is invalid).
 */

export type RutFormat = 'dots' | 'dash' | 'both';

export type RutOptions = {
  /** Accept bodies made of one repeated digit (e.g. `11.111.111-1`), which are rejected by default. */
  allowRepeated?: boolean;
};

const maxBodyDigits = 8;

/** Body (plain 1–8 digits, or dotted in groups of three) followed by an optional dash and the check digit. */
const rutPattern = /^(\d{1,8}|\d{1,2}\.\d{3}\.\d{3}|\d{1,3}\.\d{3})-?([0-9kK])$/;

type ParsedRut = { body: string; checkDigit: string };

function parseRut(input: string): ParsedRut | undefined {
  const match = rutPattern.exec(input.trim());
  if (!match) return undefined;
  const body = (match[1] ?? '').replaceAll('.', '');
  const checkDigit = (match[2] ?? '').toUpperCase();
  if (body.length === 0 || body.length > maxBodyDigits || body.startsWith('0')) return undefined;
  return { body, checkDigit };
}

function isRepeatedDigits(body: string): boolean {
  return body.length > 1 && /^(\d)\1+$/.test(body);
}

/**
 * Check digit of a RUT body: weights 2 to 7 repeating from the rightmost digit, modulus 11;
 * remainder 0 gives `'0'`, remainder 1 gives `'K'`, otherwise `11 − remainder`.
 *
 * @throws RangeError when the body is not made of decimal digits only (or is not a non-negative safe integer).
 */
export function rutCheckDigit(body: string | number): string {
  let digits: string;
  if (typeof body === 'number') {
    if (!Number.isSafeInteger(body) || body < 0) {
      throw new RangeError(`RUT body must be a non-negative integer: ${body}`);
    }
    digits = String(body);
  } else {
    if (!/^\d+$/.test(body)) throw new RangeError(`RUT body must contain digits only: '${body}'`);
    digits = body;
  }
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    sum += Number(digits[i]) * weight;
    weight = weight === 7 ? 2 : weight + 1;
  }
  const remainder = sum % 11;
  if (remainder === 0) return '0';
  if (remainder === 1) return 'K';
  return String(11 - remainder);
}

/** True when the input is a well-formed RUT whose check digit matches its body (see the module comment for forms). */
export function isValidRut(input: string, options: RutOptions = {}): boolean {
  const parsed = parseRut(input);
  if (!parsed) return false;
  if (!options.allowRepeated && isRepeatedDigits(parsed.body)) return false;
  return rutCheckDigit(parsed.body) === parsed.checkDigit;
}

/** Strips dots, dashes and whitespace and uppercases `k`: `12.345.678-k` → `12345678K`. Does not validate. */
export function cleanRut(input: string): string {
  return input.replace(/[.\-\s]/g, '').toUpperCase();
}

function dotBody(body: string): string {
  return body.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}

/**
 * Formats a valid RUT given in any accepted form. The check digit is always uppercase.
 * - `'dash'` → `12345678-5` (no dots, dash before the check digit)
 * - `'dots'` → `12.345.6785` (dotted body, check digit appended without a dash)
 * - `'both'` → `12.345.678-5` (dotted body and dash)
 *
 * Repeated-digit RUTs are formatted too (formatting is not the place to reject them).
 *
 * @throws RangeError when the input is not a RUT with a correct check digit.
 */
export function formatRut(input: string, format: RutFormat): string {
  const parsed = parseRut(input);
  if (!parsed || rutCheckDigit(parsed.body) !== parsed.checkDigit) {
    throw new RangeError(`Invalid RUT: '${input}'`);
  }
  const { body, checkDigit } = parsed;
  switch (format) {
    case 'dash':
      return `${body}-${checkDigit}`;
    case 'dots':
      return `${dotBody(body)}${checkDigit}`;
    case 'both':
      return `${dotBody(body)}-${checkDigit}`;
    default:
      throw new RangeError(`Unknown RUT format: '${String(format)}'`);
  }
}
