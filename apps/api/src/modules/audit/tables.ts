import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The audit trail (issue 24): one row per operator action, sign-in, failure, lockout and factor change. Append-only:
 * a trigger raises on UPDATE, DELETE and TRUNCATE (migration 0022), and production revokes those privileges from the
 * application's database role (docs/operations.md «Operator console»). Only the audit module writes it.
 */
export const auditEntries = pgTable(
  'audit_entries',
  {
    /** Increasing: the keyset of the search's pagination. */
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** Who: an operator, an API key, or neither (a failed sign-in of an unknown account, the CLI). */
    actorOperatorId: uuid('actor_operator_id'),
    actorApiKeyId: uuid('actor_api_key_id'),
    /** The actor as shown (the operator's e-mail, the key's name, `cli`), kept as it was then. */
    actorLabel: text('actor_label').notNull(),
    ip: text('ip'),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [
    index('audit_entries_actor').on(t.actorOperatorId, t.id),
    index('audit_entries_action').on(t.action, t.id),
    index('audit_entries_at').on(t.at),
  ],
);
