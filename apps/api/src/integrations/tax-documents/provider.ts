/**
 * One interface, one implementation per tax-document provider (like integrations/payments): issues an electronic
 * tax document (DTE) for a payment or a credit note for a refund, asks its state, fetches its PDF and XML.
 * Every issue carries an idempotency key (the document's source key): asked twice, the provider answers the same
 * document instead of issuing a second one.
 */

export type DteType = 39 | 41 | 33 | 34 | 61;

export type Receiver = {
  /** RUT as 12345678-5; a boleta to a consumer uses the SII's generic 66666666-6. */
  rut: string;
  name: string;
  giro?: string | undefined;
  address?: string | undefined;
  commune?: string | undefined;
};

export type IssueDocument = {
  /** Idempotency key: the same key never yields two documents. */
  key: string;
  type: DteType;
  /** Issue date, YYYY-MM-DD (Chile's calendar). */
  date: string;
  receiver: Receiver;
  item: string;
  /**
   * The detail lines when there are several (the plan and each add-on kind, issue 27 §1), adding up to the
   * document's amounts exactly; absent: one line, `item`, of the whole document.
   */
  lines?: { name: string; netClp: number; ivaClp: number; exemptClp: number; totalClp: number }[] | undefined;
  netClp: number;
  ivaClp: number;
  exemptClp: number;
  totalClp: number;
  /**
   * For a credit note (61): the document it corrects, and whether it gives back all of it (the SII's CodRef 1,
   * «anula») or part of it (CodRef 3, «corrige montos»: a cheaper date change, what is left after one).
   */
  corrects?: { type: DteType; folio: number; date: string; reason: string; whole: boolean } | undefined;
};

export type IssuedDocument = { providerId: string; folio: number; pdf: Uint8Array; xml: Uint8Array };

/** The provider refused the document (folios exhausted, invalid RUT…): retrying the same request will not help. */
export class TaxDocumentRefused extends Error {
  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message);
    this.name = 'TaxDocumentRefused';
  }
}

export interface TaxDocumentProvider {
  id: 'local' | 'openfactura';
  /** Documents without tax value (the local adapter): their PDFs say so on every page. */
  testMode: boolean;
  /** Issues a document, or answers the one already issued under `doc.key`. Throws TaxDocumentRefused on a refusal. */
  issue(doc: IssueDocument): Promise<IssuedDocument>;
  /** The document issued under a key, if any (a retry after a crash asks before issuing again). */
  find(key: string): Promise<IssuedDocument | null>;
}
