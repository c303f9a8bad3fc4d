import { McpConfigError, quoteName } from '../errors/config-errors.js';
import { isThenable } from '../util/values.js';
import { checkHeaders } from './header-check.js';
import type { ConfigFormat, ServerConfig, ServerEntry } from './server-config.js';

/** Options of `resolvePlaceholders`. */
export interface ResolveOptions {
  /** The environment `${VAR}` and `${env:VAR}` read (default: `process.env` where there is one, else nothing). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Answers VS Code's `${input:ID}`, once per id: with the input's description, to ask a person. */
  inputs?: (id: string, description: string) => Promise<string> | string;
  /** Named variables: `${userHome}`, `${workspaceFolder}`, `${workspaceFolderBasename}`, `${pathSeparator}` (`${/}`). */
  variables?: Readonly<Record<string, string>>;
}

/** The variables the editors predefine, which a format may use by name. */
const PREDEFINED = new Set(['userHome', 'workspaceFolder', 'workspaceFolderBasename', 'pathSeparator', '/']);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PLACEHOLDER = /\$\{([^{}]*)\}/g;

type Lookup = (body: string, key: string) => string | undefined;

/**
 * Fills in the placeholders of every server entry: in the command, the
 * arguments, the working directory, the URL, the values of `env` and
 * `headers`, and `envFile` (a `headersHelper` is left to its shell). What a format
 * defines:
 *
 * - `mcp-servers` (Claude Code, Cursor…) and `gemini`: `${VAR}`,
 *   `${VAR:-default}`, `${env:VAR}`, and the editor variables
 *   (`${userHome}`, `${workspaceFolder}`…).
 * - `vscode`: `${env:VAR}`, `${input:ID}` (answered by `options.inputs`),
 *   and the editor variables.
 * - `zed`: `${env:VAR}` and `${VAR}`.
 * - `codex` and `goose`: none of their own; the `${env:VAR}` rxmcp writes for
 *   Codex's `env_vars`, `env_http_headers` and `bearer_token_env_var`, and
 *   Goose's `env_keys`.
 *
 * Text that is not one of these forms is left as written.
 *
 * A variable that is not set, an input with no hook or no declaration, or an
 * answer that is not a string fails only the server that uses it: its entry
 * is returned as written, with `error` set to an McpConfigError naming the
 * variable and where it was used, never a value. An entry that already has
 * an `error` is left as it is. `Registry.fromConfig` shows such a server as
 * `failed` and starts the others.
 */
export async function resolvePlaceholders(config: ServerConfig, options: ResolveOptions = {}): Promise<ServerConfig> {
  const env = options.env ?? processEnv() ?? {};
  return resolveWith(config, env, options.variables ?? {}, await askInputs(config, options.inputs));
}

/**
 * The placeholders of a config filled in from `process.env` alone, where
 * there is a Node process; `undefined` elsewhere (a browser), where the
 * caller must resolve them itself. Inputs and editor variables fail their
 * servers: nobody was asked, and nothing names the project.
 */
export function resolveFromProcess(config: ServerConfig): ServerConfig | undefined {
  const node = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
  const env = processEnv();
  if (node === undefined || env === undefined) return undefined;
  return resolveWith(config, env, {}, new Map());
}

function processEnv(): Readonly<Record<string, string | undefined>> | undefined {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
}

// An input's answer, or what asking for it threw: thrown again where the input is used.
type Answer = { value: string } | { thrown: unknown } | { notString: true };

// VS Code's inputs are asked before anything is filled in, one after another
// (two questions must not share a terminal), once per id, and only the
// declared ones the enabled servers use.
async function askInputs(config: ServerConfig, hook: ResolveOptions['inputs']): Promise<Map<string, Answer>> {
  const answers = new Map<string, Answer>();
  if (config.format !== 'vscode' || !hook) return answers;
  for (const entry of config.servers) {
    if (entry.disabled || entry.error !== undefined) continue;
    for (const [, value] of fieldsOf(entry)) {
      for (const match of value.matchAll(PLACEHOLDER)) {
        const body = match[1] as string;
        if (!body.startsWith('input:') || body.length <= 6) continue;
        const id = body.slice(6);
        const input = config.inputs?.find((candidate) => candidate.id === id);
        if (!input || answers.has(id)) continue;
        try {
          const given = hook(id, input.description);
          const value = isThenable(given) ? await given : given;
          answers.set(id, typeof value === 'string' ? { value } : { notString: true });
        } catch (error) {
          answers.set(id, { thrown: error });
        }
      }
    }
  }
  return answers;
}

