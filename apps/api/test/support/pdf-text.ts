import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { constants, inflateSync } from 'node:zlib';
import jsQR from 'jsqr';
import { PDFDocument } from 'pdf-lib';

const run = promisify(execFile);

/**
 * The strings a PDF draws, good enough to look for a name in a pdf-lib document: every stream is inflated when it is
 * Flate-compressed, and the hex strings (`<43616D696C61> Tj`, as pdf-lib writes standard-font text) and literal
 * strings (`(Camila) Tj`) in it are decoded as WinAnsi (Latin-1 for the letters of Spanish names). One line each.
 */
export function pdfStrings(pdf: Uint8Array): string[] {
  const bytes = Buffer.from(pdf);
  const strings: string[] = [];
  for (const content of streamsOf(bytes)) {
    const text = content.toString('latin1');
    for (const match of text.matchAll(/(?<!<)<([0-9A-Fa-f\s]*)>(?!>)/g)) {
      const hex = (match[1] ?? '').replace(/\s+/g, '');
      strings.push(Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex').toString('latin1'));
    }
    for (const match of text.matchAll(/\(((?:\\.|[^\\)])*)\)\s*Tj/g)) {
      strings.push(unescapeLiteral(match[1] ?? ''));
    }
  }
  return strings;
}

/** Every stream of the file, inflated when it inflates (content streams), as it is otherwise. */
function streamsOf(bytes: Buffer): Buffer[] {
  const streams: Buffer[] = [];
  let from = 0;
  for (;;) {
    const keyword = bytes.indexOf('stream', from, 'latin1');
    if (keyword < 0) break;
    let start = keyword + 'stream'.length;
    if (bytes[start] === 0x0d) start += 1;
    if (bytes[start] === 0x0a) start += 1;
    const end = bytes.indexOf('endstream', start, 'latin1');
    if (end < 0) break;
    // `endstream` itself contains `stream`: only a keyword at the start of a line opens a stream.
    if (keyword >= 3 && bytes.toString('latin1', keyword - 3, keyword) === 'end') {
      from = keyword + 1;
      continue;
    }
    let stop = end;
    while (stop > start && (bytes[stop - 1] === 0x0a || bytes[stop - 1] === 0x0d)) stop -= 1;
    const data = bytes.subarray(start, stop);
    try {
      streams.push(inflateSync(data, { finishFlush: constants.Z_SYNC_FLUSH }));
    } catch {
      streams.push(data);
    }
    from = end + 'endstream'.length;
  }
  return streams;
}

function unescapeLiteral(value: string): string {
  return value.replace(/\\([nrtbf()\\]|[0-7]{1,3})/g, (_all, escaped: string) => {
    const simple: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };
    if (escaped in simple) return simple[escaped] ?? '';
    if (/^[0-7]+$/.test(escaped)) return String.fromCharCode(Number.parseInt(escaped, 8));
    return escaped;
  });
}

/** All the drawn text of a PDF as one string (lines joined by newlines). */
export const pdfText = (pdf: Uint8Array) => pdfStrings(pdf).join('\n');

/**
 * The text of each page of a PDF as poppler's `pdftotext` reads it (one call per page, -f N -l N): what a reader sees
 * on that page, in reading order. Needs poppler-utils (`.ci/run` installs it).
 */
export async function pdfPageTexts(pdf: Uint8Array): Promise<string[]> {
  const directory = await mkdtemp(join(tmpdir(), 'pdf-pages-'));
  try {
    const file = join(directory, 'document.pdf');
    await writeFile(file, pdf);
    const pages = (await PDFDocument.load(pdf)).getPageCount();
    return await Promise.all(
      Array.from({ length: pages }, async (_, index) => {
        const page = String(index + 1);
        const { stdout } = await run('pdftotext', ['-f', page, '-l', page, '-enc', 'UTF-8', file, '-']);
        return stdout;
      }),
    );
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/**
 * What a phone's camera reads from the QR code on a PDF's first page: the page rendered by poppler's `pdftoppm` as a
 * greyscale image (PGM) and decoded by jsQR. Null when no QR code can be read.
 */
export async function qrCodeOnFirstPage(pdf: Uint8Array): Promise<string | null> {
  const directory = await mkdtemp(join(tmpdir(), 'pdf-qr-'));
  try {
    const file = join(directory, 'document.pdf');
    await writeFile(file, pdf);
    const { stdout } = await run('pdftoppm', ['-f', '1', '-l', '1', '-r', '100', '-gray', file], {
      encoding: 'buffer',
      maxBuffer: 16 * 1024 * 1024,
    });
    const { width, height, pixels } = parsePgm(stdout);
    const rgba = new Uint8ClampedArray(width * height * 4);
    for (let index = 0; index < width * height; index += 1) {
      const grey = pixels[index] ?? 255;
      rgba.set([grey, grey, grey, 255], index * 4);
    }
    return jsQR(rgba, width, height)?.data ?? null;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** A binary PGM (P5, 8 bits): `P5 <width> <height> 255` then one byte a pixel. */
function parsePgm(image: Buffer): { width: number; height: number; pixels: Buffer } {
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(image.toString('latin1', 0, 64));
  if (!header) throw new Error('pdftoppm did not answer a greyscale PGM image');
  const width = Number(header[1]);
  const height = Number(header[2]);
  return { width, height, pixels: image.subarray(header[0].length, header[0].length + width * height) };
}
