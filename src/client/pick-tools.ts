import type { LlmTool } from './bridge.js';
import { McpClientError } from '../errors/mcp-client-error.js';

/**
 * The declarations named by `only`, in the provider's order; all of them
 * without it. A name the provider does not offer is refused, so that a typo
 * does not silently hand a model fewer tools than meant.
 *
 * @throws McpClientError naming every missing tool.
 */
export function pickTools(declarations: LlmTool[], only: readonly string[] | undefined): LlmTool[] {
  if (only === undefined) return declarations;
  const offered = new Set(declarations.map((tool) => tool.function.name));
  const missing = only.filter((name) => !offered.has(name));
  if (missing.length > 0) throw new McpClientError(`the provider offers no tool ${missing.map((name) => JSON.stringify(name)).join(', ')}`);
  const wanted = new Set(only);
  return declarations.filter((tool) => wanted.has(tool.function.name));
}
