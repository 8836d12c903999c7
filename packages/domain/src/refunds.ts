import { z } from 'zod';
import { parseIsoDate, todayInChile } from './dates.ts';
import type { Rule } from './field-errors.ts';
import { type DocumentTypeId, documentTypeLabels } from './ids.ts';
import { formatClp, formatUsd } from './money.ts';
import {
  documentProblem,
  documentType,
  email,
  isoDate,
  phone,
  reportRule,
  ruleMessages,
  text,
  typeError,
} from './rules.ts';
import { interpretSchemasInBrowsers } from './zod-in-browsers.ts';

interpretSchemasInBrowsers();

/**
 * The refund request (issue 9, spec §7 `POST /companies/{companyId}/refunds`): its fields, limits, messages and the
 * supporting documents' rules, applied by the API and by the storefront's form alike.
 */

// ─── Lists ─────────────────────────────────────────────────────────────────────────────────────────────────────────

/** The banks a refund can be transferred to, by their code in the Chilean interbank system (CMF/SBIF). */
export const chileanBanks = [
  { code: '001', name: 'Banco de Chile / Edwards' },
  { code: '009', name: 'Banco Internacional' },
  { code: '012', name: 'BancoEstado' },
  { code: '014', name: 'Scotiabank' },
  { code: '016', name: 'Banco BCI / Mach' },
  { code: '028', name: 'Banco BICE' },
  { code: '031', name: 'HSBC Bank Chile' },
  { code: '037', name: 'Banco Santander' },
  { code: '039', name: 'Banco Itaú' },
  { code: '049', name: 'Banco Security' },
  { code: '051', name: 'Banco Falabella' },
  { code: '053', name: 'Banco Ripley' },
  { code: '055', name: 'Banco Consorcio' },
  { code: '059', name: 'Banco BTG Pactual Chile' },
  { code: '672', name: 'Coopeuch' },
] as const;

export type BankCode = (typeof chileanBanks)[number]['code'];
const bankCodes = chileanBanks.map((bank) => bank.code) as [BankCode, ...BankCode[]];

export function bankName(code: string): string {
  return chileanBanks.find((bank) => bank.code === code)?.name ?? code;
}

/** Account types of a Chilean bank account. */
export const accountTypes = {
  corriente: 'Cuenta corriente',
  vista: 'Cuenta vista / RUT',
  ahorro: 'Cuenta de ahorro',
} as const;
export type AccountType = keyof typeof accountTypes;
const accountTypeList = Object.keys(accountTypes) as [AccountType, ...AccountType[]];

export const refundCurrencies = ['CLP', 'USD'] as const;
export type RefundCurrency = (typeof refundCurrencies)[number];

// ─── Limits ────────────────────────────────────────────────────────────────────────────────────────────────────────

export const refundLimits = {
  holderName: 100,
  certificateNumber: 40,
  description: 2000,
  accountNumber: 20,
  fileName: 120,
  /** The largest amount one request may claim, per currency (well above any cover of the plans). */
  maxAmount: { CLP: 100_000_000, USD: 100_000 } as Record<RefundCurrency, number>,
  /** Supporting documents: at least one, at most this many, each at most this many bytes. */
  maxFiles: 5,
  maxFileBytes: 5 * 1024 * 1024,
  /**
   * A document sent inside the JSON body (base64) instead of uploaded first: small ones only, so a claim's body stays
   * small (its body limit is 1 MiB). Larger ones are uploaded (`POST …/refunds/files`) and named by their token.
   */
  maxInlineFileBytes: 256 * 1024,
} as const;

/** The longest base64 text of one document of {@link refundLimits.maxFileBytes} bytes. */
export const maxFileBase64Length = Math.ceil(refundLimits.maxFileBytes / 3) * 4;

/** The longest base64 text of a document sent inside the JSON body ({@link refundLimits.maxInlineFileBytes}). */
export const maxInlineBase64Length = Math.ceil(refundLimits.maxInlineFileBytes / 3) * 4;

/** An upload's token, as `POST …/refunds/files` answers it: 32 random bytes in base64url. */
export const uploadTokenPattern = /^[A-Za-z0-9_-]{43}$/;

// ─── Messages ──────────────────────────────────────────────────────────────────────────────────────────────────────