function resolveWith(config: ServerConfig, env: Readonly<Record<string, string | undefined>>, variables: Readonly<Record<string, string>>, answers: Map<string, Answer>): ServerConfig {
  const servers: ServerEntry[] = [];
  for (const entry of config.servers) {
    // A server that is switched off is not started, so it asks for nothing; a broken one is never started.
    if (entry.disabled || entry.error !== undefined) {
      servers.push(entry);
      continue;
    }
    const place = { source: entry.source ?? config.source, server: entry.name };
    const fail = (key: string, reason: string): never => {
      throw new McpConfigError({ ...place, key }, reason);
    };
    const ask = (id: string, key: string): string => {
      const input = config.inputs?.find((candidate) => candidate.id === id);
      if (!input) return fail(key, `uses input ${quoteName(id)}, which the file's inputs do not declare`);
      const answer = answers.get(id);
      if (!answer) return fail(key, `uses input ${quoteName(id)}, and no inputs hook was given to answer it`);
      if ('thrown' in answer) throw answer.thrown;
      if ('notString' in answer) return fail(key, `the answer to input ${quoteName(id)} is not a string`);
      return answer.value;
    };
    const lookup = lookupFor(config.format, env, variables, ask, fail);
    try {
      const resolved = resolveEntry(entry, lookup, config.format, (name) => Object.hasOwn(env, name) && env[name] !== undefined);
      checkHeaders(resolved, place);
      RESOLVED.add(resolved);
      servers.push(resolved);
    } catch (error) {
      // A variable missing for one server fails that server, not the file: it keeps its placeholders and says why.
      if (!(error instanceof McpConfigError)) throw error;
      servers.push({ ...entry, error });
    }
  }
  return { ...config, servers };
}

// Entries whose placeholders were filled in: a `${…}` left in them came from a
// value (an environment variable, an input answer) and is not one to fill.
const RESOLVED = new WeakSet<ServerEntry>();

/** Whether `resolvePlaceholders` (or `readServerConfig`) made this entry. */
export function isResolved(entry: ServerEntry): boolean {
  return RESOLVED.has(entry);
}

/** Marks an entry made from a resolved one (its env file read, its headers made) as resolved too. */
export function markResolved<T extends ServerEntry>(entry: T): T {
  RESOLVED.add(entry);
  return entry;
}

function lookupFor(
  format: ConfigFormat,
  env: Readonly<Record<string, string | undefined>>,
  variables: Readonly<Record<string, string>>,
  ask: (id: string, key: string) => string,
  fail: (key: string, reason: string) => never,
): Lookup {
  const fromEnv = (name: string, key: string): string => {
    const value = Object.hasOwn(env, name) ? env[name] : undefined;
    return value ?? fail(key, `uses the environment variable ${name}, which is not set`);
  };
  const variable = (name: string, key: string): string => {
    if (Object.hasOwn(variables, name)) return variables[name] as string;
    if (name === '/' || name === 'pathSeparator') return '/';
    return fail(key, `uses \${${name}}, and no value was given for it`);
  };
  return (body, key) => {
    if (body.startsWith('env:') && NAME.test(body.slice(4))) return fromEnv(body.slice(4), key);
    if (format === 'codex' || format === 'goose') return undefined;
    if (format === 'zed') return NAME.test(body) ? fromEnv(body, key) : undefined;
    if (PREDEFINED.has(body)) return variable(body, key);
    if (format === 'vscode') {
      if (body.startsWith('input:') && body.length > 6) return ask(body.slice(6), key);
      return undefined;
    }
    const fallback = body.indexOf(':-');
    if (fallback > 0 && NAME.test(body.slice(0, fallback))) {
      const value = Object.hasOwn(env, body.slice(0, fallback)) ? env[body.slice(0, fallback)] : undefined;
      return value === undefined || value === '' ? body.slice(fallback + 2) : value;
    }
    return NAME.test(body) ? fromEnv(body, key) : undefined;
  };
}

