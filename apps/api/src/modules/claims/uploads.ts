import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import type { FieldError, Rule } from '@travesia/domain/field-errors';
import { errorMessages } from '@travesia/domain/messages';
import {
  type DocumentKind,
  detectDocumentKind,
  documentFileProblem,
  documentKinds,
  refundDocumentName,
  refundLimits,
  refundMessages,
} from '@travesia/domain/refunds';
import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '#app/db/client.ts';
import { ApiError } from '#app/errors.ts';
import type { DocumentStore } from '#app/integrations/document-store/index.ts';
import { refundUploads } from './tables.ts';

/**
 * Supporting documents received as they arrive (issue 22): each file of a multipart post is checked by its first
 * bytes and its size while it streams into the document store, never held whole in memory nor written to the
 * database; the visitor gets a token per file, which the claim then names (single use, an hour, this company).
 */

/** A request of several files may carry a few more bytes than its documents (part headers, the form's fields). */
export const maxUploadRequestBytes = refundLimits.maxFiles * refundLimits.maxFileBytes + 1024 * 1024;

/** The multipart parser's limits: files are cut at the document limit (the rest is skipped as it arrives). */
export const multipartLimits = {
  fileSize: refundLimits.maxFileBytes,
  // A few more than allowed, so that the sixth file is a field error of ours rather than the parser's stop.
  files: refundLimits.maxFiles + 5,
  fields: 40,
  fieldSize: 16 * 1024,
  fieldNameSize: 100,
  parts: 60,
  headerPairs: 50,
} as const;

const retryAfterSeconds = 5;

/** A document that cannot be accepted: its rule (code and Spanish message), for the field error. */
export class DocumentProblem extends Error {
  constructor(readonly rule: Rule) {
    super(rule.message);
  }
}

/** What a DocumentCheck accepts: how large, and what a file's first bytes may be (by default a claim's documents). */
export type DocumentRules = {
  maxBytes: number;
  /** Why the file (its name and first bytes) is refused, or null. */
  problem(name: string, head: Uint8Array): Rule | null;
  tooLarge(name: string): Rule;
};

const claimDocumentRules: DocumentRules = {
  maxBytes: refundLimits.maxFileBytes,
  problem: documentFileProblem,
  tooLarge: (name) => ({ code: 'file_too_large', message: refundMessages.fileTooLarge(name) }),
};

/**
 * Passes a document's bytes on while checking them: its kind by its first bytes (and the name's extension against
 * it), and its size as it grows. Fails with a DocumentProblem as soon as one is seen; `kind` resolves once known.
 * Claims' documents by default; the console's plan files (plans/plan-files.ts) pass their own rules.
 */
export class DocumentCheck extends Transform {
  private head = Buffer.alloc(0);
  private checked = false;
  private size = 0;
  readonly kind: Promise<DocumentKind>;
  private resolveKind!: (kind: DocumentKind) => void;
  private rejectKind!: (error: Error) => void;

  constructor(
    private readonly name: string,
    private readonly rules: DocumentRules = claimDocumentRules,
  ) {
    super();
    this.kind = new Promise((resolve, reject) => {
      this.resolveKind = resolve;
      this.rejectKind = reject;
    });
    // Handled by whoever awaits `kind`; a failure after it is the store's pipeline's.
    this.kind.catch(() => {});
    this.once('error', (error) => this.rejectKind(error));
  }

  /** The parser saw more bytes than the limit allows (the part was cut): the document is refused now. */
  tooLarge() {
    this.destroy(new DocumentProblem(this.rules.tooLarge(this.name)));
  }

  private decide(): DocumentProblem | undefined {
    this.checked = true;
    const problem = this.rules.problem(this.name, this.head);
    if (problem) return new DocumentProblem(problem);
    const kind = detectDocumentKind(this.head);
    if (!kind) return new DocumentProblem({ code: 'invalid_file_type', message: refundMessages.fileType(this.name) });
    this.resolveKind(kind);
    return undefined;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.size += chunk.length;
    if (this.size > this.rules.maxBytes) {
      callback(new DocumentProblem(this.rules.tooLarge(this.name)));
      return;
    }
    if (this.checked) {
      callback(null, chunk);
      return;
    }
    this.head = Buffer.concat([this.head, chunk]);
    if (this.head.length < 8) {
      callback();
      return;
    }
    const problem = this.decide();
    if (problem) callback(problem);
    else callback(null, this.head);
  }

  override _flush(callback: TransformCallback) {
    if (this.checked) {
      callback();
      return;
    }
    const problem = this.decide();
    if (problem) callback(problem);
    else callback(null, this.head);
  }
}