export const refundMessages = {
  holderName: 'Ingresa el nombre del titular',
  certificateNumber: 'Ingresa el número de certificado o de venta',
  certificateNumberFormat: 'Usa solo letras, números y guiones',
  description: 'Cuéntanos qué pasó',
  incidentDateRequired: 'Ingresa la fecha del incidente',
  incidentDateFuture: 'La fecha del incidente no puede ser posterior a hoy',
  amount: 'Ingresa un monto mayor que cero',
  amountDecimals: { CLP: 'El monto en pesos no lleva decimales', USD: 'El monto en dólares lleva hasta 2 decimales' },
  amountTooLarge: (max: string) => `El monto no puede superar ${max}`,
  currency: 'Selecciona la moneda',
  bank: 'Selecciona el banco',
  accountType: 'Selecciona el tipo de cuenta',
  accountNumber: 'Número de cuenta inválido: de 4 a 20 dígitos (puede llevar guiones)',
  documentsRequired: 'Adjunta al menos un documento de respaldo (boleta, informe médico…)',
  tooManyFiles: `Puedes adjuntar hasta ${refundLimits.maxFiles} archivos`,
  fileTooLarge: (name: string) => `El archivo «${name}» pesa más de 5 MB`,
  /** Where the name is not at hand (the base64 text alone is already too long). */
  fileTooLargeUnnamed: 'Un archivo pesa más de 5 MB',
  fileEmpty: (name: string) => `El archivo «${name}» está vacío`,
  fileType: (name: string) => `El archivo «${name}» no es un PDF, JPG o PNG (se revisa su contenido, no su nombre)`,
  fileNameMismatch: (name: string, kind: string, extensions: readonly string[]) =>
    `El archivo «${name}» es ${kind}: su nombre debe terminar en ${extensions.map((e) => `.${e}`).join(' o ')}`,
  fileUnreadable: (name: string) => `No pudimos leer el archivo «${name}»`,
  fileInlineTooLarge:
    'Un archivo enviado dentro del JSON puede pesar hasta 256 KB: los más grandes se suben antes (POST …/refunds/files)',
  uploadUnknown: 'Este archivo ya no está disponible (venció o ya se usó): vuelve a adjuntarlo',
  uploadOrInline: 'Indica el token de un archivo subido, o su nombre y contenido, no ambos',
  uploadTooLarge: `Los documentos pesan más de lo permitido: hasta ${refundLimits.maxFiles} archivos de 5 MB cada uno`,
  uploadsBusy: 'Estamos recibiendo muchos documentos en este momento. Intenta de nuevo en unos segundos.',
  uploadsBusyForClient: 'Ya tienes un envío de documentos en curso. Espera a que termine e intenta de nuevo.',
  requestNumber: 'Ingresa el número de solicitud (por ejemplo R-7K3M9XQ2)',
  /** The same for an unknown number and for a document that is not its holder's: nothing tells which. */
  certificateNotHeld:
    'No encontramos un certificado con este número a nombre de ese documento. Revisa el número y el documento del titular.',
  certificateVoid:
    'Este certificado está anulado (por retracto o por un cambio de fechas). Usa el número del certificado vigente.',
  incidentOutsideCover: (from: string, to: string) =>
    `La fecha del incidente debe estar dentro de la vigencia del certificado: del ${from} al ${to}.`,
} as const;

const rm = refundMessages;

// ─── Supporting documents ──────────────────────────────────────────────────────────────────────────────────────────

/** The kinds of supporting document accepted, with their MIME type, extensions and words for people. */
export const documentKinds = {
  pdf: { mime: 'application/pdf', extensions: ['pdf'], words: 'un PDF' },
  png: { mime: 'image/png', extensions: ['png'], words: 'una imagen PNG' },
  jpeg: { mime: 'image/jpeg', extensions: ['jpg', 'jpeg'], words: 'una imagen JPG' },
} as const;
export type DocumentKind = keyof typeof documentKinds;

/** What the `accept` attribute of a file input lists. */
export const documentAccept = '.pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png';

