import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig, loadTracingConfig } from '#app/config.ts';
import { startTracing, stopTracing } from '#app/observability/tracing.ts';

/**
 * OpenTelemetry tracing (observability/tracing.ts): off by default, on by the standard OTEL_* variables, spans sent
 * over OTLP/HTTP to a fake collector on loopback.
 */

type Span = { name: string; attributes: { key: string; value: { stringValue?: string } }[] };

describe('tracing settings', () => {
  it('is off by default, and with OTEL_TRACES_EXPORTER=none or OTEL_SDK_DISABLED', () => {
    expect(loadTracingConfig({}).enabled).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).tracing.enabled).toBe(false);
    const endpoint = 'http://127.0.0.1:4318';
    expect(loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_EXPORTER: 'none' }).enabled).toBe(
      false,
    );
    expect(loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SDK_DISABLED: 'true' }).enabled).toBe(false);
  });

  it('is on with an OTLP endpoint or a named exporter', () => {
    expect(loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }).enabled).toBe(true);
    expect(loadTracingConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' }).enabled).toBe(true);
    expect(loadTracingConfig({ OTEL_TRACES_EXPORTER: 'console', OTEL_SERVICE_NAME: 'tienda' })).toStrictEqual({
      enabled: true,
      serviceName: 'tienda',
    });
  });

  it('a bad value stops the start with one line naming the variable', () => {
    expect(() => loadConfig({ OTEL_TRACES_EXPORTER: 'jaeger' })).toThrow(
      new ConfigError(
        'Invalid configuration: OTEL_TRACES_EXPORTER must be otlp, console or none (the exporters this build carries)',
      ),
    );
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT must be an http/,
    );
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: 'udp' })).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL must be/);
  });
});

describe('tracing to a fake OTLP/HTTP collector', () => {
  const received: { path: string; spans: Span[] }[] = [];
  let collector: Server;

  beforeAll(async () => {
    collector = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
          resourceSpans?: { scopeSpans: { spans: Span[] }[] }[];
        };
        const spans = (body.resourceSpans ?? []).flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
        received.push({ path: request.url ?? '', spans });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await stopTracing();
    vi.unstubAllEnvs();
    await new Promise((resolve) => collector.close(resolve));
  });

  it('a default start starts nothing; with OTEL_EXPORTER_OTLP_ENDPOINT the collector receives the spans of a request', async () => {
    expect(await startTracing('travesia-test', {})).toBe(false);

    const { port } = collector.address() as AddressInfo;
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', `http://127.0.0.1:${port}`);
    vi.stubEnv('OTEL_EXPORTER_OTLP_PROTOCOL', 'http/json');
    vi.stubEnv('OTEL_SERVICE_NAME', 'travesia-test');
    expect(await startTracing('travesia-test')).toBe(true);

    // Fastify is loaded after tracing started, as start.ts does with the server.
    const { default: Fastify } = await import('fastify');
    const app = Fastify();
    app.get('/api/companies/:companyId', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port: appPort } = app.server.address() as AddressInfo;
      expect((await fetch(`http://127.0.0.1:${appPort}/api/companies/7`)).status).toBe(200);
    } finally {
      await app.close();
    }
    await stopTracing();

    const traces = received.filter((batch) => batch.path === '/v1/traces').flatMap((batch) => batch.spans);
    expect(traces.length).toBeGreaterThan(0);
    const routes = traces.flatMap((span) =>
      span.attributes.filter((a) => a.key === 'http.route').map((a) => a.value.stringValue),
    );
    expect(routes).toContain('/api/companies/:companyId');
    // The HTTP server span is named by the route's pattern, and Fastify's request span is its child.
    expect(traces.map((span) => span.name)).toContain('GET /api/companies/:companyId');
    expect(traces.map((span) => span.name)).toContain('request');
  });
});
