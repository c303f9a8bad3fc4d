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

type Lookup = (body: string, key: string) => Promise<string | undefined>;

/**
 * Fills in the placeholders of every server entry: in the command, the
 * arguments, the working directory, the URL, and the values of `env` and
 * `headers`. What a format defines:
 *
 * - `mcp-servers` (Claude Code, Cursor): `${VAR}`, `${VAR:-default}`,
 *   `${env:VAR}`, and the editor variables (`${userHome}`, `${workspaceFolder}`…).
 * - `vscode`: `${env:VAR}`, `${input:ID}` (answered by `options.inputs`),
 *   and the editor variables.
 * - `codex`: none of its own; the `${env:VAR}` rxmcp writes for `env_vars`,
 *   `env_http_headers` and `bearer_token_env_var`.
 *
 * Text that is not one of these forms is left as written.
 *
 * A variable that is not set, an input with no hook or no declaration, or an
 * answer that is not a string fails only the server that uses it: its entry
 * is returned as written, with `error` set to an McpConfigError naming the
 * variable and where it was used, never a value. `Registry.fromConfig`
 * shows such a server as `failed` and starts the others.
 */
export async function resolvePlaceholders(config: ServerConfig, options: ResolveOptions = {}): Promise<ServerConfig> {
  const env = options.env ?? (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
  const variables = options.variables ?? {};
  const answers = new Map<string, Promise<string>>();
  const servers: ServerEntry[] = [];
  for (const entry of config.servers) {
    // A server that is switched off is not started, so it asks for nothing.
    if (entry.disabled) {
      servers.push(entry);
      continue;
    }
    const place = { source: entry.source ?? config.source, server: entry.name };
    const fail = (key: string, reason: string): never => {
      throw new McpConfigError({ ...place, key }, reason);
    };
    const ask = (id: string, key: string): Promise<string> => {
      const input = config.inputs?.find((candidate) => candidate.id === id);
      if (!input) return fail(key, `uses input ${quoteName(id)}, which the file's inputs do not declare`);
      if (!options.inputs) return fail(key, `uses input ${quoteName(id)}, and no inputs hook was given to answer it`);
      let answer = answers.get(id);
      if (!answer) {
        const hook = options.inputs;
        answer = (async () => {
          const given = hook(id, input.description);
          const value = isThenable(given) ? await given : given;
          if (typeof value !== 'string') fail(key, `the answer to input ${quoteName(id)} is not a string`);
          return value;
        })();
        answers.set(id, answer);
      }
      return answer;
    };
    const lookup = lookupFor(config.format, env, variables, ask, fail);
    try {
      const resolved = await resolveEntry(entry, lookup, config.format, (name) => Object.hasOwn(env, name) && env[name] !== undefined);
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

function lookupFor(
  format: ConfigFormat,
  env: Readonly<Record<string, string | undefined>>,
  variables: Readonly<Record<string, string>>,
  ask: (id: string, key: string) => Promise<string>,
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
  return async (body, key) => {
    if (body.startsWith('env:') && NAME.test(body.slice(4))) return fromEnv(body.slice(4), key);
    if (format === 'codex') return undefined;
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
    const fields: Array<[string, string]> =
      entry.transport === 'stdio'
        ? [['command', entry.command], ...entry.args.map((arg, n): [string, string] => [`args[${n}]`, arg]), ...prefixed('env', entry.env), ...(entry.cwd === undefined ? [] : [['cwd', entry.cwd] as [string, string]])]
        : [['url', entry.url], ...prefixed('headers', entry.headers)];
    for (const [key, value] of fields) {
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

function prefixed(key: string, values: Record<string, string>): Array<[string, string]> {
  return Object.keys(values).map((name) => [`${key}.${name}`, values[name] as string]);
}

function isPlaceholder(format: ConfigFormat, body: string): boolean {
  if (body.startsWith('env:') && NAME.test(body.slice(4))) return true;
  if (format === 'codex') return false;
  if (PREDEFINED.has(body)) return true;
  if (format === 'vscode') return body.startsWith('input:') && body.length > 6;
  const fallback = body.indexOf(':-');
  return (fallback > 0 && NAME.test(body.slice(0, fallback))) || NAME.test(body);
}

async function resolveEntry(entry: ServerEntry, lookup: Lookup, format: ConfigFormat, isSet: (name: string) => boolean): Promise<ServerEntry> {
  const text = async (value: string, key: string): Promise<string> => {
    if (!value.includes('${')) return value;
    const parts: string[] = [];
    let last = 0;
    for (const match of value.matchAll(PLACEHOLDER)) {
      const found = await lookup(match[1] as string, key);
      parts.push(value.slice(last, match.index), found ?? match[0]);
      last = (match.index as number) + match[0].length;
    }
    parts.push(value.slice(last));
    return parts.join('');
  };
  const map = async (values: Record<string, string>, key: string): Promise<Record<string, string>> => {
    const out = Object.create(null) as Record<string, string>;
    for (const name of Object.keys(values)) {
      // Codex passes an `env_vars` variable on only when it is set: such an entry (NAME = ${env:NAME}) is dropped, not an error.
      if (format === 'codex' && key === 'env' && values[name] === `\${env:${name}}` && !isSet(name)) continue;
      out[name] = await text(values[name] as string, `${key}.${name}`);
    }
    return out;
  };
  if (entry.transport === 'stdio') {
    const args: string[] = [];
    for (const [n, arg] of entry.args.entries()) args.push(await text(arg, `args[${n}]`));
    return {
      ...entry,
      command: await text(entry.command, 'command'),
      args,
      env: await map(entry.env, 'env'),
      ...(entry.cwd === undefined ? {} : { cwd: await text(entry.cwd, 'cwd') }),
    };
  }
  return { ...entry, url: await text(entry.url, 'url'), headers: await map(entry.headers, 'headers') };
}
