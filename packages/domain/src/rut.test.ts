import { describe, expect, it } from 'vitest';
import { cleanRut, formatRut, isValidRut, rutCheckDigit } from './rut.ts';

// Expected check digits were worked out by hand with the spec's algorithm (weights 2..7 from the right, modulus 11).
// Example, body 12345678: 8·2 + 7·3 + 6·4 + 5·5 + 4·6 + 3·7 + 2·2 + 1·3 = 138; 138 mod 11 = 6; 11 − 6 = 5.
// Body 10000013: 3·2 + 1·3 + 1·3 = 12; 12 mod 11 = 1 → 'K'. Body 10000004: 4·2 + 1·3 = 11; 11 mod 11 = 0 → '0'.

describe('rutCheckDigit', () => {
  it.each([
    ['12345678', '5'],
    ['76086428', '5'],
    ['5126663', '3'],
    ['1234567', '4'],
    ['30686957', '4'],
    ['16112455', '9'],
    ['24965885', '5'],
    ['98765432', '5'],
    ['20000000', '5'],
    ['1000000', '9'],
    ['123', '6'],
    ['12', '4'],
    ['10', '8'],
    ['1', '9'],
    ['7', '8'],
  ])('computes check digit of body %s as %s', (body, expected) => {
    expect(rutCheckDigit(body)).toBe(expected);
  });

  it.each([
    ['10000013', 'K'],
    ['8765432', 'K'],
    ['6', 'K'],
  ])('returns an uppercase K when the remainder is 1 (body %s)', (body, expected) => {
    expect(rutCheckDigit(body)).toBe(expected);
  });

  it.each([
    ['10000004', '0'],
    ['14000000', '0'],
    ['123456', '0'],
  ])('returns 0 when the remainder is 0 (body %s)', (body, expected) => {
    expect(rutCheckDigit(body)).toBe(expected);
  });

  it('restarts the weights at 2 after 7 (body 99999999 → 9)', () => {
    // 9·(2+3+4+5+6+7+2+3) = 288; 288 mod 11 = 2; 11 − 2 = 9. Without the restart (…, 8, 9) it would be 9·44 → '0'.
    expect(rutCheckDigit('99999999')).toBe('9');
  });

  it.each([
    [12345678, '5'],
    [10000013, 'K'],
    [8765432, 'K'],
    [10000004, '0'],
  ])('accepts a numeric body %d', (body, expected) => {
    expect(rutCheckDigit(body)).toBe(expected);
  });

  it.each([[''], ['12.345.678'], ['12345678-5'], ['1234a678'], [' 12345678'], ['-1'], ['1e5']])(
    'throws a RangeError for the non-digit body %j',
    (body) => {
      expect(() => rutCheckDigit(body)).toThrow(RangeError);
    },
  );

  it.each([[-1], [1.5], [Number.NaN], [Number.POSITIVE_INFINITY]])(
    'throws a RangeError for the numeric body %d',
    (body) => {
      expect(() => rutCheckDigit(body)).toThrow(RangeError);
    },
  );
});

