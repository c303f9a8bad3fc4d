import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@cfworker/json-schema';

// The MCP Apps JSON Schema of every message (from @modelcontextprotocol/ext-apps
// 2.0.4), for checking what the host sends. Each definition stands alone, its
// own $defs included.
const schema = JSON.parse(readFileSync(join(__dirname, '..', '..', 'node_modules', '@modelcontextprotocol', 'ext-apps', 'dist', 'src', 'generated', 'schema.json'), 'utf8')) as {
  $defs: Record<string, Record<string, unknown>>;
};

/** The violations of `value` against the named definition (e.g. `McpUiInitializeResult`); empty when it is valid. */
export function appsSchemaErrors(name: string, value: unknown): string[] {
  const definition = schema.$defs[name];
  if (definition === undefined) throw new Error(`no definition ${name}`);
  const result = new Validator(definition as never, '2020-12', false).validate(value);
  return result.errors.map((error) => `${error.instanceLocation}: ${error.error}`);
}
