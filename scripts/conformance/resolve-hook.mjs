// The resolve hook registered by register.mjs; only the suite's own imports
// are redirected, so everything else (the shim included) sees the real `fs`.
const SHIM = new URL('./fs-shim.mjs', import.meta.url).href;
const SUITE = '/node_modules/@modelcontextprotocol/conformance/';

export async function resolve(specifier, context, nextResolve) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes(SUITE)) {
    return { url: SHIM, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