export type StoredDocument = { storageKey: string; fileName: string; contentType: string; size: number };

/** A new key in the document store for a visitor's document (random: it names nothing about the claim). */
export const newDocumentKey = () => `refund-documents/${randomUUID()}`;

/**
 * Streams one document from `source` into the store, checked on the way. A DocumentProblem (wrong kind, too large,
 * empty, a bad name) rejects and leaves nothing stored; `source` is then left to its caller to drain.
 */
export async function storeDocument(
  store: DocumentStore,
  source: Readable,
  name: string,
  onCheck?: (check: { tooLarge(): void }) => void,
): Promise<StoredDocument> {
  const checkedName = refundDocumentName.safeParse(name);
  if (!checkedName.success) {
    const issue = checkedName.error.issues[0];
    throw new DocumentProblem({
      code: issue?.code === 'too_big' ? 'too_long' : 'invalid_format',
      message: issue?.message ?? refundMessages.fileUnreadable(name),
    });
  }
  const fileName = checkedName.data;
  const check = new DocumentCheck(fileName);
  onCheck?.(check);
  // pipe() does not pass a failure on: a source that fails or closes early (the visitor gone) fails the write, so
  // the store removes what it had.
  const sourceGone = (error?: Error) => {
    if (!source.readableEnded) check.destroy(error ?? new Error('The upload ended before its file did'));
  };
  const sourceClosed = () => sourceGone();
  source.once('error', sourceGone);
  source.once('close', sourceClosed);
  source.pipe(check);
  try {
    const kind = await check.kind;
    const storageKey = newDocumentKey();
    const contentType = documentKinds[kind].mime;
    const { size } = await store.put(storageKey, check, contentType);
    return { storageKey, fileName, contentType, size };
  } finally {
    source.off('error', sourceGone);
    source.off('close', sourceClosed);
    source.unpipe(check);
  }
}

