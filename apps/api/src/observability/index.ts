import type { FastifyInstance } from 'fastify';
import { registerMetrics } from './metrics.ts';
import { registerRequestIds } from './request-id.ts';

export { requestIdOf, withRequestId } from './request-id.ts';

/** Request ids on every answer and log line, and GET /api/metrics: after `db` and `config` are decorated. */
export function registerObservability(app: FastifyInstance): void {
  registerRequestIds(app);
  registerMetrics(app);
}
