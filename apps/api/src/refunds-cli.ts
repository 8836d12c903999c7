import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { formatClp } from '@travesia/domain/money';
import { documentKinds, type RefundStatus, refundStatuses, refundStatusList } from '@travesia/domain/refunds';
import { visibleText } from '@travesia/domain/visible-text';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { ApiError } from './errors.ts';
import { createDocumentStore } from './integrations/document-store/index.ts';
import { createIntegrations } from './integrations/index.ts';
import { configuredOrigin } from './lib/security/origins.ts';
import { printable } from './lib/security/terminal-text.ts';
import { changeStatus, claimDocuments } from './modules/claims/service.ts';
import {
  listStuckSaleRefunds,
  releaseSaleRefund,
  type SaleRefundReason,
  type StuckSaleRefundFilter,
  saleRefundReasons,
  stuckAfterAttempts,
  transferReferenceMaxLength,
} from './modules/payments/sale-refunds.ts';
import { openCliDatabase } from './startup.ts';
import { createBackgroundWork } from './worker.ts';

const usage = `Usage:
  npm run refunds -- status <number> <status> [--amount N] [--reason "..."] [--missing "..."]
  npm run refunds -- files <number> <folder>
  npm run refunds -- sale-refunds [--min-attempts N] [--reason withdrawal|date_change] [--sale N]
  npm run refunds -- sale-refund-hold <id> [--by "..."]
  npm run refunds -- sale-refund-transferred <id> --reference "..." [--by "..."]
  npm run refunds -- sale-refund-release <id>

Statuses: ${refundStatusList.join(', ')}
  aprobada needs --amount (in the request's currency), rechazada --reason, faltan_documentos --missing.
sale-refunds lists the sale refunds (withdrawals, cheaper date changes) the gateway has not made: pending with more
  than --min-attempts attempts (default ${stuckAfterAttempts}) or a last error.
  «retenido» marks the ones held for a transfer.
sale-refund-hold holds one BEFORE you transfer: it asks the gateway first (if the gateway already gave the money
  back, it is recorded as such and there is nothing to transfer), then stops the payment sweeper from retrying it.
  Transfer only once it says «held».
sale-refund-transferred records, after the transfer, that a held one was given back by bank transfer (--reference,
  up to ${transferReferenceMaxLength} characters; --by, who did it): refunded by hand, its withdrawal completed, the
  buyer e-mailed. A refund not held first is refused.
sale-refund-release puts a held one you will NOT transfer back in the payment sweeper's queue, due now.
Works on the database the server uses (DATABASE_URL, else the embedded one in DATA_DIR: stop the server first, or
use the admin API). The holder's e-mail is queued with the change and sent at once from here.`;

/**
 * The name a stored document is written under: `{n}-{stem}.{extension of its stored content type}`, whatever the
 * stored name's own extension (a PDF stored as `boleta.bat` before names were checked is written `1-boleta.pdf`).
 * `basename` drops any folder part (`../../x.pdf`), so nothing is written outside the chosen folder; control and
 * invisible characters (stored before the rules stripped them) are dropped, so no name carries an escape sequence.
 */
export function exportName(position: number, storedName: string, contentType: string): string {
  const kind = Object.values(documentKinds).find((k) => k.mime === contentType);
  const base = basename(visibleText(storedName).replace(/\\/g, '/')).trim();
  const stem = base.replace(/\.[^.]*$/, '').replace(/^\.+/, '') || 'documento';
  return `${position}-${stem}.${kind?.extensions[0] ?? 'bin'}`;
}

type SaleRefundCommand =
  | { command: 'sale-refunds'; filter: StuckSaleRefundFilter }
  | { command: 'sale-refund-hold'; id: number; by: string }
  | { command: 'sale-refund-release'; id: number }
  | { command: 'sale-refund-transferred'; id: number; manual: { reference: string; by: string } };

