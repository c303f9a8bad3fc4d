import { firstValueFrom, isObservable } from 'rxjs';
import type { Tool } from '../protocol/types.js';

// A model is shown a tool as a function declaration (name, description,
// parameters); what else its server declared (title, icons, outputSchema,
// _meta) is for whoever serves the tool on as MCP: the gateway. Each layer
// of a provider stack answers it by this key, a client from its list.

/**
 * Key of the method by which a provider (a client, a config's server, a
 * registry, a layer over one) answers the declaration of one of its tools as
 * its server listed it, under the server's name. Private to the package.
 */
export const TOOL_DECLARATION: unique symbol = Symbol('rxmcp.toolDeclaration');

/** A provider that can answer a tool's declaration. */
export type Declares = { [TOOL_DECLARATION]?: (name: string) => unknown };

/** The tool as its server declared it, or `undefined` for a provider that cannot say, an unknown tool, or a failed lookup. */
export async function declarationOf(provider: object, name: string): Promise<Tool | undefined> {
  const lookup = (provider as Declares)[TOOL_DECLARATION];
  if (typeof lookup !== 'function') return undefined;
  try {
    const answer: unknown = lookup.call(provider, name);
    const tool = (await (isObservable(answer) ? firstValueFrom(answer) : answer)) as Tool | undefined;
    return typeof tool === 'object' && tool !== null ? tool : undefined;
  } catch {
    return undefined;
  }
}
