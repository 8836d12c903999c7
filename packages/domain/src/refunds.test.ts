import { describe, expect, it } from 'vitest';
import { claimProblems, documentFileProblem, fileExtension, refundMessages } from './refunds.ts';

const pdf = new TextEncoder().encode('%PDF-1.4\r\n@echo off\r\n');
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00]);
const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00]);

describe('documentFileProblem (the API and the storefront form apply it alike)', () => {
  it.each([
    ['boleta.pdf', pdf],
    ['BOLETA.PDF', pdf],
    ['foto.jpg', jpeg],
    ['foto.JPEG', jpeg],
    ['receta.Png', png],
  ])('accepts %s: its content under one of its own extensions', (name, bytes) => {
    expect(documentFileProblem(name, bytes)).toBeNull();
  });

  it.each([
    ['boleta.bat', pdf],
    ['boleta.html', pdf],
    ['receta.hta', png],
    ['boleta.svg', png],
    ['boleta.pdf.exe', pdf],
    ['sin-extension', jpeg],
    ['.pdf', pdf],
    ['boleta.', pdf],
    ['informe.pdf', png],
    ['foto.png', jpeg],
  ])('refuses %s: invalid_file_type naming the file', (name, bytes) => {
    const problem = documentFileProblem(name, bytes);
    expect(problem?.code).toBe('invalid_file_type');
    expect(problem?.message).toContain(`«${name}»`);
  });

  it('says which extensions the content needs', () => {
    expect(documentFileProblem('foto.bmp', jpeg)?.message).toBe(
      'El archivo «foto.bmp» es una imagen JPG: su nombre debe terminar en .jpg o .jpeg',
    );
  });
});

describe('fileExtension', () => {
  it('is the last extension, lower-cased, or null', () => {
    expect(fileExtension('a.b.PDF')).toBe('pdf');
    expect(fileExtension('boleta')).toBeNull();
    expect(fileExtension('.pdf')).toBeNull();
    expect(fileExtension('boleta.')).toBeNull();
  });
});

describe('the certificate a refund claim stands on', () => {
  const cover = { state: 'valid', departureDate: '2026-03-01', returnDate: '2026-03-10' } as const;

  it('covers its trip from departure to return, both days included; a day before or after is outside_cover', () => {
    for (const day of ['2026-03-01', '2026-03-05', '2026-03-10']) {
      expect(claimProblems({ fechaIncidente: day }, cover)).toStrictEqual([]);
    }
    for (const day of ['2026-02-28', '2026-03-11', '2025-03-05']) {
      expect(claimProblems({ fechaIncidente: day }, cover)).toStrictEqual([
        {
          field: 'fechaIncidente',
          code: 'outside_cover',
          message:
            'La fecha del incidente debe estar dentro de la vigencia del certificado: del 01-03-2026 al 10-03-2026.',
        },
      ]);
    }
  });

  it('none held by that document is one answer on both fields; a void one is certificate_void', () => {
    expect(claimProblems({ fechaIncidente: '2026-03-05' }, undefined)).toStrictEqual(
      ['numeroCertificado', 'numeroDocumento'].map((field) => ({
        field,
        code: 'certificate_not_found',
        message: refundMessages.certificateNotHeld,
      })),
    );
    expect(claimProblems({ fechaIncidente: '2026-03-05' }, { state: 'void' })).toStrictEqual([
      { field: 'numeroCertificado', code: 'certificate_void', message: refundMessages.certificateVoid },
    ]);
  });
});
