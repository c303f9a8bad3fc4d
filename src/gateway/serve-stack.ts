import { hostname } from 'node:os';
import type { ToolProvider } from '../tools/bridge.js';
import type { McpClient } from '../client/mcp-client.js';
import type { InputRequest } from '../protocol/input-request.js';
import type { TokenStore } from '../auth/auth-options.js';
import { isSecureUrl } from '../auth/oauth-http.js';
import type { HttpServerEntry, ServerConfig, ServerEntry } from '../config/server-config.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import { FileGrants } from '../node/file-grants.js';
import { FilePins } from '../node/file-pins.js';
import { Pins } from '../providers/pins/pins.js';
import { MemoryPins, type PinsStore } from '../providers/pins/pins-store.js';
import type { ConfigServer, ServerClientOptions } from '../providers/config-server.js';
import { configServers } from '../providers/config-servers.js';
import { DEFAULT_ENFORCED_TOOLS, Leases } from '../providers/leases/leases.js';
import { LeaseTable } from '../providers/leases/lease-table.js';
import type { LeaseStore } from '../providers/leases/lease-store.js';
import type { GrantsStore } from '../providers/policy/grants-store.js';
import { Policy } from '../providers/policy/policy.js';
import { Reasons } from '../providers/reasons.js';
import { ToolSearch } from '../providers/tool-search.js';
import { Registry } from '../providers/registry.js';
import { Gateway, type GatewayTimeouts } from './gateway.js';
import type { PolicyFile } from '../providers/policy/policy-file.js';

/** How long an upstream stdio server is given to exit after its stdin is closed, and again after SIGTERM, when the gateway stops. */
const UPSTREAM_KILL_GRACE_MS = 500;

/** What `buildServeStack` is given. */
export interface ServeStackOptions {
  /** The servers, read and resolved (`readServerConfig`). */
  config: ServerConfig;
  /** The policy file, read (`readPolicyFile`); without one, `Policy.defaultRules()` and nothing shared. */
  policy?: PolicyFile;
  /** Serve the config's one enabled server under its own tool names (no prefix). */
  noPrefix?: boolean;
  /**
   * Put a `ToolSearch` in front of the stack: each host is shown the tools
   * of the servers marked `alwaysLoad` and `tool_search`, and what its own
   * searches find (see `Gateway`'s `provider`).
   */
  toolSearch?: boolean;
  /** Where the kept tokens of `rxmcp login` are, for HTTP servers that want a sign-in. */
  tokenStore: TokenStore;
  /** Told what the stack has to say (a server left out, a sign-in needed), one line each. */
  onWarn: (message: string) => void;
  /** Told each upstream stdio server's stderr lines (by server name); not given, they are dropped. */
  onStderr?: (server: string, line: string) => void;
  /**
   * Told what each upstream client papered over (an answer no request waits
   * for, a question no host's call claims, a stdout line that is no
   * JSON-RPC), one line each after the server's name: what `rxmcp serve
   * --verbose` adds. Not given, it is dropped: nobody can act on it.
   */
  onDetail?: (message: string) => void;
  /** How long each host's call may run upstream (`GatewayOptions.timeouts`; `rxmcp serve --timeout`). */
  timeouts?: GatewayTimeouts;
  /** The file the tools' pins are kept in (`FilePins`) when the policy file names neither `pinsFile` nor `redis`; without it, pins last as long as the process. */
  pinsPath?: string;
}

/** The stack `rxmcp serve` serves, and how to take it down. */
export interface ServeStack {
  gateway: Gateway;
  policy: Policy;
  /**
   * Starts every upstream server and reads its tools now, rather than at the
   * host's first tool list, so that their start overlaps the host's own
   * opening. Says nothing: a server that fails is reported, and started
   * afresh, when the host lists the tools.
   */
  startServers(): void;
  /** Stops serving, then closes every upstream server and the shared stores. Idempotent. */
  close(): Promise<void>;
}

/**
 * Builds what `rxmcp serve` serves: the config's servers (`Registry.fromConfig`,
 * each signing in with the kept tokens of `rxmcp login`), `Pins` over them
 * (in Redis with the policy file's `redis`, else in a file), then `Leases` when
 * the policy file turns them on, `Reasons`, `Policy` (asking the downstream
 * host through the gateway, its grants in Redis or a file when the policy
 * file says so), with `toolSearch` a `ToolSearch` (forked per host), and the
 * `Gateway` over it all.
 *
 * @throws McpClientError for `noPrefix` with other than one enabled server, or a config the Registry refuses.
 */