/** The kind of a file by its first bytes (magic numbers), or null when it is none of PDF, PNG, JPEG. */
export function detectDocumentKind(bytes: Uint8Array): DocumentKind | null {
  const starts = (signature: number[]) => signature.every((byte, index) => bytes[index] === byte);
  if (starts([0x25, 0x50, 0x44, 0x46, 0x2d])) return 'pdf'; // %PDF-
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts([0xff, 0xd8, 0xff])) return 'jpeg';
  return null;
}

/** A file name's extension, lower-cased, or null when it has none (`boleta`, `.pdf`, `boleta.`). */
export function fileExtension(name: string): string | null {
  return /[^./\\]\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? null;
}

/**
 * Why a supporting document cannot be accepted, or null: empty, larger than 5 MB, not a PDF/PNG/JPEG by its
 * content, or a name whose extension is not one of that content's own (case-insensitive): a PNG named .pdf, a PDF
 * named .bat/.html/.svg/.hta, or no extension at all. A file is only ever stored under a name that says what it
 * is. Each message names the file.
 */
export function documentFileProblem(name: string, bytes: Uint8Array): Rule | null {
  if (bytes.length === 0) return { code: 'invalid_file_type', message: rm.fileEmpty(name) };
  if (bytes.length > refundLimits.maxFileBytes) return { code: 'file_too_large', message: rm.fileTooLarge(name) };
  const kind = detectDocumentKind(bytes);
  if (kind === null) return { code: 'invalid_file_type', message: rm.fileType(name) };
  const extension = fileExtension(name);
  const own: readonly string[] = documentKinds[kind].extensions;
  if (extension === null || !own.includes(extension)) {
    return { code: 'invalid_file_type', message: rm.fileNameMismatch(name, documentKinds[kind].words, own) };
  }
  return null;
}

// ─── Fields ────────────────────────────────────────────────────────────────────────────────────────────────────────

const fails = (rule: Rule) => ({ error: rule.message, params: { code: rule.code } });

const certificateNumberPattern = /^[A-Za-z0-9-]+$/;
const accountNumberPattern = /^[0-9][0-9-]{2,18}[0-9]$/;
const base64Pattern = /^[A-Za-z0-9+/]*={0,2}$/;

export const incidentDate = isoDate(rm.incidentDateRequired).refine(
  (value) => parseIsoDate(value) === null || value <= todayInChile(),
  fails({ code: 'future_date', message: rm.incidentDateFuture }),
);

export const refundCurrency = z.enum(refundCurrencies, typeError(rm.currency, rm.currency));

/** A positive amount; its decimals and its ceiling depend on the currency (see {@link amountProblem}). */
export const refundAmount = z.number(typeError(rm.amount, rm.amount)).positive(rm.amount);

const formatCeiling = (currency: RefundCurrency) => (currency === 'CLP' ? '$100.000.000' : 'USD 100.000');

/** CLP in whole pesos, USD with at most 2 decimals, at most {@link refundLimits.maxAmount}. */
export function amountProblem(amount: number, currency: RefundCurrency): Rule | null {
  if (!(amount > 0)) return null;
  const scaled = currency === 'CLP' ? amount : Math.round(amount * 100) / 100;
  if (currency === 'CLP' ? !Number.isInteger(amount) : Math.abs(scaled - amount) > 1e-9) {
    return { code: 'invalid_format', message: rm.amountDecimals[currency] };
  }
  if (amount > refundLimits.maxAmount[currency]) {
    return { code: 'out_of_range', message: rm.amountTooLarge(formatCeiling(currency)) };
  }
  return null;
}

/** The file name of a supporting document, as the visitor chose it (its extension is checked against its content). */
export const refundDocumentName = text(refundLimits.fileName).describe(
  'The file name, as the visitor chose it (its extension is checked against its content)',
);

/**
 * One supporting document as the JSON body names it: `{ token }`, a document uploaded first (`POST …/refunds/files`,
 * streamed to the document store), or `{ nombre, contenido }`, a small one (at most 256 KB) in base64.
 */
