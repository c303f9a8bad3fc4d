import { firstValueFrom, isObservable } from 'rxjs';
import type { ToolAnnotations } from '../protocol/types.js';

// MCP, server/tools §Tool: "clients MUST consider tool annotations to be
// untrusted unless they come from trusted servers". A server that calls a
// tool read-only could delete with it; its hints count only where the user
// said they may (`trustAnnotations: true`). They are left out where they
// enter, so every layer above (Policy, Reasons, the gateway, a batch) sees
// nothing it could lean on.

/**
 * Key of the method by which a provider (a client, a config's server, a
 * registry) answers a tool's annotations as its server gave them, hints and
 * all: asked only by a layer the user marked trusted (`Registry#add(…, {
 * trustAnnotations: true })`). Private to the package, so nothing else can
 * reach the untrusted hints by it.
 */
export const SERVER_ANNOTATIONS: unique symbol = Symbol('rxmcp.serverAnnotations');

/**
 * Key of the batch option such a layer passes on: the hints of the provider
 * it vouches for may overlap and merge this batch's calls. A symbol private to
 * the package, so no host, view or JSON text can set it.
 */
export const TRUSTED_BATCH: unique symbol = Symbol('rxmcp.trustedBatch');

/** A batch's options as a trusted layer passes them on. */
export type TrustedBatchOptions = { [TRUSTED_BATCH]?: true };

/** The hints a server asserts about its own tool's behaviour. */
const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/**
 * The annotations with every behaviour hint left out (the title stays):
 * what an untrusted server's claims are worth. `undefined` when nothing is left.
 */
export function withoutHints(annotations: ToolAnnotations | undefined): ToolAnnotations | undefined {
  if (annotations === undefined) return undefined;
  const kept: ToolAnnotations = { ...annotations };
  for (const hint of HINTS) delete kept[hint];
  return Object.keys(kept).length > 0 ? kept : undefined;
}

/** Whether a batch's options say a trusted layer vouches for its provider's hints. */
export function vouchedFor(options: object): boolean {
  return (options as TrustedBatchOptions)[TRUSTED_BATCH] === true;
}

/**
 * A tool's annotations as its server gave them, for a layer the user marked
 * trusted: through `SERVER_ANNOTATIONS` when the provider has it, else what
 * its `toolAnnotations` says (a `Toolkit`'s own, or a wrapper's). `undefined`
 * for an unknown tool or a failed lookup.
 */
export async function serverAnnotationsOf(provider: object, tool: string): Promise<ToolAnnotations | undefined> {
  const own = (provider as { [SERVER_ANNOTATIONS]?: (name: string) => unknown })[SERVER_ANNOTATIONS];
  return lookUp(provider, typeof own === 'function' ? own : (provider as { toolAnnotations?: (name: string) => unknown }).toolAnnotations, tool);
}

/**
 * What a provider says about one of its tools, when it can say (an
 * `McpClient`, a `Toolkit`, a `Registry`, a `Policy`…): a remote server's
 * hints only when the user trusts it. `undefined` for a provider without
 * `toolAnnotations`, an unknown tool, or a failed lookup.
 */
export function annotationsOf(provider: object, tool: string): Promise<ToolAnnotations | undefined> {
  return lookUp(provider, (provider as { toolAnnotations?: (name: string) => unknown }).toolAnnotations, tool);
}

async function lookUp(provider: object, lookup: unknown, tool: string): Promise<ToolAnnotations | undefined> {
  if (typeof lookup !== 'function') return undefined;
  try {
    const answer: unknown = lookup.call(provider, tool);
    return (await (isObservable(answer) ? firstValueFrom(answer) : answer)) as ToolAnnotations | undefined;
  } catch {
    return undefined;
  }
}
