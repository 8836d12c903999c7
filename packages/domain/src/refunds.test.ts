import { describe, expect, it } from 'vitest';
import { documentFileProblem, fileExtension } from './refunds.ts';

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
