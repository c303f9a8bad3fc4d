// A config file may say that a server's tools are always loaded (Claude
// Code's `alwaysLoad`): a `ToolSearch` then shows them from the first turn,
// without the user naming them again. Only the servers of a config know it,
// so each layer between them and the search (a Registry, a Policy, Reasons…)
// answers by this key, passing the question down as it passes a tool's
// declaration down (see `tool-declaration.ts`).

/**
 * Key of the method by which a provider says whether one of its tools (by
 * its real name, as `toolsForLlm({ names: 'real' })` lists it) is always
 * loaded: `(name: string) => boolean`. Private to the package; a layer of
 * your own between a `ToolSearch` and a config's `Registry` hides it (give
 * the search `alwaysIncludeIf` then).
 */
export const ALWAYS_LOADED: unique symbol = Symbol('rxmcp.alwaysLoaded');

/** A provider that can say which of its tools are always loaded. */
export type LoadsAlways = { [ALWAYS_LOADED]?: (name: string) => unknown };

/** Whether the provider says its tool is always loaded; `false` for a provider that cannot say, or whose answer throws. */
export function isAlwaysLoaded(provider: object, name: string): boolean {
  const says = (provider as LoadsAlways)[ALWAYS_LOADED];
  if (typeof says !== 'function') return false;
  try {
    return says.call(provider, name) === true;
  } catch {
    return false;
  }
}