/** The sale-refund subcommands' arguments, checked; a string says what is wrong; undefined for other commands. */
function saleRefundArguments(
  command: string | undefined,
  id: string | undefined,
  values: { reason?: string; 'min-attempts'?: string; sale?: string; reference?: string; by?: string },
): SaleRefundCommand | string | undefined {
  const positiveId = (text: string | undefined) =>
    text && /^\d{1,10}$/.test(text) && Number(text) > 0 && Number(text) <= 2_147_483_647 ? Number(text) : undefined;
  if (command === 'sale-refunds') {
    const minAttempts = values['min-attempts'] ?? String(stuckAfterAttempts);
    if (!/^\d{1,7}$/.test(minAttempts)) return `--min-attempts must be a whole number, not «${minAttempts}»`;
    const reason = values.reason as SaleRefundReason | undefined;
    if (reason !== undefined && !saleRefundReasons.includes(reason)) return `Unknown reason «${values.reason}»`;
    const saleId = values.sale === undefined ? undefined : positiveId(values.sale);
    if (values.sale !== undefined && saleId === undefined) return `--sale must be a sale number, not «${values.sale}»`;
    return {
      command,
      filter: {
        minAttempts: Number(minAttempts),
        limit: 500,
        ...(reason ? { reason } : {}),
        ...(saleId ? { saleId } : {}),
      },
    };
  }
  if (command === 'sale-refund-release') {
    const refundId = positiveId(id);
    if (refundId === undefined) return 'Which sale refund? Its number (#id, as sale-refunds lists it)';
    return { command, id: refundId };
  }
  if (command === 'sale-refund-hold') {
    const refundId = positiveId(id);
    if (refundId === undefined) return 'Which sale refund? Its number (#id, as sale-refunds lists it)';
    return { command, id: refundId, by: values.by?.trim().slice(0, 100) || `CLI (${userInfo().username})` };
  }
  if (command === 'sale-refund-transferred') {
    const refundId = positiveId(id);
    if (refundId === undefined) return 'Which sale refund? Its number (#id, as sale-refunds lists it)';
    const reference = values.reference?.trim() ?? '';
    if (!reference) return "--reference is required: the bank transfer's reference";
    if (reference.length > transferReferenceMaxLength) {
      return `--reference is at most ${transferReferenceMaxLength} characters`;
    }
    const by = values.by?.trim().slice(0, 100) || `CLI (${userInfo().username})`;
    return { command, id: refundId, manual: { reference, by } };
  }
  return undefined;
}

/**
 * The operator's command for refund requests until there is a back office: change a request's status (checked
 * transitions, the holder e-mailed) or export its documents. Exit code 0 on success, 1 with a line in words otherwise.
 */
