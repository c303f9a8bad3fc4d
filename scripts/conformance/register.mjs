// Loaded with `node --import`: sends the conformance suite's `fs` import to
// fs-shim.mjs, which adds the `globSync` that Node 20 lacks.
import { register } from 'node:module';

register('./resolve-hook.mjs', import.meta.url);
