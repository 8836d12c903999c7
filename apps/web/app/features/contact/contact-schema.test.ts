import { contactFormSchema, ruleMessages as r } from '@travesia/domain/rules';
import { describe, expect, it } from 'vitest';
import { type ContactValues, contactSchema, emptyContactValues, subjectIdOf, toContactBody } from './contact-schema.ts';

const valid: ContactValues = {
  fullName: ' Camila Rojas ',
  email: 'camila@example.cl',
  phone: '+56 9 1234 5678',
  idSubject: '2',
  detail: 'Consulta por mi reembolso.',
};

const errorsOf = (values: ContactValues) => {
  const result = contactSchema.safeParse(values);
  return result.success
    ? []
    : result.error.issues.map((issue) => ({
        field: issue.path.join('.'),
        code: (issue as { params?: { code?: string } }).params?.code,
        message: issue.message,
      }));
};

describe('contact form schema (the API’s rules on the form’s text values)', () => {
  it('an empty form reads the spec §5 message of every field', () => {
    expect(errorsOf(emptyContactValues)).toStrictEqual([
      { field: 'fullName', code: 'required', message: 'Debe ingresar su Nombre y Apellido' },
      { field: 'email', code: 'required', message: 'Debe ingresar un email' },
      { field: 'phone', code: 'required', message: 'Debe ingresar un teléfono' },
      { field: 'idSubject', code: 'required', message: 'Seleccione un asunto' },
      { field: 'detail', code: 'required', message: 'Debe ingresar una descripción' },
    ]);
  });

  it.each([
    ['fullName', 'n'.repeat(101), 'too_long', r.tooLong(100)],
    ['email', 'camila@', 'invalid_email', 'Email inválido'],
    ['email', `${'a'.repeat(40)}@example.cl`, 'too_long', r.emailTooLong],
    ['phone', '1'.repeat(21), 'too_long', r.tooLong(20)],
    ['detail', 'd'.repeat(1001), 'too_long', r.tooLong(1000)],
  ] as const)('%s = %j → %s «%s», as the API says', (field, value, code, message) => {
    expect(errorsOf({ ...valid, [field]: value })).toStrictEqual([{ field, code, message }]);
  });

  it('a valid form becomes the API body the API accepts (trimmed, the subject as a number)', () => {
    expect(errorsOf(valid)).toStrictEqual([]);
    const body = toContactBody(valid);
    expect(body).toStrictEqual({ ...valid, fullName: 'Camila Rojas', idSubject: 2 });
    expect(contactFormSchema.safeParse(body).success).toBe(true);
  });

  it('only digits make a subject id', () => {
    expect(subjectIdOf('12')).toBe(12);
    expect(subjectIdOf('')).toBeUndefined();
    expect(subjectIdOf('1e3')).toBeUndefined();
  });
});
