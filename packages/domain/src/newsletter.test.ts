import { describe, expect, it } from 'vitest';
import { fieldErrorsOf } from './field-errors.ts';
import { emailMaxLength, type NewsletterInput, newsletterSchema } from './rules.ts';

const required = { code: 'required', message: 'Campo Obligatorio' };
const badFormat = { code: 'invalid_email', message: 'Formato de Email incorrecto' };
const notText = { code: 'invalid_type', message: 'Formato de Email incorrecto' };
const tooLong = { code: 'too_long', message: 'El email puede tener hasta 50 caracteres' };

/** Parses and returns the single field error, failing when parsing succeeds or yields several issues. */
function onlyIssue(input: unknown): { field: string; code: string; message: string } {
  const result = newsletterSchema.safeParse(input);
  expect(result.success).toBe(false);
  const errors = fieldErrorsOf(result.error?.issues ?? [], input);
  expect(errors).toHaveLength(1);
  return errors[0] ?? { field: '', code: '', message: '' };
}

describe('emailMaxLength', () => {
  it('is 50 characters', () => {
    expect(emailMaxLength).toBe(50);
  });
});

describe('newsletterSchema', () => {
  it.each([
    ['user@example.com'],
    ['nombre.apellido@empresa.cl'],
    ['first+tag@sub.domain.org'],
    ['user_1-x@mail.example.com'],
    ["o'brien@example.ie"],
    ['CAPS@EXAMPLE.CL'],
  ])('accepts the e-mail %s', (email) => {
    const expected: NewsletterInput = { email };
    expect(newsletterSchema.parse({ email })).toEqual(expected);
  });

  it.each([
    ['  user@example.com  ', 'user@example.com'],
    ['\tuser@example.com\n', 'user@example.com'],
  ])('trims %j to %s', (email, expected) => {
    expect(newsletterSchema.parse({ email }).email).toBe(expected);
  });

  it.each([[{}], [{ email: undefined }], [{ email: null }], [{ email: '' }], [{ email: '   ' }], [{ email: '\t\n' }]])(
    "reports 'Campo Obligatorio' for the missing or blank e-mail %o",
    (input) => {
      expect(onlyIssue(input)).toEqual({ ...required, field: 'email' });
    },
  );

  it.each([
    ['plainaddress'],
    ['user@'],
    ['@example.com'],
    ['user@example'],
    ['user@@example.com'],
    ['user name@example.com'],
    ['user@exa mple.com'],
    ['user@.com'],
    ['.user@example.com'],
    ['user..x@example.com'],
    ['user@example.c'],
  ])("reports 'Formato de Email incorrecto' for %j", (email) => {
    expect(onlyIssue({ email })).toEqual({ ...badFormat, field: 'email' });
  });

  it.each([[42], [true], [['user@example.com']]])(
    "reports 'Formato de Email incorrecto' (invalid_type) for the non-string %j",
    (email) => {
      expect(onlyIssue({ email })).toEqual({ ...notText, field: 'email' });
    },
  );

  it('accepts an e-mail of exactly 50 characters', () => {
    const email = `${'a'.repeat(38)}@example.com`;
    expect(email).toHaveLength(50);
    expect(newsletterSchema.parse({ email }).email).toBe(email);
  });

  it("reports 'El email puede tener hasta 50 caracteres' for an e-mail of 51 characters", () => {
    const email = `${'a'.repeat(39)}@example.com`;
    expect(email).toHaveLength(51);
    expect(onlyIssue({ email })).toEqual({ ...tooLong, field: 'email' });
  });

  it('measures the length after trimming', () => {
    const email = `${'a'.repeat(38)}@example.com`;
    expect(newsletterSchema.parse({ email: `  ${email}  ` }).email).toBe(email);
  });

  it('reports a single issue, its length, for a long malformed e-mail', () => {
    expect(onlyIssue({ email: 'x'.repeat(80) })).toEqual({ ...tooLong, field: 'email' });
  });

  it('rejects a missing object', () => {
    expect(newsletterSchema.safeParse(undefined).success).toBe(false);
  });
});