/**
 * The first placeholder of an enabled server that `resolvePlaceholders` would
 * fill in, as where it is, or `undefined` when there is none: a config whose
 * placeholders were never resolved must not start servers with `${API_KEY}`
 * as a key.
 */
export function firstPlaceholder(config: ServerConfig): { server: string; key: string; source?: string } | undefined {
  for (const entry of config.servers) {
    if (entry.disabled || entry.error !== undefined || RESOLVED.has(entry)) continue;
    for (const [key, value] of fieldsOf(entry)) {
      if (!value.includes('${')) continue;
      for (const match of value.matchAll(PLACEHOLDER)) {
        if (isPlaceholder(config.format, match[1] as string)) {
          const source = entry.source ?? config.source;
          return { server: entry.name, key, ...(source === undefined ? {} : { source }) };
        }
      }
    }
  }
  return undefined;
}

// Every text of an entry placeholders may stand in, with its key.
function fieldsOf(entry: ServerEntry): Array<[string, string]> {
  const optional = (key: string, value: string | undefined): Array<[string, string]> => (value === undefined ? [] : [[key, value]]);
  return entry.transport === 'stdio'
    ? [['command', entry.command], ...entry.args.map((arg, n): [string, string] => [`args[${n}]`, arg]), ...prefixed('env', entry.env), ...optional('cwd', entry.cwd), ...optional('envFile', entry.envFile)]
    : [['url', entry.url], ...prefixed('headers', entry.headers)];
}

function prefixed(key: string, values: Record<string, string>): Array<[string, string]> {
  return Object.keys(values).map((name) => [`${key}.${name}`, values[name] as string]);
}

function isPlaceholder(format: ConfigFormat, body: string): boolean {
  if (body.startsWith('env:') && NAME.test(body.slice(4))) return true;
  if (format === 'codex' || format === 'goose') return false;
  if (format === 'zed') return NAME.test(body);
  if (PREDEFINED.has(body)) return true;
  if (format === 'vscode') return body.startsWith('input:') && body.length > 6;
  const fallback = body.indexOf(':-');
  return (fallback > 0 && NAME.test(body.slice(0, fallback))) || NAME.test(body);
}

function resolveEntry(entry: ServerEntry, lookup: Lookup, format: ConfigFormat, isSet: (name: string) => boolean): ServerEntry {
  const text = (value: string, key: string): string => {
    if (!value.includes('${')) return value;
    const parts: string[] = [];
    let last = 0;
    for (const match of value.matchAll(PLACEHOLDER)) {
      parts.push(value.slice(last, match.index), lookup(match[1] as string, key) ?? match[0]);
      last = (match.index as number) + match[0].length;
    }
    parts.push(value.slice(last));
    return parts.join('');
  };
  const map = (values: Record<string, string>, key: string): Record<string, string> => {
    const out = Object.create(null) as Record<string, string>;
    for (const name of Object.keys(values)) {
      // Codex's `env_vars` and Goose's `env_keys` pass a variable on only when it is set: such an entry (NAME = ${env:NAME}) is dropped, not an error.
      if ((format === 'codex' || format === 'goose') && key === 'env' && values[name] === `\${env:${name}}` && !isSet(name)) continue;
      out[name] = text(values[name] as string, `${key}.${name}`);
    }
    return out;
  };
  if (entry.transport === 'stdio') {
    return {
      ...entry,
      command: text(entry.command, 'command'),
      args: entry.args.map((arg, n) => text(arg, `args[${n}]`)),
      env: map(entry.env, 'env'),
      ...(entry.cwd === undefined ? {} : { cwd: text(entry.cwd, 'cwd') }),
      ...(entry.envFile === undefined ? {} : { envFile: text(entry.envFile, 'envFile') }),
    };
  }
  // A headersHelper is left as written: the shell that runs it expands its variables, and a value put in here would be read as shell text.
  return { ...entry, url: text(entry.url, 'url'), headers: map(entry.headers, 'headers') };
}
