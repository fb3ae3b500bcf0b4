// Run it: npx tsx examples/docs/telemetry/console.ts
// One process serves a tool and calls it; every span and measurement is printed to the console.

import { createTool } from '@mastra/core/tools';
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  ConsoleMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { MCPClient, MCPServer } from 'mastra-mcp';
import { z } from 'zod';

// What an app's OpenTelemetry set-up does (NodeSDK does the same from environment variables).
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const tracerProvider = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())],
});
trace.setGlobalTracerProvider(tracerProvider);
const meterProvider = new MeterProvider({
  readers: [
    new PeriodicExportingMetricReader({
      exporter: new ConsoleMetricExporter(),
      exportIntervalMillis: 60_000,
    }),
  ],
});
metrics.setGlobalMeterProvider(meterProvider);

const server = new MCPServer({
  name: 'Weather',
  version: '1.0.0',
  tools: {
    forecast: createTool({
      id: 'forecast',
      description: 'Forecast for a city',
      inputSchema: z.object({ city: z.string() }),
      // The tool's own spans are children of MCPServer's `tools/call forecast` span.
      execute: async ({ city }) =>
        trace.getTracer('weather').startActiveSpan('fetch forecast', async (span) => {
          span.end();
          return `Sunny in ${city}`;
        }),
    }),
  },
});
const { url, close } = await server.listen({ port: 0 });

const mcp = new MCPClient({ servers: { weather: { url } } });
const tools = await mcp.listTools();
await trace.getTracer('app').startActiveSpan('answer user', async (span) => {
  await tools.weather_forecast?.execute?.({ city: 'Oslo' }, {} as never);
  span.end();
});

await mcp.disconnect();
await close();
await meterProvider.shutdown(); // exports the histograms once more before exiting
await tracerProvider.shutdown();
