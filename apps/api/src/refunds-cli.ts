import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { parseArgs } from 'node:util';
import { formatClp } from '@travesia/domain/money';
import { documentKinds, type RefundStatus, refundStatuses, refundStatusList } from '@travesia/domain/refunds';
import { visibleText } from '@travesia/domain/visible-text';
import { CliApiError, type ConsoleApi, consoleApi, defaultApiUrl, reportingRefusals } from './cli-client.ts';
import { printable } from './lib/security/terminal-text.ts';
import {
  type SaleRefundReason,
  saleRefundReasons,
  stuckAfterAttempts,
  transferReferenceMaxLength,
} from './modules/payments/sale-refunds.ts';

const usage = `Usage:
  npm run refunds -- status <number> <status> [--amount N] [--reason "..."] [--missing "..."]
  npm run refunds -- files <number> <folder>
  npm run refunds -- sale-refunds [--min-attempts N] [--reason withdrawal|date_change] [--sale N]
  npm run refunds -- sale-refund-hold <id> [--reason "..."]
  npm run refunds -- sale-refund-transferred <id> --reference "..."
  npm run refunds -- sale-refund-release <id>

A client of the console API: TRAVESIA_API_URL (default ${defaultApiUrl}) and TRAVESIA_API_KEY, an API key (tvk_…)
made in the console («Claves API»): role finance or admin for sale refunds, support or admin for claims. Each
action is done, and audited, as that key (--by is no longer used).
Statuses: ${refundStatusList.join(', ')}
  aprobada needs --amount (in the request's currency), rechazada --reason, faltan_documentos --missing.
sale-refunds lists the sale refunds (withdrawals, cheaper date changes) the gateway has not made: pending with more
  than --min-attempts attempts (default ${stuckAfterAttempts}) or a last error.
  «retenido» marks the ones held for a transfer.
sale-refund-hold holds one BEFORE you transfer (--reason, why; default «${defaultHoldReason()}»): it asks the
  gateway first (if the gateway already gave the money back, it is recorded as such and there is nothing to
  transfer), then stops the payment sweeper from retrying it. Transfer only once it says «held».
sale-refund-transferred records, after the transfer, that a held one was given back by bank transfer (--reference,
  up to ${transferReferenceMaxLength} characters): refunded by hand, its withdrawal completed, the buyer e-mailed.
  A refund not held first is refused.
sale-refund-release puts a held one you will NOT transfer back in the payment sweeper's queue, due now.
The holder's e-mails are sent by the server's worker.`;

function defaultHoldReason() {
  return 'Retenido desde la CLI para devolverlo por transferencia';
}

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

type StuckFilter = { minAttempts: number; reason?: SaleRefundReason; saleId?: number };

type SaleRefundCommand =
  | { command: 'sale-refunds'; filter: StuckFilter }
  | { command: 'sale-refund-hold'; id: number; reason: string }
  | { command: 'sale-refund-release'; id: number }
  | { command: 'sale-refund-transferred'; id: number; reference: string };

/** The sale-refund subcommands' arguments, checked; a string says what is wrong; undefined for other commands. */
function saleRefundArguments(
  command: string | undefined,
  id: string | undefined,
  values: { reason?: string; 'min-attempts'?: string; sale?: string; reference?: string },
): SaleRefundCommand | string | undefined {
  const positiveId = (text: string | undefined) =>
    text && /^\d{1,10}$/.test(text) && Number(text) > 0 && Number(text) <= 2_147_483_647 ? Number(text) : undefined;
  const which = 'Which sale refund? Its number (#id, as sale-refunds lists it)';
  if (command === 'sale-refunds') {
    const minAttempts = values['min-attempts'] ?? String(stuckAfterAttempts);
    if (!/^\d{1,7}$/.test(minAttempts)) return `--min-attempts must be a whole number, not «${minAttempts}»`;
    const reason = values.reason as SaleRefundReason | undefined;
    if (reason !== undefined && !saleRefundReasons.includes(reason)) return `Unknown reason «${values.reason}»`;
    const saleId = values.sale === undefined ? undefined : positiveId(values.sale);
    if (values.sale !== undefined && saleId === undefined) return `--sale must be a sale number, not «${values.sale}»`;
    return {
      command,
      filter: { minAttempts: Number(minAttempts), ...(reason ? { reason } : {}), ...(saleId ? { saleId } : {}) },
    };
  }
  if (command === 'sale-refund-release') {
    const refundId = positiveId(id);
    return refundId === undefined ? which : { command, id: refundId };
  }
  if (command === 'sale-refund-hold') {
    const refundId = positiveId(id);
    if (refundId === undefined) return which;
    return { command, id: refundId, reason: values.reason?.trim() || defaultHoldReason() };
  }
  if (command === 'sale-refund-transferred') {
    const refundId = positiveId(id);
    if (refundId === undefined) return which;
    const reference = values.reference?.trim() ?? '';
    if (!reference) return "--reference is required: the bank transfer's reference";
    if (reference.length > transferReferenceMaxLength) {
      return `--reference is at most ${transferReferenceMaxLength} characters`;
    }
    return { command, id: refundId, reference };
  }
  return undefined;
}

