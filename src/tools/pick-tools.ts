import type { LlmTool, ToolProvider } from './bridge.js';
import type { ToolNames } from './tool-names.js';
import { McpClientError } from '../errors/mcp-client-error.js';

/**
 * The provider's declarations under the names the option asks for, only
 * those named by `only` when it is given (each by its shown or its real
 * name), in the provider's order. A name the provider does not offer is
 * refused, so that a typo does not silently hand a model fewer tools than
 * meant.
 *
 * @throws McpClientError naming every missing tool; whatever the provider's listing rejects with.
 */
export async function pickTools(provider: ToolProvider, only: readonly string[] | undefined, names: ToolNames | undefined): Promise<LlmTool[]> {
  const declarations = await (names === undefined ? provider.toolsForLlm() : provider.toolsForLlm({ names }));
  if (only === undefined) return declarations;
  // A provider keeps its order under any names, so the two lists pair up; one
  // that knows nothing of names gives the same list twice.
  const real = await provider.toolsForLlm({ names: 'real' });
  const realOf = (n: number): string | undefined => (real.length === declarations.length ? real[n]?.function.name : undefined);
  const wanted = new Set(only);
  const found = new Set<string>();
  const picked = declarations.filter((tool, n) => {
    const hits = [tool.function.name, realOf(n)].filter((name): name is string => name !== undefined && wanted.has(name));
    for (const name of hits) found.add(name);
    return hits.length > 0;
  });
  const missing = only.filter((name) => !found.has(name));
  if (missing.length > 0) throw new McpClientError(`the provider offers no tool ${missing.map((name) => JSON.stringify(name)).join(', ')}`);
  return picked;
}
