import { z } from 'zod';
import { Toolkit } from '../providers/toolkit.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAZGF0YQAAAAA=';

/**
 * A `Toolkit` with one tool of every shape, for testing what consumes tool
 * results (a bridge, a UI, a policy): `text`, `structured`, `image`, `audio`,
 * `embedded_resource`, `resource_link`, `fails` (isError), `throws`, `slow`
 * (waits `ms`, stopping when the call is cancelled), `read_only` (annotated
 * read-only and idempotent) and `writes` (annotated destructive).
 */
export function testKit(name = 'testkit'): Toolkit {
  const text = (value: string) => ({ content: [{ type: 'text', text: value }] });
  return new Toolkit({ name })
    .tool('text', { description: 'Returns its text', input: z.object({ text: z.string() }) }, ({ text: value }) => text(value))
    .tool('structured', { description: 'Returns structured content', input: z.object({ a: z.number(), b: z.number() }) }, ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
      structuredContent: { sum: a + b },
    }))
    .tool('image', { description: 'Returns a one-pixel PNG', input: z.object({}) }, () => ({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }))
    .tool('audio', { description: 'Returns a silent WAV', input: z.object({}) }, () => ({ content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] }))
    .tool('embedded_resource', { description: 'Returns an embedded text resource', input: z.object({}) }, () => ({
      content: [{ type: 'resource', resource: { uri: 'test://readme', mimeType: 'text/plain', text: '# Test' } }],
    }))
    .tool('resource_link', { description: 'Returns a link to a resource', input: z.object({}) }, () => ({
      content: [{ type: 'resource_link', uri: 'test://readme', name: 'readme' }],
    }))
    .tool('fails', { description: 'Reports a failure of its own', input: z.object({}) }, () => ({ ...text('it failed'), isError: true }))
    .tool('throws', { description: 'Throws', input: z.object({}) }, () => {
      throw new Error('the handler threw');
    })
    .tool('slow', { description: 'Waits ms milliseconds', input: z.object({ ms: z.number().int().min(0) }) }, ({ ms }, { signal }) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve(text(`waited ${ms} ms`)), ms);
        signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve({ ...text('cancelled'), isError: true });
        });
      }),
    )
    .tool('read_only', { description: 'Reads; safe to repeat', input: z.object({ key: z.string() }), annotations: { readOnlyHint: true, idempotentHint: true } }, ({ key }) =>
      text(`value of ${key}`),
    )
    .tool('writes', { description: 'Changes something', input: z.object({ key: z.string() }), annotations: { destructiveHint: true } }, ({ key }) =>
      text(`wrote ${key}`),
    );
}

/** The part of the official SDK's `McpServer` a ProgressKit registers on. */
interface Registrar {
  registerTool(name: string, config: Record<string, unknown>, handler: (args: never, ctx: never) => unknown): unknown;
}

/**
 * Tools that report progress on a schedule the test chooses, registered on
 * an official-SDK `McpServer` (serve it with `InProcessTransport`):
 * `progress { steps?, delayMs? }` reports `1..steps` of `steps`, waiting
 * `delayMs` before each, then answers `done after N steps`.
 */
export class ProgressKit {
  constructor(private readonly defaults: { steps?: number; delayMs?: number } = {}) {}

  /** Adds the `progress` tool to `server`. */
  register(server: Registrar): void {
    const defaults = this.defaults;
    server.registerTool(
      'progress',
      { description: 'Reports progress on a schedule', inputSchema: z.object({ steps: z.number().int().min(1).optional(), delayMs: z.number().int().min(0).optional() }) },
      (async (
        args: { steps?: number; delayMs?: number },
        ctx: { mcpReq: { _meta?: { progressToken?: string | number }; notify(notification: unknown): Promise<void> } },
      ) => {
        const steps = args.steps ?? defaults.steps ?? 3;
        const delayMs = args.delayMs ?? defaults.delayMs ?? 0;
        const token = ctx.mcpReq._meta?.progressToken;
        for (let step = 1; step <= steps; step++) {
          if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
          if (token !== undefined) {
            await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: step, total: steps, message: `step ${step} of ${steps}` } });
          }
        }
        return { content: [{ type: 'text', text: `done after ${steps} steps` }] };
      }) as never,
    );
  }
}