/** A sale refund as the console API answers it (payments/console-routes.ts). */
type ConsoleSaleRefund = {
  id: number;
  saleId: number;
  gateway: string;
  buyOrder: string;
  reason: string;
  amountClp: number;
  state: 'pending' | 'failing' | 'held' | 'transferred' | 'refunded';
  attempts: number;
  lastError: string | null;
  createdAt: string;
  method: 'gateway' | 'manual' | null;
  transferReference: string | null;
  heldAt: string | null;
  heldBy: string | null;
  version: number;
};
type SaleRefundPage = { refunds: ConsoleSaleRefund[]; nextCursor: string | null };

/** The most `sale-refunds` lists (as before it went through the API). */
const listLimit = 500;

/** Sale refund `id` as the console API has it now (with its version): the first of the page after `id - 1`. */
async function saleRefundOf(api: ConsoleApi, id: number): Promise<ConsoleSaleRefund> {
  const cursor = id > 1 ? `&cursor=${id - 1}` : '';
  const { refunds } = await api.json<SaleRefundPage>('GET', `/sale-refunds?state=all${cursor}`);
  const refund = refunds[0];
  if (refund?.id !== id) throw new CliApiError(404, `No sale refund #${id}`);
  return refund;
}

/** The open ones (not refunded) the gateway has not made: more attempts than the filter's, or a last error. */
async function stuckSaleRefunds(api: ConsoleApi, filter: StuckFilter): Promise<ConsoleSaleRefund[]> {
  const stuck: ConsoleSaleRefund[] = [];
  let cursor: string | null = null;
  do {
    const page: SaleRefundPage = await api.json('GET', `/sale-refunds?state=open${cursor ? `&cursor=${cursor}` : ''}`);
    for (const refund of page.refunds) {
      if (refund.attempts <= filter.minAttempts && refund.lastError === null) continue;
      if (filter.reason && refund.reason !== filter.reason) continue;
      if (filter.saleId && refund.saleId !== filter.saleId) continue;
      stuck.push(refund);
    }
    cursor = page.nextCursor;
  } while (cursor && stuck.length < listLimit);
  return stuck.slice(0, listLimit);
}

const refunded = (refund: ConsoleSaleRefund) => refund.state === 'refunded' || refund.state === 'transferred';
const alreadyRefunded = (refund: ConsoleSaleRefund) =>
  `#${refund.id}: already refunded (${refund.method ?? 'gateway'}${refund.transferReference ? ` ${refund.transferReference}` : ''}); nothing changed`;

