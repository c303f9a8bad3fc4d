// A module-resolution hook for the package specs: appends every bare
// specifier that is resolved to the file named by RXMCP_LOAD_LOG.
import { appendFileSync } from 'node:fs';

export async function resolve(specifier, context, nextResolve) {
  if (!specifier.startsWith('.') && !specifier.startsWith('/') && !specifier.startsWith('file:')) {
    appendFileSync(process.env.RXMCP_LOAD_LOG, specifier + '\n');
  }
  return nextResolve(specifier, context);
}