describe('isValidRut', () => {
  it.each([
    ['12345678-5'],
    ['12.345.678-5'],
    ['123456785'],
    ['12.345.6785'],
    ['76.086.428-5'],
    ['76086428-5'],
    ['5.126.663-3'],
    ['5126663-3'],
    ['1.234.567-4'],
    ['30.686.957-4'],
    ['123.456-0'],
    ['123-6'],
    ['1-9'],
    ['19'],
    ['10.000.004-0'],
  ])('accepts the well-formed RUT %s', (rut) => {
    expect(isValidRut(rut)).toBe(true);
  });

  it.each([['10.000.013-k'], ['10.000.013-K'], ['10000013k'], ['8.765.432-k'], ['6-K']])(
    'accepts check digit K in either case (%s)',
    (rut) => {
      expect(isValidRut(rut)).toBe(true);
    },
  );

  it.each([['  12.345.678-5  '], ['\t12345678-5\n'], [' 123456785']])('trims surrounding whitespace (%j)', (rut) => {
    expect(isValidRut(rut)).toBe(true);
  });

  it.each([
    ['12.345.678-4'],
    ['12345678-6'],
    ['123456780'],
    ['12.345.678-K'],
    ['10.000.013-0'],
    ['10.000.004-K'],
    ['76.086.428-1'],
  ])('rejects a wrong check digit (%s)', (rut) => {
    expect(isValidRut(rut)).toBe(false);
  });

  it.each([
    ['1.2345.678-5'],
    ['123.45.678-5'],
    ['12.3456.78-5'],
    ['12345.678-5'],
    ['12.345678-5'],
    ['.12.345.678-5'],
    ['12..345.678-5'],
    ['12.345.678.-5'],
  ])('rejects dots that do not group the body in threes (%s)', (rut) => {
    expect(isValidRut(rut)).toBe(false);
  });

  it.each([
    [''],
    ['   '],
    ['-'],
    ['k'],
    ['5'],
    ['12a45678-5'],
    ['abcdefgh-k'],
    ['12345678-X'],
    ['12345678--5'],
    ['12 345 678-5'],
    ['12345678-55'],
    ['12345678 - 5'],
  ])('rejects malformed input %j', (rut) => {
    expect(isValidRut(rut)).toBe(false);
  });

  it.each([['123.456.789-2'], ['1234567892'], ['123456789-2']])('rejects a body longer than 8 digits (%s)', (rut) => {
    // 123456789: 9·2 + 8·3 + 7·4 + 6·5 + 5·6 + 4·7 + 3·2 + 2·3 + 1·4 = 174; 174 mod 11 = 9; 11 − 9 = 2.
    expect(isValidRut(rut)).toBe(false);
  });

  it.each([['0-0'], ['00-0'], ['0'], ['012345678-5'], ['01234567-4']])(
    'rejects a body of zero or with a leading zero (%s)',
    (rut) => {
      expect(isValidRut(rut)).toBe(false);
    },
  );

  it.each([
    ['11.111.111-1'],
    ['22222222-2'],
    ['33.333.333-3'],
    ['77777777-7'],
    ['99.999.999-9'],
    ['1.111.111-4'],
    ['111-2'],
  ])('rejects the repeated-digit RUT %s by default', (rut) => {
    expect(isValidRut(rut)).toBe(false);
  });

  it.each([['11.111.111-1'], ['22222222-2'], ['99.999.999-9'], ['1.111.111-4']])(
    'accepts the repeated-digit RUT %s when allowRepeated is set',
    (rut) => {
      expect(isValidRut(rut, { allowRepeated: true })).toBe(true);
    },
  );

  it('still checks the check digit of a repeated-digit RUT when allowRepeated is set', () => {
    expect(isValidRut('11.111.111-2', { allowRepeated: true })).toBe(false);
  });

  it('rejects repeated-digit RUTs when allowRepeated is explicitly false', () => {
    expect(isValidRut('11.111.111-1', { allowRepeated: false })).toBe(false);
  });

  it('does not treat a single-digit body as repeated', () => {
    expect(isValidRut('1-9')).toBe(true);
  });
});

describe('cleanRut', () => {
  it.each([
    ['12.345.678-k', '12345678K'],
    ['12.345.678-5', '123456785'],
    ['12345678-5', '123456785'],
    [' 12 345 678 - k ', '12345678K'],
    ['123456785', '123456785'],
    ['10000013K', '10000013K'],
    ['', ''],
  ])('cleans %j to %j', (input, expected) => {
    expect(cleanRut(input)).toBe(expected);
  });

  it('keeps characters other than dots, dashes and whitespace', () => {
    expect(cleanRut('12a.345/678')).toBe('12A345/678');
  });
});

describe('formatRut', () => {
  it.each([
    ['12345678-5', '12345678-5'],
    ['12.345.678-5', '12345678-5'],
    ['123456785', '12345678-5'],
    ['10.000.013-k', '10000013-K'],
    ['1-9', '1-9'],
  ])("'dash' formats %s as %s", (input, expected) => {
    expect(formatRut(input, 'dash')).toBe(expected);
  });

  it.each([
    ['12345678-5', '12.345.6785'],
    ['123456785', '12.345.6785'],
    ['10000013k', '10.000.013K'],
    ['5126663-3', '5.126.6633'],
    ['123456-0', '123.4560'],
    ['1234-3', '1.2343'],
    ['123-6', '1236'],
  ])("'dots' formats %s as %s", (input, expected) => {
    // 1234: 4·2 + 3·3 + 2·4 + 1·5 = 30; 30 mod 11 = 8; 11 − 8 = 3.
    expect(formatRut(input, 'dots')).toBe(expected);
  });

  it.each([
    ['12345678-5', '12.345.678-5'],
    ['123456785', '12.345.678-5'],
    [' 12.345.678-5 ', '12.345.678-5'],
    ['10000013-k', '10.000.013-K'],
    ['8765432k', '8.765.432-K'],
    ['123456-0', '123.456-0'],
    ['1-9', '1-9'],
  ])("'both' formats %j as %s", (input, expected) => {
    expect(formatRut(input, 'both')).toBe(expected);
  });

  it('formats repeated-digit RUTs', () => {
    expect(formatRut('111111111', 'both')).toBe('11.111.111-1');
  });

  it.each([['12345678-4'], ['1.2345.678-5'], [''], ['abc'], ['123456789-2']])(
    'throws a RangeError for the invalid RUT %j',
    (input) => {
      expect(() => formatRut(input, 'both')).toThrow(RangeError);
    },
  );
});
