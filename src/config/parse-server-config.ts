import { McpConfigError } from '../errors/config-errors.js';
import { messageOf } from '../util/values.js';
import { stripJsonComments } from './jsonc.js';
import { normalizeServerConfig, type ServerConfigOptions } from './normalize-server-config.js';
import type { ServerConfig } from './server-config.js';

/** The longest config text read, in characters (16 MiB): far past any real file, short of exhausting memory. */
export const MAX_CONFIG_CHARS = 16 * 1024 * 1024;
/** How deep TOML may nest inline tables and arrays; a server table needs four levels. */
const TOML_MAX_DEPTH = 32;
/** How many times YAML may name an anchor: a real Goose file names none; a "billion laughs" file names thousands. */
const YAML_MAX_ALIASES = 100;

/** Options of `parseServerConfig`. */
export interface ParseServerConfigOptions extends ServerConfigOptions {
  /** The longest text accepted, in characters (default `MAX_CONFIG_CHARS`). */
  maxChars?: number;
}

/**
 * Parses the text of a config file: JSON (comments and trailing commas
 * allowed, as VS Code, Cursor and Zed allow them), TOML for Codex, or YAML
 * for Goose. TOML is chosen by `format: 'codex'`, a path ending in `.toml`,
 * or (with no path) text with an `[mcp_servers…]` heading; YAML by
 * `format: 'goose'`, a path ending in `.yaml` or `.yml`, or (with no path)
 * text with an `extensions:` line. Each parser is loaded only then; YAML's
 * is the optional package `yaml` (`npm install yaml`). Browser-safe:
 * reading files is `readServerConfig`'s job, in `rxmcp/node`.
 *
 * Unknown keys in an entry come back as `warnings`, and a broken entry as a
 * server with `error` set (see `normalizeServerConfig`).
 *
 * @throws McpConfigError (as a rejection) for text too long, malformed or of no known format, or YAML without the `yaml` package.
 * @example
 * ```ts
 * const config = await parseServerConfig(text, { path: 'claude_desktop_config.json' });
 * const tools = Registry.fromConfig(await resolvePlaceholders(config));
 * ```
 */
export async function parseServerConfig(text: string, options: ParseServerConfigOptions = {}): Promise<ServerConfig> {
  const { maxChars = MAX_CONFIG_CHARS, ...rest } = options;
  const source = rest.path;
  if (typeof text !== 'string') throw new McpConfigError({ source }, 'the config text must be a string');
  if (text.length > maxChars) throw new McpConfigError({ source }, `is longer than ${maxChars} characters`);
  // TOML by the format, the extension, or (for text with neither) a Codex table heading where JSON cannot start.
  const toml =
    rest.format === 'codex' || (rest.format === undefined && (source === undefined ? /^\s*\[mcp_servers[.\]]/m.test(text) && !/^\s*[{[]\s*"/.test(text) : /\.toml$/i.test(source)));
  const yaml =
    !toml &&
    (rest.format === 'goose' || (rest.format === undefined && (source === undefined ? /^extensions:/m.test(text) && !/^\s*[{[]/.test(text) : /\.ya?ml$/i.test(source))));
  const value = toml ? await parseToml(text, source) : yaml ? await parseYaml(text, source) : parseJson(text, source);
  return normalizeServerConfig(value, toml ? { ...rest, format: 'codex' } : yaml ? { ...rest, format: rest.format ?? 'goose' } : rest);
}

async function parseYaml(text: string, source: string | undefined): Promise<unknown> {
  let yaml: typeof import('yaml');
  try {
    yaml = await import('yaml');
  } catch (error) {
    throw new McpConfigError({ source }, 'is YAML, which needs the optional package yaml: npm install yaml', { cause: error });
  }
  // Core schema: no custom tags, no `<<` merge keys, plain data only.
  // prettyErrors gives each fault its line and column; its message (which quotes the text) is never used.
  // The parser's own check of keys given twice compares every key of a map
  // with every other (a map of 50,000 keys took 20 s): it is done here instead, in one pass.
  const lines = new yaml.LineCounter();
  const document = yaml.parseDocument(text, { schema: 'core', uniqueKeys: false, prettyErrors: true, lineCounter: lines });
  const [fault] = document.errors;
  // The parser's message quotes the text around the fault, which may be a secret: only the position is kept.
  if (fault) throw new McpConfigError({ source }, `is not valid YAML${fault.linePos ? ` (line ${fault.linePos[0].line}, column ${fault.linePos[0].col})` : ''}`);
  const twice = keyGivenTwice(yaml, document.contents);
  if (twice !== undefined) {
    const { line, col } = lines.linePos(twice);
    throw new McpConfigError({ source }, `is not valid YAML (line ${line}, column ${col})`);
  }
  try {
    return document.toJS({ maxAliasCount: YAML_MAX_ALIASES });
  } catch (error) {
    const reason = /alias/i.test(error instanceof Error ? error.message : '') ? `it uses aliases more than ${YAML_MAX_ALIASES} times, as a file built to exhaust memory does` : 'it cannot be turned into data';
    throw new McpConfigError({ source }, `is not valid YAML: ${reason}`);
  }
}

// The offset of the first key given twice in one map, walking the nodes
// without recursion (a deep document must not cost a deep stack). Keys are
// told apart as the parser tells them: scalars by value, others by identity.
function keyGivenTwice(yaml: typeof import('yaml'), root: unknown): number | undefined {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const node = pending.pop();
    if (yaml.isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        const key = yaml.isScalar(pair.key) ? pair.key.value : pair.key;
        if (seen.has(key)) return yaml.isNode(pair.key) ? (pair.key.range?.[0] ?? 0) : 0;
        seen.add(key);
        pending.push(pair.key, pair.value);
      }
    } else if (yaml.isSeq(node)) {
      for (const item of node.items) pending.push(item);
    }
  }
  return undefined;
}

function parseJson(text: string, source: string | undefined): unknown {
  // A byte-order mark is what some Windows editors start a file with.
  const json = stripJsonComments(text.replace(/^\uFEFF/, ''));
  try {
    return JSON.parse(json);
  } catch (error) {
    // The parser's own message quotes the text around the fault, which may be a
    // secret: only the position is kept, and the error is not kept as a cause.
    const position = /position (\d+)/.exec(messageOf(error))?.[1];
    throw new McpConfigError({ source }, `is not valid JSON${position === undefined ? '' : ` (${lineAndColumn(json, Number(position))})`}`);
  }
}

async function parseToml(text: string, source: string | undefined): Promise<unknown> {
  const { parse } = await import('smol-toml');
  try {
    return parse(text, { maxDepth: TOML_MAX_DEPTH });
  } catch (error) {
    // smol-toml's message quotes the lines around the fault, which may hold a
    // secret: only the position is kept.
    const { line, column } = error as { line?: unknown; column?: unknown };
    const at = typeof line === 'number' && typeof column === 'number' ? ` (line ${line}, column ${column})` : '';
    throw new McpConfigError({ source }, `is not valid TOML${at}`);
  }
}

function lineAndColumn(text: string, position: number): string {
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  return `line ${line}, column ${position - before.lastIndexOf('\n')}`;
}
