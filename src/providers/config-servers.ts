import { BehaviorSubject, type Observable } from 'rxjs';
import { CONNECT_STDIO_KEYS, McpClient } from '../client/mcp-client.js';
import { HTTP_OPTION_KEYS } from '../transport/http-options.js';
import { normalizeServerConfig } from '../config/normalize-server-config.js';
import { firstPlaceholder, resolveFromProcess } from '../config/placeholders.js';
import { checkHeaders } from '../config/header-check.js';
import type { ServerConfig, ServerEntry } from '../config/server-config.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import { McpConfigError } from '../errors/config-errors.js';
import { isObject } from '../util/values.js';
import { ConfigServer, type ServerClientOptions, type ServerStatus } from './config-server.js';
import type { CatalogueStore } from './catalogue-store.js';
import { configFingerprint } from './config-fingerprint.js';
import { StoredTools } from './stored-tools.js';

/** Options of `Registry.fromConfig`. */
export interface FromConfigOptions {
  /** Client options for every server: hooks, timeouts, `auth` (with one token store for all), `onStderr`… */
  client?: ServerClientOptions;
  /** Client options for one server, by its name in the config, laid over `client`. */
  servers?: Record<string, ServerClientOptions>;
  /** What joins a server's name and a tool's name (default `_`). */
  separator?: string;
  /** Called when a server's tools are left out, and with each server's own warnings (after `server "NAME": `). */
  onWarn?: (message: string) => void;
  /**
   * Where each server's tool list is kept between runs (`FileCatalogue`
   * from `rxmcp/node`, `MemoryCatalogue`, or your own `CatalogueStore`).
   * With one, a server whose entry is stored, recent (`maxAgeMs`) and made
   * for its config entry as it is now is not started by a catalogue read:
   * its stored tools answer, and it starts on its first call. The others,
   * and every `alwaysLoad` server, start on the first read as without one,
   * and what they list is stored. See docs/config.md.
   */
  catalogue?: CatalogueStore;
}

// Keys only one transport knows: left out for a server of the other, since
// `client` applies to every server whatever it speaks.
const STDIO_ONLY = CONNECT_STDIO_KEYS.filter((key) => key !== 'onWarn');
const HTTP_ONLY = HTTP_OPTION_KEYS.filter((key) => key !== 'onWarn');
// What the config itself says of each server: options may not override it.
const FROM_CONFIG = ['command', 'args', 'env', 'cwd', 'url', 'headers', 'httpTransport'];

/** The servers of a config as providers, with their statuses. */
export interface ConfigServers {
  servers: Array<{ name: string; provider: ConfigServer }>;
  status$: Observable<ReadonlyMap<string, ServerStatus>>;
  /** Ends `status$`; called once the servers are closed. */
  end(): void;
}

/**
 * Builds one provider per enabled server of a config, and the status map a
 * user interface watches. A config given as an object (not a
 * `ServerConfig`) has its warnings said through `onWarn`; one that still
 * holds placeholders has them filled in from `process.env` in Node.
 *
 * @throws McpConfigError for a config that does not read, or (outside Node) one whose placeholders were never resolved.
 * @throws McpClientError for options naming a server the config lacks, or setting what the config says.
 */
