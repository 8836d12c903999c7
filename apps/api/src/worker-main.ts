import { startTracing } from './observability/tracing.ts';

// `npm run worker`: the worker alone (worker-process.ts). Tracing is off unless OTEL_* variables ask for it, as for
// the server (start.ts); started before the worker's modules load, so pg and node:http are instrumented.
await startTracing('travesia-worker');
await import('./worker-process.ts');
