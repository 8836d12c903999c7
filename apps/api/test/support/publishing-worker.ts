import { createBackgroundWork } from '#app/worker.ts';
import { publishingKindsOf } from '#app/workflows/publishing.ts';
import type { TestContext } from './harness.ts';

/** A worker process's background work on the test app's database, with every publishing kind (scheduled publications). */
export const publishingWorker = (ctx: TestContext) =>
  createBackgroundWork({
    db: ctx.app.db,
    integrations: ctx.app.integrations,
    log: ctx.app.log,
    nudges: false,
    origin: 'http://localhost',
    publishing: {
      kinds: publishingKindsOf(ctx.config.companyId, ctx.config.features),
      invalidate: (scope) => ctx.app.invalidateReadCache(scope),
    },
  });