export function configServers(config: unknown, options: FromConfigOptions = {}): ConfigServers {
  const given = isServerConfig(config);
  let read = given ? config : normalizeServerConfig(config);
  // A ServerConfig's warnings are its reader's to show; an object's have nobody else to say them.
  if (!given) for (const warning of read.warnings ?? []) options.onWarn?.(warning.message);
  const unresolved = firstPlaceholder(read);
  if (unresolved) {
    // In Node the environment is at hand; in a browser there is none to read, and the caller must say where values come from.
    const resolved = resolveFromProcess(read);
    if (resolved === undefined) {
      const { source, server, key } = unresolved;
      throw new McpConfigError({ source, server, key }, 'holds a placeholder: resolve it first (resolvePlaceholders, or readServerConfig from rxmcp/node)');
    }
    read = resolved;
  }
  const perServer = options.servers ?? {};
  for (const name of Object.keys(perServer)) {
    if (!read.servers.some((entry) => entry.name === name)) throw new McpClientError(`options.servers names ${JSON.stringify(name)}, which the config does not define`);
  }
  const catalogue = checkCatalogue(options.catalogue);
  const statuses = new Map<string, ServerStatus>();
  const errors = new Map(read.servers.map((entry) => [entry, entry.error ?? unhonoured(entry, read.source)]));
  for (const entry of read.servers) {
    const error = errors.get(entry);
    statuses.set(entry.name, entry.disabled ? { state: 'disabled' } : error ? { state: 'failed', error } : { state: 'starting' });
  }
  // Replayed to each subscriber: a UI that subscribes late sees where every server stands.
  const status = new BehaviorSubject<ReadonlyMap<string, ServerStatus>>(new Map(statuses));
  const report = (name: string) => (next: ServerStatus) => {
    const last = statuses.get(name);
    if (last?.state === next.state && last.tools === next.tools && last.error === next.error) return;
    statuses.set(name, next);
    if (!status.closed) status.next(new Map(statuses));
  };
  const servers = read.servers
    .filter((entry) => !entry.disabled)
    .map((entry) => {
      const given = { ...options.client, ...(Object.hasOwn(perServer, entry.name) ? perServer[entry.name] : {}) };
      for (const key of FROM_CONFIG) if (Object.hasOwn(given, key)) throw new McpClientError(`option ${key} comes from the config, for server ${JSON.stringify(entry.name)}`);
      // A server whose placeholders could not be filled in fails every read with that reason; the others start.
      const error = errors.get(entry);
      const start = (): McpClient => {
        if (error) throw error;
        checkHeaders(entry, { source: entry.source ?? read.source, server: entry.name });
        return connect(entry, given, options.onWarn);
      };
      const trustAnnotations = given['trustAnnotations'] === true;
      const stored = catalogue && !entry.alwaysLoad && !error ? storedTools(entry, catalogue, options.onWarn) : undefined;
      return { name: entry.name, provider: new ConfigServer(entry, start, report(entry.name), { trustAnnotations, ...(stored ? { stored } : {}) }) };
    });
  return { servers, status$: status.asObservable(), end: () => status.complete() };
}

// An envFile or headersHelper still in an entry was never honoured (that is
// readServerConfig's work, in Node): the server would start without them.
function unhonoured(entry: ServerEntry, source: string | undefined): McpConfigError | undefined {
  const key = entry.transport === 'stdio' ? (entry.envFile === undefined ? undefined : 'envFile') : entry.headersHelper === undefined ? undefined : 'headersHelper';
  if (key === undefined) return undefined;
  return new McpConfigError({ source: entry.source ?? source, server: entry.name, key }, 'is honoured by readServerConfig (rxmcp/node), which reads the file; the server does not start without it');
}

function connect(entry: ServerEntry, given: Record<string, unknown>, onWarn: ((message: string) => void) | undefined): McpClient {
  const options: Record<string, unknown> = {};
  const foreign = entry.transport === 'stdio' ? HTTP_ONLY : STDIO_ONLY;
  for (const key of Object.keys(given)) if (!foreign.includes(key) && given[key] !== undefined) options[key] = given[key];
  if (options['onWarn'] === undefined && onWarn) options['onWarn'] = (message: string) => onWarn(`server ${JSON.stringify(entry.name)}: ${message}`);
  if (entry.transport === 'stdio') {
    const { command, args, env, cwd } = entry;
    return McpClient.connectStdio({ ...options, command, args, env: { ...env }, ...(cwd === undefined ? {} : { cwd }) });
  }
  return McpClient.connectHttp({ ...options, url: entry.url, headers: { ...entry.headers }, httpTransport: entry.httpTransport });
}

function checkCatalogue(catalogue: unknown): CatalogueStore | undefined {
  if (catalogue === undefined) return undefined;
  const store = catalogue as Partial<CatalogueStore> | null;
  if (typeof store?.get !== 'function' || typeof store.set !== 'function') throw new McpClientError('option catalogue must be a CatalogueStore (get and set), such as FileCatalogue');
  return store as CatalogueStore;
}

function storedTools(entry: ServerEntry, catalogue: CatalogueStore, onWarn: ((message: string) => void) | undefined): StoredTools {
  let fingerprint: Promise<string> | undefined;
  const warn = (message: string) => onWarn?.(`server ${JSON.stringify(entry.name)}: ${message}`);
  return new StoredTools(entry.name, catalogue, () => (fingerprint ??= configFingerprint(entry)), warn);
}

function isServerConfig(value: unknown): value is ServerConfig {
  return isObject(value) && typeof value['format'] === 'string' && Array.isArray(value['servers']);
}