export const refundDocument = z
  .object(
    {
      token: z
        .string(typeError(ruleMessages.notText))
        .refine((value) => uploadTokenPattern.test(value), fails({ code: 'invalid_format', message: rm.uploadUnknown }))
        .optional()
        .describe('The token `POST …/refunds/files` answered for the file: once, within the hour, by this company'),
      nombre: refundDocumentName.optional(),
      contenido: z
        .string(typeError(ruleMessages.notText))
        .min(1, { error: ruleMessages.required, abort: true })
        .max(maxInlineBase64Length, { error: rm.fileInlineTooLarge, abort: true })
        .refine(
          (value) => base64Pattern.test(value),
          fails({ code: 'invalid_format', message: 'Contenido base64 inválido' }),
        )
        .optional()
        .describe(
          'Without a token: the bytes of the file in base64 (at most 256 KB decoded); PDF, JPG or PNG by content',
        ),
    },
    typeError(ruleMessages.required),
  )
  .superRefine((value, ctx) => {
    const missing = (field: 'nombre' | 'contenido') =>
      ctx.addIssue({ code: 'custom', path: [field], message: ruleMessages.required, params: { code: 'required' } });
    if (value.token !== undefined) {
      if (value.nombre !== undefined || value.contenido !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['token'],
          message: rm.uploadOrInline,
          params: { code: 'invalid_format' },
        });
      }
      return;
    }
    if (value.nombre === undefined) missing('nombre');
    if (value.contenido === undefined) missing('contenido');
  });

export const refundDocuments = z
  .array(refundDocument, typeError(rm.documentsRequired, rm.documentsRequired))
  .min(1, rm.documentsRequired)
  .max(refundLimits.maxFiles, rm.tooManyFiles);

/** The refund request body (spec §7 `POST /companies/{companyId}/refunds`). */
export const refundRequestFields = {
  nombreTitular: text(refundLimits.holderName, { required: rm.holderName }).describe("The holder's full name"),
  tipoDocumento: documentType.describe(
    'Spec §9 identification: 1 RUT, 2 DNI, 3 Pasaporte (as the passenger form; 2 also from clients that offered «DNI / Pasaporte»)',
  ),
  numeroDocumento: text(20).describe(
    "The holder's RUT (check digit verified), DNI or passport (at least 5 characters, no spaces)",
  ),
  email: email().describe("The holder's e-mail: the request number is sent there"),
  telefono: phone.describe("The holder's phone"),
  numeroCertificado: text(refundLimits.certificateNumber, { required: rm.certificateNumber })
    .refine(
      (value) => certificateNumberPattern.test(value),
      fails({ code: 'invalid_format', message: rm.certificateNumberFormat }),
    )
    .describe('The certificate number or the sale number (idVenta)'),
  descripcion: text(refundLimits.description, { required: rm.description, multiline: true }).describe('What happened'),
  fechaIncidente: incidentDate.describe('When it happened (YYYY-MM-DD, not after today in Chile)'),
  monto: refundAmount.describe('The amount claimed: positive; CLP whole pesos, USD up to 2 decimals'),
  moneda: refundCurrency,
  banco: z.enum(bankCodes, typeError(rm.bank, rm.bank)).describe('Bank code (chileanBanks in packages/domain)'),
  tipoCuenta: z.enum(accountTypeList, typeError(rm.accountType, rm.accountType)),
  numeroCuenta: z
    .string(typeError(rm.accountNumber))
    .trim()
    .min(1, { error: ruleMessages.required, abort: true })
    .refine((value) => accountNumberPattern.test(value), fails({ code: 'invalid_format', message: rm.accountNumber })),
};

/** The whole request: the fields, the document number checked for its type, the amount for its currency. */
export const refundRequestSchema = z
  .object({ ...refundRequestFields, documentos: refundDocuments })
  .superRefine((value, ctx) => {
    reportRule(ctx, ['numeroDocumento'], documentProblem(value.tipoDocumento, value.numeroDocumento));
    reportRule(ctx, ['monto'], amountProblem(value.monto, value.moneda));
  });

export type RefundRequestInput = z.infer<typeof refundRequestSchema>;

// ─── The certificate a claim names ─────────────────────────────────────────────────────────────────────────────────

/** A day as the form's reader writes it: 2026-03-09 → 09-03-2026. */
const dayForPeople = (isoDate: string) => isoDate.split('-').reverse().join('-');

/** The fields a claim's certificate errors land on: the number and the document it must belong to. */
export const claimHolderFields = ['numeroCertificado', 'numeroDocumento'] as const;