export async function runRefundsCli(argv: string[], opened?: { db: Database; config: Config }): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      amount: { type: 'string' },
      reason: { type: 'string' },
      missing: { type: 'string' },
      'min-attempts': { type: 'string' },
      sale: { type: 'string' },
      reference: { type: 'string' },
      by: { type: 'string' },
    },
  });
  const [command, number, third] = positionals;
  const saleRefundCommand = saleRefundArguments(command, number, values);
  if (typeof saleRefundCommand === 'string') {
    console.error(`${saleRefundCommand}\n${usage}`);
    return 1;
  }
  if (!saleRefundCommand && (!command || !number || !third || !['status', 'files'].includes(command))) {
    console.error(usage);
    return 1;
  }
  const { config, log, database } = await openCliDatabase(opened);
  const backgroundWork = () =>
    createBackgroundWork({
      db: database.db,
      integrations: createIntegrations(config, database.db),
      log,
      nudges: false,
      origin: configuredOrigin(config),
      refundMail: {
        publicUrl: config.publicUrl,
        notifyEmail: config.refunds.notifyEmail,
        consoleUrl: config.backoffice.origin ?? config.publicUrl,
      },
      purchases: config.purchases,
    });
  try {
    if (saleRefundCommand?.command === 'sale-refunds') {
      const stuck = await listStuckSaleRefunds(database.db, saleRefundCommand.filter);
      for (const refund of stuck) {
        console.log(
          printable(
            `#${refund.id} venta ${refund.saleId} ${refund.reason} ${formatClp(refund.amountClp)} ${refund.gateway} ` +
              `${refund.buyOrder} intentos ${refund.attempts} desde ${refund.createdAt}` +
              `${refund.heldAt ? ` retenido por ${refund.heldBy} ${refund.heldAt}` : ''}: ${refund.lastError ?? '-'}`,
          ),
        );
      }
      console.log(`${stuck.length} sale refund(s) to give back by hand`);
      return 0;
    }
    if (saleRefundCommand?.command === 'sale-refund-release') {
      const { refund, changed } = await releaseSaleRefund({ db: database.db }, saleRefundCommand.id);
      console.log(
        changed
          ? `#${refund.id}: released; the payment sweeper will try it again now`
          : `#${refund.id}: not held (${refund.status}); nothing changed`,
      );
      return 0;
    }
    if (saleRefundCommand?.command === 'sale-refund-hold') {
      const work = backgroundWork();
      const { refund, outcome } = await work.holdRefund(saleRefundCommand.id, saleRefundCommand.by);
      await work.runJobs();
      await work.close();
      const about = `(sale ${refund.saleId}, ${formatClp(refund.amountClp)})`;
      console.log(
        printable(
          outcome === 'held'
            ? `#${refund.id}: held ${about}; the sweeper will not retry it. Transfer now, then sale-refund-transferred.`
            : outcome === 'refunded'
              ? `#${refund.id}: the gateway had already refunded it ${about}; recorded. Do NOT transfer.`
              : refund.status === 'refunded'
                ? `#${refund.id}: already refunded (${refund.method ?? 'gateway'}); nothing to transfer`
                : `#${refund.id}: already held by ${refund.heldBy} ${about}`,
        ),
      );
      return 0;
    }
    if (saleRefundCommand?.command === 'sale-refund-transferred') {
      const work = backgroundWork();
      const { refund, changed } = await work.refundByHand(saleRefundCommand.id, saleRefundCommand.manual);
      await work.runJobs();
      await work.close();
      console.log(
        printable(
          changed
            ? `#${refund.id}: refunded by transfer ${refund.transferReference} (sale ${refund.saleId}, ${formatClp(refund.amountClp)})`
            : `#${refund.id}: already refunded (${refund.method ?? 'gateway'}${refund.transferReference ? ` ${refund.transferReference}` : ''}); nothing changed`,
        ),
      );
      return 0;
    }
    if (!command || !number || !third) throw new Error('unreachable: checked above');
    if (command === 'files') {
      // The bytes come from the document store (DOCUMENT_STORE), streamed to each file.
      const files = await claimDocuments(database.db, createDocumentStore(config.documents), number);
      await mkdir(third, { recursive: true });
      for (const [index, file] of files.entries()) {
        const path = join(third, exportName(index + 1, file.fileName, file.contentType));
        await pipeline(await file.open(), createWriteStream(path));
        console.log(printable(`${path} (${file.contentType}, ${file.size} bytes)`));
      }
      return 0;
    }
    if (!refundStatusList.includes(third as RefundStatus)) {
      console.error(`Unknown status «${third}». ${usage}`);
      return 1;
    }
    const amount = values.amount === undefined ? undefined : Number(values.amount.replace(',', '.'));
    const result = await changeStatus(database.db, number, {
      status: third as RefundStatus,
      ...(amount === undefined ? {} : { amount }),
      ...(values.reason === undefined ? {} : { reason: values.reason }),
      ...(values.missing === undefined ? {} : { missing: values.missing }),
    });
    const work = backgroundWork();
    await work.runJobs();
    await work.close();
    console.log(`${result.number}: ${refundStatuses[result.from]} → ${refundStatuses[result.to]}; holder e-mailed`);
    return 0;
  } catch (error) {
    if (error instanceof ApiError) {
      const reasons = error.fieldErrors.map((e) => e.message).join('; ');
      const missing = saleRefundCommand ? `No sale refund #${number}` : `No refund request ${number}`;
      console.error(printable(`Error: ${error.status === 404 ? missing : reasons || error.detail}`));
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

if (process.argv[1] && /refunds-cli\.(ts|js)$/.test(process.argv[1])) {
  runRefundsCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(printable(`Error: ${error instanceof Error ? error.message : String(error)}`));
      process.exit(1);
    },
  );
}
