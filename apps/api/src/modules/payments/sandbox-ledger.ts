import * as repository from './repository.ts';

export type SandboxTransaction = NonNullable<Awaited<ReturnType<typeof repository.findSandboxTransaction>>>;

/**
 * The built-in test gateway's ledger: integrations/payments/sandbox.ts keeps its transactions in this module's
 * table, and receives this object when the integrations are created (so the gateway never imports the module).
 */
export const sandboxLedger = {
  insert: repository.insertSandboxTransaction,
  find: repository.findSandboxTransaction,
  commit: repository.commitSandboxTransaction,
  refund: repository.refundSandboxTransaction,
};

export type SandboxLedger = typeof sandboxLedger;
