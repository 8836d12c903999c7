import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { documentKinds, type RefundStatus, refundStatuses, refundStatusList } from '@travesia/domain/refunds';
import { pino } from 'pino';
import { type Config, loadConfig } from './config.ts';
import type { Database } from './db/client.ts';
import { ApiError } from './errors.ts';
import { createIntegrations } from './integrations/index.ts';
import { configuredOrigin } from './lib/origins.ts';
import { changeStatus, refundDocuments } from './modules/refunds/service.ts';
import { openMigratedDatabase } from './startup.ts';
import { createBackgroundWork } from './worker.ts';

const usage = `Usage:
  npm run refunds -- status <number> <status> [--amount N] [--reason "..."] [--missing "..."]
  npm run refunds -- files <number> <folder>

Statuses: ${refundStatusList.join(', ')}
  aprobada needs --amount (in the request's currency), rechazada --reason, faltan_documentos --missing.
Works on the database the server uses (DATABASE_URL, else the embedded one in DATA_DIR: stop the server first, or
use the admin API). The holder's e-mail is queued with the change and sent at once from here.`;

/**
 * The name a stored document is written under: `{n}-{stem}.{extension of its stored content type}`, whatever the
 * stored name's own extension (a PDF stored as `boleta.bat` before names were checked is written `1-boleta.pdf`).
 * `basename` drops any folder part (`../../x.pdf`), so nothing is written outside the chosen folder.
 */
export function exportName(position: number, storedName: string, contentType: string): string {
  const kind = Object.values(documentKinds).find((k) => k.mime === contentType);
  const base = basename(storedName.replace(/\\/g, '/'));
  const stem = base.replace(/\.[^.]*$/, '').replace(/^\.+/, '') || 'documento';
  return `${position}-${stem}.${kind?.extensions[0] ?? 'bin'}`;
}

/**
 * The operator's command for refund requests until there is a back office: change a request's status (checked
 * transitions, the holder e-mailed) or export its documents. Exit code 0 on success, 1 with a line in words otherwise.
 */
export async function runRefundsCli(argv: string[], opened?: { db: Database; config: Config }): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { amount: { type: 'string' }, reason: { type: 'string' }, missing: { type: 'string' } },
  });
  const [command, number, third] = positionals;
  if (!command || !number || !third || !['status', 'files'].includes(command)) {
    console.error(usage);
    return 1;
  }
  const config = opened?.config ?? loadConfig();
  const log = pino({ level: 'warn' });
  const database = opened
    ? { db: opened.db, close: async () => {} }
    : await openMigratedDatabase(config, { log: () => log });
  try {
    if (command === 'files') {
      const files = await refundDocuments(database.db, number);
      await mkdir(third, { recursive: true });
      for (const [index, file] of files.entries()) {
        const path = join(third, exportName(index + 1, file.fileName, file.contentType));
        await writeFile(path, file.content);
        console.log(`${path} (${file.contentType}, ${file.content.length} bytes)`);
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
    const work = createBackgroundWork({
      db: database.db,
      integrations: createIntegrations(config, database.db),
      log,
      nudges: false,
      origin: configuredOrigin(config),
      refundMail: { publicUrl: config.publicUrl, notifyEmail: config.refunds.notifyEmail },
    });
    await work.runJobs();
    await work.close();
    console.log(`${result.number}: ${refundStatuses[result.from]} → ${refundStatuses[result.to]}; holder e-mailed`);
    return 0;
  } catch (error) {
    if (error instanceof ApiError) {
      const reasons = error.fieldErrors.map((e) => e.message).join('; ');
      console.error(`Error: ${error.status === 404 ? `No refund request ${number}` : reasons || error.detail}`);
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
      console.error(`Error: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
