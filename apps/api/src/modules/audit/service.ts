import { and, desc, eq, gte, lt, lte, or, type SQL } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { auditEntries } from './tables.ts';

/** Who did something: an operator (by session), an API key, or neither (an unknown account's sign-in, the CLI). */
export type AuditActor = {
  operatorId?: string | null;
  apiKeyId?: string | null;
  /** As shown in the trail: the operator's e-mail, the key's name, `cli`, or the e-mail tried at sign-in. */
  label: string;
  ip: string | null;
};

export type AuditRecord = {
  action: string;
  targetType?: string | null;
  targetId?: string | null;
  before?: unknown;
  after?: unknown;
};

export type AuditEntry = typeof auditEntries.$inferSelect;

/**
 * Who read a person's data (a sale's page, a claim, a claim's document): one row per look, the target only, so a
 * curious operator or a stolen key leaves a trail (ASVS V7; Ley 21.719 asks who accessed what). `action` names it,
 * e.g. `sale.viewed`.
 */
export function recordView(
  db: Database,
  actor: AuditActor,
  action: string,
  target: { type: string; id: string },
  at: Date,
) {
  return recordAudit(db, actor, { action, targetType: target.type, targetId: target.id }, at);
}

/**
 * Appends one row to the audit trail. Pass the transaction of the change it records: the row exists exactly when the
 * change does. The table refuses UPDATE and DELETE (a trigger), so nothing written here can be changed afterwards.
 */
export async function recordAudit(db: Database, actor: AuditActor, record: AuditRecord, at: Date): Promise<void> {
  await db.insert(auditEntries).values({
    at,
    actorOperatorId: actor.operatorId ?? null,
    actorApiKeyId: actor.apiKeyId ?? null,
    actorLabel: actor.label,
    ip: actor.ip,
    action: record.action,
    targetType: record.targetType ?? null,
    targetId: record.targetId ?? null,
    before: record.before ?? null,
    after: record.after ?? null,
  });
}

export type AuditFilter = {
  /** An operator or API key id, or the label (e-mail) as recorded. */
  actor?: string;
  action?: string;
  from?: Date;
  to?: Date;
  /** The id of the last entry of the previous page: entries older than it. */
  before?: number;
};

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The newest entries first, `limit` at most, matching every given filter (keyset pagination on the id). */
export async function searchAudit(db: Database, filter: AuditFilter, limit: number): Promise<AuditEntry[]> {
  const conditions: SQL[] = [];
  if (filter.actor) {
    const byLabel = eq(auditEntries.actorLabel, filter.actor);
    conditions.push(
      uuidPattern.test(filter.actor)
        ? (or(eq(auditEntries.actorOperatorId, filter.actor), eq(auditEntries.actorApiKeyId, filter.actor), byLabel) ??
            byLabel)
        : byLabel,
    );
  }
  if (filter.action) conditions.push(eq(auditEntries.action, filter.action));
  if (filter.from) conditions.push(gte(auditEntries.at, filter.from));
  if (filter.to) conditions.push(lte(auditEntries.at, filter.to));
  if (filter.before !== undefined) conditions.push(lt(auditEntries.id, filter.before));
  return db
    .select()
    .from(auditEntries)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(auditEntries.id))
    .limit(limit);
}

const csvColumns = [
  'id',
  'at',
  'actorLabel',
  'actorOperatorId',
  'actorApiKeyId',
  'ip',
  'action',
  'targetType',
  'targetId',
  'before',
  'after',
] as const;

/**
 * One CSV field (RFC 4180): quoted when needed, and a leading =, +, - or @ defused with an apostrophe so that a
 * spreadsheet never runs a value typed by someone (an e-mail tried at sign-in) as a formula.
 */
export function csvField(value: unknown): string {
  let text =
    value === null || value === undefined
      ? ''
      : value instanceof Date
        ? value.toISOString()
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The trail matching `filter` as CSV (header first), read in pages so a long trail never sits in memory at once. */
export async function* auditCsv(db: Database, filter: Omit<AuditFilter, 'before'>): AsyncGenerator<string> {
  yield `${csvColumns.join(',')}\r\n`;
  let before: number | undefined;
  for (;;) {
    const page = await searchAudit(db, { ...filter, before }, 500);
    if (page.length === 0) return;
    yield page.map((entry) => `${csvColumns.map((column) => csvField(entry[column])).join(',')}\r\n`).join('');
    before = page.at(-1)?.id;
  }
}