/** The bytes of a document sent inline (base64 in the JSON body), checked and stored as an upload's are. */
export function storeInlineDocument(store: DocumentStore, name: string, bytes: Buffer): Promise<StoredDocument> {
  return storeDocument(store, Readable.from([bytes]), name);
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

export type UploadAnswer = { token: string; nombre: string; tipo: string; tamano: number };

/** Records stored documents as uploads waiting for a claim, and answers their tokens (only their hashes are kept). */
export async function recordUploads(
  db: Database,
  companyId: number,
  documents: StoredDocument[],
  ttlMs: number,
): Promise<UploadAnswer[]> {
  if (documents.length === 0) return [];
  const expiresAt = new Date(Date.now() + ttlMs);
  const withTokens = documents.map((document) => ({ document, token: randomBytes(32).toString('base64url') }));
  await db.insert(refundUploads).values(
    withTokens.map(({ document, token }) => ({
      companyId,
      tokenHash: hashToken(token),
      fileName: document.fileName,
      contentType: document.contentType,
      size: document.size,
      storageKey: document.storageKey,
      expiresAt,
    })),
  );
  return withTokens.map(({ document, token }) => ({
    token,
    nombre: document.fileName,
    tipo: document.contentType,
    tamano: document.size,
  }));
}

/**
 * Takes the uploads these tokens name for a claim, inside the claim's transaction: each row is deleted as it is
 * taken, so a token serves one claim only (a second claim, even at the same moment, finds nothing). A token that is
 * unknown, expired, used, of another company or named twice is a field error (`documentos.{i}`): the transaction
 * must then be rolled back (the caller throws), which leaves every upload as it was.
 */
export async function takeUploads(
  tx: Database,
  companyId: number,
  tokens: { index: number; token: string }[],
): Promise<{ taken: Map<number, StoredDocument>; errors: FieldError[] }> {
  const taken = new Map<number, StoredDocument>();
  if (tokens.length === 0) return { taken, errors: [] };
  const rows = await tx
    .delete(refundUploads)
    .where(
      and(
        inArray(
          refundUploads.tokenHash,
          tokens.map(({ token }) => hashToken(token)),
        ),
        eq(refundUploads.companyId, companyId),
        gt(refundUploads.expiresAt, sql`now()`),
      ),
    )
    .returning();
  const byHash = new Map(rows.map((row) => [row.tokenHash, row]));
  const errors: FieldError[] = [];
  for (const { index, token } of tokens) {
    const hash = hashToken(token);
    const row = byHash.get(hash);
    if (!row) {
      errors.push({ field: `documentos.${index}`, code: 'invalid_format', message: refundMessages.uploadUnknown });
      continue;
    }
    // Named twice in one claim: the second is as unknown as a used one.
    byHash.delete(hash);
    taken.set(index, {
      storageKey: row.storageKey,
      fileName: row.fileName,
      contentType: row.contentType,
      size: row.size,
    });
  }
  return { taken, errors };
}

/**
 * Deletes the uploads that were not claimed in time, with their bytes (a few at a time; run with every new upload).
 * The row goes first: a document whose bytes could not be deleted is only an orphan in the store, never a token that
 * names missing bytes.
 */
export async function sweepExpiredUploads(db: Database, store: DocumentStore, limit = 20): Promise<number> {
  const expired = await db
    .select({ id: refundUploads.id })
    .from(refundUploads)
    .where(lte(refundUploads.expiresAt, sql`now()`))
    .limit(limit);
  if (expired.length === 0) return 0;
  const rows = await db
    .delete(refundUploads)
    .where(
      and(
        inArray(
          refundUploads.id,
          expired.map((row) => row.id),
        ),
        lte(refundUploads.expiresAt, sql`now()`),
      ),
    )
    .returning({ storageKey: refundUploads.storageKey });
  await Promise.allSettled(rows.map((row) => store.delete(row.storageKey)));
  return rows.length;
}

/** Deletes documents stored for a request that then failed (best effort: an orphan object harms nobody). */
export async function discardDocuments(store: DocumentStore, documents: { storageKey: string }[]) {
  await Promise.allSettled(documents.map((document) => store.delete(document.storageKey)));
}

/** Deletes the uploads these tokens name that no claim took (the page's post whose claim was refused). */
export async function discardUploads(db: Database, store: DocumentStore, tokens: string[]) {
  if (tokens.length === 0) return;
  const rows = await db
    .delete(refundUploads)
    .where(inArray(refundUploads.tokenHash, tokens.map(hashToken)))
    .returning({ storageKey: refundUploads.storageKey });
  await discardDocuments(store, rows);
}

// ─── Caps on uploads in flight ─────────────────────────────────────────────────────────────────────────────────────

/**
 * How many uploads this process receives at once, in all and per client (the address the rate limits count by,
 * `request.ip`). Over either cap the upload is refused before its body is read: 503 when the store is busy, 429 when
 * this client already has its share in flight, both with Retry-After.
 */
export class UploadGate {
  private inFlight = 0;
  private readonly byClient = new Map<string, number>();

  constructor(
    private readonly maxInFlight: number,
    private readonly maxPerClient: number,
  ) {}

  /** A place for this client's upload, released by calling the answer; or the refusal. */
  enter(client: string): (() => void) | { status: 429 | 503; message: string } {
    if (this.inFlight >= this.maxInFlight) return { status: 503, message: refundMessages.uploadsBusy };
    const mine = this.byClient.get(client) ?? 0;
    if (mine >= this.maxPerClient) return { status: 429, message: refundMessages.uploadsBusyForClient };
    this.inFlight += 1;
    this.byClient.set(client, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight -= 1;
      const left = (this.byClient.get(client) ?? 1) - 1;
      if (left <= 0) this.byClient.delete(client);
      else this.byClient.set(client, left);
    };
  }

  get current() {
    return this.inFlight;
  }
}

/**
 * An onRequest hook for a route that receives uploads: the caps (the place is given back when the answer is done
 * or the visitor leaves), and a body larger than any upload refused before it is read. Refusals are ApiErrors (the
 * §8 body); `refused` lets a page answer its own way.
 */
export function uploadAdmission(
  gate: UploadGate,
  refused?: (request: FastifyRequest, reply: FastifyReply, refusal: { status: number; message: string }) => unknown,
) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > maxUploadRequestBytes) {
      // The visitor would send it all for nothing: the connection is closed after this answer.
      reply.header('connection', 'close');
      const message = refundMessages.uploadTooLarge;
      if (refused) return refused(request, reply, { status: 413, message });
      throw new ApiError(413, errorMessages.unexpected, [{ field: 'documentos', code: 'file_too_large', message }]);
    }
    const place = gate.enter(request.ip);
    if (typeof place !== 'function') {
      reply.header('retry-after', String(retryAfterSeconds));
      if (refused) return refused(request, reply, place);
      throw new ApiError(
        place.status,
        place.status === 429 ? errorMessages.tooManyRequests : errorMessages.unexpected,
        [{ field: 'documentos', code: 'invalid', message: place.message }],
        retryAfterSeconds,
      );
    }
    reply.raw.once('close', place);
    request.raw.once('close', () => {
      // A visitor gone before the answer frees the place too (the answer's 'close' may never come).
      if (!request.raw.complete) place();
    });
    countBody(request);
  };
}