/**
 * Why a claim cannot stand on the certificate it names, as field errors (empty when it can): no certificate of that
 * number held by that document (`certificate_not_found`, the same on both fields whether the number is unknown or
 * the document wrong), a voided one (`certificate_void`), or an incident date outside the days it covers, departure
 * to return (`outside_cover`).
 */
export function claimProblems(
  claim: { fechaIncidente: string },
  certificate: { state: 'valid'; departureDate: string; returnDate: string } | { state: 'void' } | undefined,
): { field: string; code: 'certificate_not_found' | 'certificate_void' | 'outside_cover'; message: string }[] {
  if (!certificate) {
    return claimHolderFields.map((field) => ({
      field,
      code: 'certificate_not_found',
      message: rm.certificateNotHeld,
    }));
  }
  if (certificate.state === 'void') {
    return [{ field: 'numeroCertificado', code: 'certificate_void', message: rm.certificateVoid }];
  }
  const { departureDate, returnDate } = certificate;
  if (claim.fechaIncidente < departureDate || claim.fechaIncidente > returnDate) {
    return [
      {
        field: 'fechaIncidente',
        code: 'outside_cover',
        message: rm.incidentOutsideCover(dayForPeople(departureDate), dayForPeople(returnDate)),
      },
    ];
  }
  return [];
}

// ─── Tracking ──────────────────────────────────────────────────────────────────────────────────────────────────────

/** `R-` and 8 characters of Crockford base32 (no I, L, O, U): 40 random bits, not guessable in sequence. */
export const requestNumberAlphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const requestNumberPattern = /^R-[0-9A-HJKMNP-TV-Z]{8}$/;

/** A request number as typed: trimmed, upper-cased, with its dash. Null when it cannot be one. */
export function normaliseRequestNumber(value: string): string | null {
  const compact = value.trim().toUpperCase().replace(/\s+/g, '');
  const withDash = /^R[0-9A-Z]{8}$/.test(compact) ? `R-${compact.slice(1)}` : compact;
  return requestNumberPattern.test(withDash) ? withDash : null;
}

export const requestNumber = z
  .string(typeError(rm.requestNumber))
  .trim()
  .min(1, { error: ruleMessages.required, abort: true })
  .refine(
    (value) => normaliseRequestNumber(value) !== null,
    fails({ code: 'invalid_format', message: rm.requestNumber }),
  );

/** A document number compared without dots, dashes, spaces or case: 12.345.678-5 and 123456785 are the same. */
export function documentKey(value: string): string {
  return value.replace(/[.\s-]/g, '').toUpperCase();
}

/** The states of a refund request, as the wire and the CLI name them, with the words the visitor reads. */
export const refundStatuses = {
  recibida: 'Recibida',
  en_revision: 'En revisión',
  faltan_documentos: 'Faltan documentos',
  aprobada: 'Aprobada',
  rechazada: 'Rechazada',
  pagada: 'Pagada',
} as const;
export type RefundStatus = keyof typeof refundStatuses;
export const refundStatusList = Object.keys(refundStatuses) as [RefundStatus, ...RefundStatus[]];

/** Which status may follow which. A paid request is final; a rejected one may only be reopened for review. */
export const refundTransitions: Record<RefundStatus, readonly RefundStatus[]> = {
  recibida: ['en_revision', 'faltan_documentos', 'aprobada', 'rechazada'],
  en_revision: ['faltan_documentos', 'aprobada', 'rechazada'],
  faltan_documentos: ['en_revision', 'aprobada', 'rechazada'],
  aprobada: ['pagada', 'rechazada'],
  rechazada: ['en_revision'],
  pagada: [],
};

/**
 * The holder's document types as the form offers them and the company's e-mail names them: the passenger form's
 * (RUT, DNI, Pasaporte). 2 was «DNI / Pasaporte» before passports had their own type: old clients still send it.
 */
export const holderDocumentTypes: Record<DocumentTypeId, string> = documentTypeLabels;

/** An amount in the request's currency, as people read it: `$120.000`, `USD 85,50`. */
export function formatRefundAmount(amount: number, currency: RefundCurrency): string {
  return currency === 'CLP' ? formatClp(amount) : formatUsd(amount);
}