async function runSaleRefundCommand(api: ConsoleApi, command: SaleRefundCommand): Promise<number> {
  if (command.command === 'sale-refunds') {
    const stuck = await stuckSaleRefunds(api, command.filter);
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
  const seen = await saleRefundOf(api, command.id);
  const about = `(sale ${seen.saleId}, ${formatClp(seen.amountClp)})`;
  const step = <T>(action: string, body: Record<string, unknown>) =>
    api.json<{ refund: ConsoleSaleRefund } & T>('POST', `/sale-refunds/${seen.id}/${action}`, {
      version: seen.version,
      ...body,
    });
  if (command.command === 'sale-refund-release') {
    if (seen.state !== 'held') {
      console.log(`#${seen.id}: not held (${refunded(seen) ? 'refunded' : 'pending'}); nothing changed`);
      return 0;
    }
    await step('release', {});
    console.log(`#${seen.id}: released; the payment sweeper will try it again now`);
    return 0;
  }
  if (command.command === 'sale-refund-hold') {
    if (refunded(seen) || seen.state === 'held') {
      console.log(
        printable(
          refunded(seen)
            ? `#${seen.id}: already refunded (${seen.method ?? 'gateway'}); nothing to transfer`
            : `#${seen.id}: already held by ${seen.heldBy} ${about}`,
        ),
      );
      return 0;
    }
    const { refund } = await step('hold', { reason: command.reason });
    console.log(
      printable(
        refund.state === 'held'
          ? `#${refund.id}: held ${about}; the sweeper will not retry it. Transfer now, then sale-refund-transferred.`
          : `#${refund.id}: the gateway had already refunded it ${about}; recorded. Do NOT transfer.`,
      ),
    );
    return 0;
  }
  if (refunded(seen)) {
    console.log(printable(alreadyRefunded(seen)));
    return 0;
  }
  const { refund } = await step('transfer', { reference: command.reference });
  console.log(printable(`#${refund.id}: refunded by transfer ${refund.transferReference} ${about}`));
  return 0;
}

/** A claim's page as the console API answers it (claims/console-routes.ts), the parts the CLI uses. */
type ConsoleClaim = {
  number: string;
  version: number;
  status: RefundStatus;
  documents: { id: number; name: string; type: string; size: number; link: { url: string } }[];
};

async function claimOf(api: ConsoleApi, number: string): Promise<ConsoleClaim> {
  try {
    return await api.json<ConsoleClaim>('GET', `/claims/${encodeURIComponent(number)}`);
  } catch (error) {
    if (error instanceof CliApiError && error.status === 404) throw new CliApiError(404, `No refund request ${number}`);
    throw error;
  }
}

/**
 * The operator's command for claims and sale refunds, a client of the console API (TRAVESIA_API_URL,
 * TRAVESIA_API_KEY): change a claim's status (checked transitions, the holder e-mailed) or export its documents, and
 * the sale refunds the gateway cannot make. Exit code 0 on success, 1 with a line in words otherwise.
 */
export async function runRefundsCli(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    return 1;
  }
  const { positionals, values } = parsed;
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
  if (command === 'status' && !refundStatusList.includes(third as RefundStatus)) {
    console.error(`Unknown status «${third}». ${usage}`);
    return 1;
  }
  if (values.by !== undefined) {
    console.error('Note: --by is deprecated and ignored: the action is recorded as the API key (TRAVESIA_API_KEY).');
  }
  return reportingRefusals(async () => {
    const api = consoleApi(env);
    if (saleRefundCommand) return runSaleRefundCommand(api, saleRefundCommand);
    if (!number || !third) throw new Error('unreachable: checked above');
    const claim = await claimOf(api, number);
    if (command === 'files') {
      await mkdir(third, { recursive: true });
      for (const [index, document] of claim.documents.entries()) {
        const response = await api.raw(document.link.url);
        const contentType = (response.headers.get('content-type') ?? document.type).split(';')[0]?.trim() ?? '';
        const path = join(third, exportName(index + 1, document.name, contentType));
        if (!response.body) throw new CliApiError(0, `The API sent no content for ${document.name}`);
        await pipeline(Readable.fromWeb(response.body as WebReadableStream), createWriteStream(path));
        console.log(printable(`${path} (${contentType}, ${document.size} bytes)`));
      }
      return 0;
    }
    const amount = values.amount === undefined ? undefined : Number(values.amount.replace(',', '.'));
    const result = await api.json<{ number: string; status: RefundStatus }>(
      'POST',
      `/claims/${encodeURIComponent(claim.number)}/status`,
      {
        version: claim.version,
        status: third,
        ...(amount === undefined ? {} : { amount }),
        ...(values.reason === undefined ? {} : { reason: values.reason }),
        ...(values.missing === undefined ? {} : { missing: values.missing }),
      },
    );
    console.log(
      `${result.number}: ${refundStatuses[claim.status]} → ${refundStatuses[result.status]}; holder e-mailed`,
    );
    return 0;
  });
}

function parse(args: string[]) {
  return parseArgs({
    args,
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