export async function buildServeStack(options: ServeStackOptions): Promise<ServeStack> {
  const { config, policy: file, noPrefix = false, toolSearch = false, tokenStore, onWarn, onStderr, onDetail, timeouts, pinsPath } = options;
  // The gateway is made last, over the stack; the hooks below are only called
  // once servers run and calls are made, by which time it exists.
  let gateway: Gateway | undefined;
  const late = (): Gateway => {
    if (!gateway) throw new McpClientError('the gateway is not serving yet');
    return gateway;
  };
  const client: ServerClientOptions = {
    clientName: 'rxmcp-serve',
    onElicit: (request: InputRequest) => late().upstreamHooks.onElicit(request),
    onElicitUrl: (request: InputRequest) => late().upstreamHooks.onElicitUrl(request),
    onSample: (request: InputRequest) => late().upstreamHooks.onSample(request),
    onListRoots: (request: InputRequest) => late().upstreamHooks.onListRoots(request),
    // Declared by hand: every kind of question may be passed on to the host
    // whose call it belongs to (each is checked against what that host
    // declared), but roots are the hosts' and change without the gateway
    // hearing of it, so `roots.listChanged` (which the hook alone would
    // declare) would be a promise nobody keeps.
    clientCapabilities: { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: {} },
    sampleWithTools: true,
    // No authorize hook: nobody is at a browser, so a server with no kept
    // tokens fails alone, its error saying to sign in with rxmcp login.
    auth: { tokenStore },
    // The host that started the gateway waits only so long for it to exit
    // (rxmcp's own client 2 s after closing stdin), and each stdio server
    // must be gone before then: stdin closed, SIGTERM, SIGKILL, this apart.
    killGraceMs: UPSTREAM_KILL_GRACE_MS,
  };
  // Keyed by the config's server names: `__proto__` is one like any other.
  const servers: Record<string, ServerClientOptions> = Object.create(null) as Record<string, ServerClientOptions>;
  const trusted = new Set(file?.trustAnnotations);
  for (const name of trusted) {
    if (!config.servers.some((entry) => entry.name === name && !entry.disabled)) onWarn(`the policy file trusts the annotations of ${JSON.stringify(name)}, which the config does not run`);
  }
  for (const entry of config.servers) {
    if (entry.disabled) continue;
    const own: ServerClientOptions = { onWarn: (message: string) => onDetail?.(`server ${JSON.stringify(entry.name)}: ${message}`) };
    // Only a server the policy file names has its tools' hints count (readOnly rules, overlapping batches).
    if (trusted.has(entry.name)) own.trustAnnotations = true;
    // A server given its own credentials, or one a token must not travel to in the clear, gets no sign-in.
    if (entry.transport === 'http' && !signsIn(entry)) own.auth = undefined;
    if (entry.transport === 'stdio' && onStderr) own.onStderr = (line: string) => onStderr(entry.name, line);
    servers[entry.name] = own;
  }

  let tools: ToolProvider;
  let upstreams: Record<string, () => McpClient>;
  let closeServers: () => Promise<void>;
  let servedByConfig: ToolProvider[];
  let roots: Record<string, string> = { ...file?.roots };
  if (noPrefix) {
    const enabled = config.servers.filter((entry) => !entry.disabled);
    if (enabled.length !== 1) throw new McpClientError(`--no-prefix serves one server, and the config enables ${enabled.length}`);
    const built = configServers(config, { client, servers, onWarn });
    const only = (built.servers[0] as { name: string; provider: ConfigServer }).provider;
    tools = only;
    servedByConfig = [only];
    upstreams = { '': () => only.client() };
    closeServers = async () => {
      await only.close();
      built.end();
    };
    // Its tools keep their own names, so a root written for the server's name applies to all of them.
    const name = (enabled[0] as ServerEntry).name;
    if (Object.hasOwn(roots, name)) roots = { '': roots[name] as string };
  } else {
    const registry = Registry.fromConfig(config, { client, servers, onWarn });
    tools = registry;
    servedByConfig = registry.providers.map(({ provider }) => provider);
    upstreams = Object.fromEntries(registry.providers.map(({ prefix, provider }) => [prefix, () => (provider as ConfigServer).client()]));
    // A root written under a server's name is that server's alone: read as a
    // bare tool-name prefix, "fs" would also give server "fsx" its folder, and
    // fsx's relative paths would be judged against a folder fsx never uses.
    const named = new Set(registry.providers.map(({ prefix }) => prefix));
    roots = Object.fromEntries(Object.entries(roots).map(([key, dir]) => [named.has(key) ? `${key}_` : key, dir]));
    closeServers = () => registry.close();
  }

  const shared = await sharedStores(file);
  // Right over the servers, so that it reads their definitions under the
  // names they are served by. Nobody at the gateway can approve a change: a
  // changed tool stays hidden, with a line on stderr (see docs/gateway.md).
  const pinsFile = file?.pinsFile ?? pinsPath;
  tools = new Pins({ provider: tools, store: shared.pins ?? (pinsFile ? new FilePins({ path: pinsFile }) : new MemoryPins()), onWarn });
  const agentId = `rxmcp-serve@${hostname()}:${process.pid}`;
  if (file?.leases) {
    const names = noPrefix ? [] : config.servers.filter((entry) => !entry.disabled).map((entry) => entry.name);
    tools = new Leases({
      inner: tools,
      table: shared.leases ?? new LeaseTable(),
      agentId,
      roots,
      // The writing tools of server-filesystem and the fs_ names, under each server's prefix too.
      enforcedTools: [...DEFAULT_ENFORCED_TOOLS, ...names.flatMap((name) => DEFAULT_ENFORCED_TOOLS.map((tool) => `${name}_${tool}`))],
    });
  }
  const grantsStore: GrantsStore | undefined = shared.grants ?? (file?.grantsFile ? new FileGrants({ path: file.grantsFile }) : undefined);
  const policy = new Policy({
    provider: new Reasons({ provider: tools }),
    rules: file?.rules ?? Policy.defaultRules(),
    roots,
    onAsk: (question) => late().ask(question),
    ...(grantsStore ? { grantsStore } : {}),
    ...(file?.locationKeys ? { locationKeys: file.locationKeys } : {}),
    ...(file?.caseInsensitivePaths === undefined ? {} : { caseInsensitivePaths: file.caseInsensitivePaths }),
  });
  // Outermost, so a search never offers what the policy denies outright, and searching asks no one.
  const provider = toolSearch ? new ToolSearch({ provider: policy, onWarn }) : policy;
  gateway = new Gateway({ provider, servers: upstreams, onWarn, sharedGrants: file?.sharedGrants ?? false, ...(timeouts ? { timeouts } : {}) });

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      await (gateway as Gateway).close().catch(() => undefined);
      await closeServers().catch(() => undefined);
      await shared.close();
    })());
  const startServers = (): void => {
    for (const server of servedByConfig) void server.toolsForLlm({ names: 'real' }).catch(() => undefined);
  };
  return { gateway, policy, startServers, close };

  // The leases this process holds go with it; the table and the book stay for the fleet.
  async function sharedStores(policyFile: PolicyFile | undefined): Promise<{ grants?: GrantsStore; leases?: LeaseStore; pins?: PinsStore; close(): Promise<void> }> {
    if (!policyFile?.redis) return { close: async () => undefined };
    const { RedisGrants, RedisLeaseTable, RedisPins } = await loadRedis();
    const { url, namespace } = policyFile.redis;
    const grants = new RedisGrants({ url, namespace });
    const pins = new RedisPins({ url, namespace });
    const leases = policyFile.leases ? new RedisLeaseTable({ url, namespace }) : undefined;
    return {
      grants,
      pins,
      ...(leases ? { leases } : {}),
      close: async () => {
        await leases?.releaseHolder(agentId).catch(() => undefined);
        await Promise.all([grants.close(), pins.close(), leases?.close()]);
      },
    };
  }
}

// rxmcp/redis needs the `redis` package, an optional peer: loaded only when a policy names Redis.
async function loadRedis(): Promise<typeof import('../redis/index.js')> {
  try {
    return await import('../redis/index.js');
  } catch (error) {
    throw new McpClientError('the policy file names a Redis server, and that needs the redis package: npm install redis', { cause: error });
  }
}

function signsIn(entry: HttpServerEntry): boolean {
  const own = Object.keys(entry.headers).some((name) => name.toLowerCase() === 'authorization');
  let secure = false;
  try {
    secure = isSecureUrl(new URL(entry.url));
  } catch {
    // A URL that does not parse gets no token; its client says what is wrong.
  }
  return !own && secure;
}
