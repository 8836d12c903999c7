import { loadTracingConfig } from '#app/config.ts';

type Started = { shutdown(): Promise<void> };

let started: Started | undefined;

/**
 * OpenTelemetry tracing, when the OTEL_* variables ask for it (config.ts loadTracingConfig; docs/operations.md):
 * the Node SDK with the http, Fastify and pg instrumentations, exporting as the standard variables say (OTLP over
 * HTTP by default). Off by default, and then nothing of OpenTelemetry's SDK is loaded: every module is imported
 * here, only when enabled. Called before the server's modules are imported (start.ts), so the instrumentations see
 * node:http and pg as they load; resolves with whether tracing runs. A bad OTEL_* value is left to loadConfig, which
 * stops the start with its one-line message.
 */
export async function startTracing(defaultServiceName: string, source = process.env): Promise<boolean> {
  if (started) return true;
  let settings: ReturnType<typeof loadTracingConfig>;
  try {
    settings = loadTracingConfig(source);
  } catch {
    return false;
  }
  if (!settings.enabled) return false;
  const [{ NodeSDK }, { HttpInstrumentation }, { PgInstrumentation }, { FastifyOtelInstrumentation }] =
    await Promise.all([
      import('@opentelemetry/sdk-node'),
      import('@opentelemetry/instrumentation-http'),
      import('@opentelemetry/instrumentation-pg'),
      import('@fastify/otel'),
    ]);
  const sdk = new NodeSDK({
    serviceName: settings.serviceName ?? defaultServiceName,
    instrumentations: [
      new HttpInstrumentation(),
      new PgInstrumentation(),
      // Every Fastify instance created from now on, through Fastify's diagnostics channel: route names on spans.
      new FastifyOtelInstrumentation({ registerOnInitialization: true }),
    ],
  });
  sdk.start();
  started = sdk;
  return true;
}

/** Sends the spans still buffered and stops tracing (on a graceful stop); nothing when tracing is off. */
export async function stopTracing(): Promise<void> {
  const sdk = started;
  started = undefined;
  await sdk?.shutdown();
}
