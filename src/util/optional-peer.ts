// The optional peers (ai, @langchain/core, redis…) are loaded with import()
// where first needed, so a program that never uses a subpath never needs its
// package. When one is absent, the user should read which package to
// install rather than Node's resolver error. Only the absence of that very
// package is told so: a broken install, or a dependency of the package gone
// missing, passes through as it is, since installing the package again
// would not be the fix.
import { McpClientError } from '../errors/mcp-client-error.js';

/**
 * Loads an optional peer with `load` (an `import()` of it, written out so
 * that bundlers and the CommonJS build see the specifier).
 *
 * @param needer What wants the package, as the user knows it (`rxmcp/redis`).
 * @param name The package, as `npm install` takes it.
 * @throws McpClientError (as a rejection), in one line naming the package and the command that installs it, when the package itself cannot be found; any other failure to load as it is.
 */
export async function loadOptionalPeer<T>(needer: string, name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isMissingPackage(error, name)) throw error;
    throw new McpClientError(`${needer} needs the optional package ${name}: npm install ${name}`, { cause: error });
  }
}

/** True when `error` is Node's "cannot find" (from `import` or `require`) for the package `name` itself or one of its subpaths. */
export function isMissingPackage(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if ((code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') || typeof message !== 'string') return false;
  // import() names the package ("Cannot find package 'ai' imported from …"),
  // require() the specifier ("Cannot find module '@langchain/core/tools'").
  // Read as fields, not through instanceof: the error may come from another realm.
  const missing = /^Cannot find (?:package|module) '([^']+)'/.exec(message)?.[1];
  return missing !== undefined && (missing === name || missing.startsWith(`${name}/`));
}