/** A body without Content-Length (chunked) is counted as it arrives and cut past the largest upload. */
function countBody(request: FastifyRequest) {
  if (request.headers['content-length'] !== undefined) return;
  let received = 0;
  request.raw.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > maxUploadRequestBytes) request.raw.destroy(new Error('upload larger than allowed'));
  });
}

/** Whether the request says its body is a multipart form (readable before the body is: onRequest). */
export const isMultipartPost = (request: FastifyRequest) =>
  /^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '');

// ─── Multipart ─────────────────────────────────────────────────────────────────────────────────────────────────────

export type ReceivedMultipart = {
  documents: StoredDocument[];
  errors: FieldError[];
  /** The text fields, when asked for (the page's form): each name with its values in order. */
  fields: Map<string, string[]>;
  /** Files chosen (non-empty file parts of the field), whether accepted or not. */
  fileCount: number;
};

/** Reads a file part to its end without keeping anything (the parser skips what is past its limit by itself). */
async function drain(stream: Readable) {
  stream.resume();
  if (stream.readableEnded || stream.destroyed) return;
  await new Promise<void>((resolve) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
    stream.once('error', () => resolve());
  });
}

/**
 * Receives a multipart post: each file of `fileField` streamed into the store (checked as it passes), other files
 * skipped, text fields collected when `collectFields`. Every problem with a file is a field error
 * (`documentos.{i}`) and the other files are still read, so the visitor hears of each. When any file was refused,
 * the accepted ones are deleted again: an upload is all its files or none.
 */
export async function receiveMultipart(
  request: FastifyRequest,
  store: DocumentStore,
  { fileField = 'documentos', collectFields = false }: { fileField?: string; collectFields?: boolean } = {},
): Promise<ReceivedMultipart> {
  const documents: StoredDocument[] = [];
  const errors: FieldError[] = [];
  const fields = new Map<string, string[]>();
  let fileCount = 0;
  try {
    for await (const part of request.parts({ limits: multipartLimits })) {
      if (part.type === 'field') {
        if (collectFields && typeof part.value === 'string') {
          fields.set(part.fieldname, [...(fields.get(part.fieldname) ?? []), part.value]);
        }
        continue;
      }
      // An empty file input sends a part without a name and without bytes.
      if (part.fieldname !== fileField || part.filename === '') {
        await drain(part.file);
        continue;
      }
      const index = fileCount;
      fileCount += 1;
      if (index >= refundLimits.maxFiles) {
        if (index === refundLimits.maxFiles) {
          errors.push({ field: fileField, code: 'too_many', message: refundMessages.tooManyFiles });
        }
        await drain(part.file);
        continue;
      }
      try {
        const stored = await storeDocument(store, part.file, part.filename, (check) => {
          part.file.once('limit', () => check.tooLarge());
        });
        documents.push(stored);
      } catch (error) {
        await drain(part.file);
        if (!(error instanceof DocumentProblem)) throw error;
        errors.push({ field: `${fileField}.${index}`, ...error.rule });
      }
    }
  } catch (error) {
    await discardDocuments(store, documents);
    throw multipartError(error);
  }
  if (errors.length > 0) {
    await discardDocuments(store, documents);
    return { documents: [], errors, fields, fileCount };
  }
  return { documents, errors, fields, fileCount };
}

/** The parser's own refusals as §8 answers; anything else (the visitor gone, the store failing) as it is. */
function multipartError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'FST_FILES_LIMIT') {
    return new ApiError(400, errorMessages.invalidInputParameters, [
      { field: 'documentos', code: 'too_many', message: refundMessages.tooManyFiles },
    ]);
  }
  if (
    typeof code === 'string' &&
    [
      'FST_PARTS_LIMIT',
      'FST_FIELDS_LIMIT',
      'FST_PROTO_VIOLATION',
      'FST_INVALID_MULTIPART_CONTENT_TYPE',
      'FST_INVALID_JSON_FIELD_ERROR',
      'FST_MP_PREMATURE_CLOSE',
    ].includes(code)
  ) {
    return new ApiError(400, errorMessages.invalidInputParameters, [
      { field: 'body', code: 'invalid_body', message: 'El formulario no se pudo leer' },
    ]);
  }
  // Busboy's own parse errors carry no code: a truncated body, a malformed part, a content type without its boundary.
  if (
    error instanceof Error &&
    /Unexpected end of (multipart|form)|Malformed|^Multipart: |Boundary not found/i.test(error.message)
  ) {
    return new ApiError(400, errorMessages.invalidInputParameters, [
      { field: 'body', code: 'invalid_body', message: 'El formulario no se pudo leer' },
    ]);
  }
  return error;
}
