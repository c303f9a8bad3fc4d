import type * as JsonSchemaLibrary from '@cfworker/json-schema';
import type { Tool } from '../protocol/types.js';
import { quote } from '../util/quote.js';
import { type Checker, compileSchema, loadValidator } from './output-check.js';

// What the bridge shows a vendor can be looser than a tool's inputSchema
// (Gemini and strict mode drop keywords such as `format` or `multipleOf`), so
// a model may write arguments the tool refuses. Checked against the original
// schema, such arguments are answered by the client, naming the violation,
// and never reach the server. A schema the check cannot read to a conclusion
// (too deep, too large, a `$ref` to another document, too costly for the
// arguments given) leaves the call to the server, which is the authority on
// its own arguments: the check only ever refuses what it proved invalid.

/** Each inputSchema's checker, compiled once per schema object (a cached catalogue keeps its objects). */
const compiled = new WeakMap<object, Promise<Checker | string>>();

/** The checker of each named tool of a catalogue whose inputSchema can be checked. */
export async function argumentCheckers(catalogue: ReadonlyMap<string, Tool>, names: Iterable<string>): Promise<ReadonlyMap<string, Checker>> {
  const checkers = new Map<string, Checker>();
  const wanted = [...new Set(names)].flatMap((name) => {
    const tool = catalogue.get(name);
    return tool && typeof tool.inputSchema === 'object' && tool.inputSchema !== null ? [[name, tool.inputSchema] as const] : [];
  });
  if (wanted.length === 0) return checkers;
  let library: typeof JsonSchemaLibrary;
  try {
    library = await loadValidator();
  } catch {
    // Without a validator nothing is proved invalid: the calls go unchecked.
    return checkers;
  }
  for (const [name, schema] of wanted) {
    let checker = compiled.get(schema);
    if (!checker) {
      checker = Promise.resolve().then(() => compileSchema(library, schema, { schema: 'inputSchema', value: 'the arguments', draft: draftOf(schema) })).catch(() => 'unreadable');
      compiled.set(schema, checker);
    }
    const ready = await checker;
    if (typeof ready !== 'string') checkers.set(name, ready);
  }
  return checkers;
}

/** Why `args` break the tool's schema, as the answer to the call; `undefined` when they match or could not be checked. */
export function argumentViolation(name: string, checker: Checker, args: Record<string, unknown>): string | undefined {
  const verdict = checker(args);
  return verdict?.problem === 'mismatch' ? `Invalid arguments for ${quote(name)}: ${verdict.violation}` : undefined;
}

// The version a schema names for itself; MCP's default, 2020-12, otherwise.
function draftOf(schema: Record<string, unknown>): JsonSchemaLibrary.SchemaDraft {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('draft-04')) return '4';
  if (declared.includes('draft-07') || declared.includes('draft-06')) return '7';
  if (declared.includes('2019-09')) return '2019-09';
  return '2020-12';
}
