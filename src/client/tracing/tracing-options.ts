import { McpClientError } from '../../errors/mcp-client-error.js';
import { isObject } from '../../util/values.js';

/**
 * How a client traces (the `tracing` client option) when it does. Tracing
 * goes through `@opentelemetry/api` if it is installed, and records nothing
 * until the application registers an OpenTelemetry SDK.
 */
export interface TracingOptions {
  /**
   * Record each tool call's arguments and result on its span
   * (`gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`, as JSON, each
   * cut to 16,384 characters). Off by default: they may hold secrets.
   */
  captureContent?: boolean;
}

/** The `tracing` option resolved: `undefined` when it is off. */
export interface TracingSettings {
  captureContent: boolean;
}

const KEYS = ['captureContent'];

/**
 * Checks the `tracing` option: `false` turns tracing off; left out, `true`
 * or an object (see {@link TracingOptions}) leaves it on.
 *
 * @throws McpClientError for any other value, or an unknown key.
 */
export function checkTracing(option: unknown): TracingSettings | undefined {
  if (option === false) return undefined;
  if (option === undefined || option === true) return { captureContent: false };
  if (!isObject(option)) throw new McpClientError('option tracing must be false, true or an object such as { captureContent: true }');
  for (const key of Object.keys(option)) {
    if (!KEYS.includes(key)) throw new McpClientError(`option tracing has an unknown key ${JSON.stringify(key)}`);
  }
  const { captureContent } = option as TracingOptions;
  if (captureContent !== undefined && typeof captureContent !== 'boolean') throw new McpClientError('option tracing.captureContent must be a boolean');
  return { captureContent: captureContent === true };
}
