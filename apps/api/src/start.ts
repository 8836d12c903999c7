import { startTracing } from './observability/tracing.ts';
import { startEnvironment } from './start-mode.ts';

// `npm start`: React's production build for the server-rendered pages, with the deployment the operator chose
// (start-mode.ts). Set before the server is loaded, since React picks its build when it is first imported.
Object.assign(process.env, startEnvironment(process.env));
// Off unless OTEL_* variables ask for it; started before the server's modules load, so they are instrumented.
await startTracing('travesia');
await import('./server.ts');
