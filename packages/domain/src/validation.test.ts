import { describe, expect, it } from 'vitest';
import { emailMaxLength, type NewsletterInput, newsletterSchema } from './validation.ts';

const required = 'Campo Obligatorio';
const badFormat = 'Formato de Email incorrecto';

/** Parses and returns the single issue message, failing when parsing succeeds or yields several issues. */
function onlyIssue(input: unknown): { message: string; path: PropertyKey[] } {
  const result = newsletterSchema.safeParse(input);
  expect(result.success).toBe(false);
  const issues = result.error?.issues ?? [];
  expect(issues).toHaveLength(1);
  const [issue] = issues;
  return { message: issue?.message ?? '', path: issue?.path ?? [] };
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
      expect(onlyIssue(input)).toEqual({ message: required, path: ['email'] });
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
    expect(onlyIssue({ email })).toEqual({ message: badFormat, path: ['email'] });
  });

  it.each([[42], [true], [['user@example.com']]])(
    "reports 'Formato de Email incorrecto' for the non-string %j",
    (email) => {
      expect(onlyIssue({ email })).toEqual({ message: badFormat, path: ['email'] });
    },
  );

  it('accepts an e-mail of exactly 50 characters', () => {
    const email = `${'a'.repeat(38)}@example.com`;
    expect(email).toHaveLength(50);
    expect(newsletterSchema.parse({ email }).email).toBe(email);
  });

  it("reports 'Formato de Email incorrecto' for an e-mail of 51 characters", () => {
    const email = `${'a'.repeat(39)}@example.com`;
    expect(email).toHaveLength(51);
    expect(onlyIssue({ email })).toEqual({ message: badFormat, path: ['email'] });
  });

  it('measures the length after trimming', () => {
    const email = `${'a'.repeat(38)}@example.com`;
    expect(newsletterSchema.parse({ email: `  ${email}  ` }).email).toBe(email);
  });

  it('reports a single format issue for a long malformed e-mail', () => {
    expect(onlyIssue({ email: 'x'.repeat(80) })).toEqual({ message: badFormat, path: ['email'] });
  });

  it('rejects a missing object', () => {
    expect(newsletterSchema.safeParse(undefined).success).toBe(false);
  });
});
