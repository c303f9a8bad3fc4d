// The public face of rxmcp/gateway: it checks the options and wires the gateway's parts together (the
// serving side, the host calls, the Mcp-Param-* check); what each does lives in its own file.
import type { ExecuteOptions, ToolProvider } from '../tools/bridge.js';
import { batchTimeoutsOf } from '../tools/call-timeouts.js';
import type { InputHook } from '../protocol/input-request.js';
import type { McpClient } from '../client/mcp-client.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import { ToolSearch } from '../providers/tool-search.js';
import { deferrableTools } from '../tools/deferred-tools.js';
import type { PolicyQuestion } from '../providers/policy/policy.js';
import { VERSION } from '../version.js';
import { isObject } from '../util/values.js';
import { keysOf } from '../util/option-keys.js';
import { refuseUnknown } from '../util/refuse-unknown.js';
import { BusyHosts } from './busy-hosts.js';
import { HostCalls } from './host-calls.js';
import { HostSearches } from './host-searches.js';
import { httpGuard, type HttpGuardOptions } from './http-guard.js';
import { ParamHeaders } from './param-headers.js';
import { Serving } from './serving.js';
import { Upstreams } from './upstreams.js';

/** Options of `Gateway`. */
export interface GatewayOptions {
  /**
   * The provider stack whose tools are served, under the names its
   * `toolsForLlm` shows. A `ToolSearch` is forked per host (`fork()`): each
   * host is shown the always-loaded tools and `tool_search`, what its own
   * searches and calls load joins its list alone, and it is sent
   * `notifications/tools/list_changed` when that list changes.
   */
  provider: ToolProvider;
  /**
   * The upstream clients by the prefix their tools are shown under, for
   * resources, prompts, completion, list-changed notifications and logs. A
   * function is called each time its client is needed (`ConfigServer#client`
   * fits). The key `''` serves one server without a prefix, and must then be
   * the only one.
   */
  servers?: Record<string, McpClient | (() => McpClient)>;
  /** What joins a prefix and a prompt name (default `_`, as the `Registry`'s). */
  separator?: string;
  /** The name in `serverInfo` (default `rxmcp-gateway`). */
  name?: string;
  /** The version in `serverInfo` (default rxmcp's). */
  version?: string;
  /** Instructions for the host's model. */
  instructions?: string;
  /** Told what went wrong that no request could be told: an upstream list or notification stream that failed. */
  onWarn?: (message: string) => void;
  /**
   * Whether a host's "always" answer binds every host of the gateway (it is
   * handed to the Policy as it is, so it lands in the Policy's grants, or its
   * shared `grantsStore`), as the permission form then says. Default false:
   * it binds only the host that gave it, and the Policy is handed its once form.
   */
  sharedGrants?: boolean;
  /**
   * How long each host's call may run upstream, passed on as the batch's
   * options (see `ExecuteOptions`; `toolTimeouts` keyed by the names the
   * gateway serves). A host's call that carries a `progressToken` resets its
   * timeout at every progress report of the upstream server (which reaches
   * the host too), unless `resetTimeoutOnProgress` is set here; the host's
   * `notifications/cancelled` cancels it upstream. Left out, a call gets its
   * upstream client's `requestTimeoutMs`.
   */
  timeouts?: GatewayTimeouts;
}

/** The timeouts of `GatewayOptions`. */
export type GatewayTimeouts = Pick<ExecuteOptions, 'timeoutMs' | 'resetTimeoutOnProgress' | 'maxTotalTimeoutMs' | 'toolTimeouts'>;

const OPTION_KEYS = keysOf<GatewayOptions>({ provider: true, servers: true, separator: true, name: true, version: true, instructions: true, onWarn: true, sharedGrants: true, timeouts: true });

/**
 * Serves a tool provider stack (a `Registry` of servers behind a `Policy`,
 * `Reasons`, `Leases`…) as one MCP server, to any MCP host, in both protocol
 * eras: over stdio (`serveStdio`), as a fetch-style Streamable HTTP handler
 * (`fetchHandler`) or on a Node HTTP listener (`listen`). Tools come from the
 * provider; resources, prompts and completion are forwarded to the upstream
 * clients in `servers`. Questions (a `Policy` asking permission through
 * `ask`, an upstream server eliciting, sampling or listing roots) are put to
 * the host that made the call, through its own capabilities.
 *
 * Needs the optional peer `@modelcontextprotocol/server`, loaded on first serve.
 *
 * @example
 * ```ts
 * // The upstream clients need the hooks before the gateway, built last, exists: they read no gateway state.
 * let gateway: Gateway;
 * const hooks: InputHooks = {
 *   onElicit: (request) => gateway.upstreamHooks.onElicit(request),
 *   onElicitUrl: (request) => gateway.upstreamHooks.onElicitUrl(request),
 *   onSample: (request) => gateway.upstreamHooks.onSample(request),
 *   onListRoots: (request) => gateway.upstreamHooks.onListRoots(request),
 * };
 * const registry = Registry.fromConfig(config, { client: hooks });
 * const policy = new Policy({ provider: registry, rules: Policy.defaultRules(), onAsk: (question) => gateway.ask(question) });
 * gateway = new Gateway({ provider: policy, servers: Object.fromEntries(registry.providers.map(({ prefix, provider }) => [prefix, () => (provider as ConfigServer).client()])) });
 * await gateway.serveStdio();
 * ```
 */
export class Gateway {
  /**
   * Client-level hooks for the upstream clients (`Registry.fromConfig(config,
   * { client: gateway.upstreamHooks })`): they make the clients declare
   * elicitation (form and URL mode), sampling and roots, so servers may ask;
   * a question that no running call claims is declined. A URL-mode question
   * goes to the host whose call it is only when that host declared
   * `elicitation.url` and the URL passes `checkElicitationUrl`; otherwise a
   * 2025-era host's tool call fails with -32042 (the page in its data), a
   * 2026-07-28 host's with -32021 (`elicitation.url` required).
   */
  readonly upstreamHooks: { onElicit: InputHook; onElicitUrl: InputHook; onSample: InputHook; onListRoots: InputHook };

  private readonly hostCalls: HostCalls;
  private readonly serving: Serving;
  private readonly searches: HostSearches | undefined;

  /** @throws McpClientError for an unknown option, a missing provider or a malformed option. */
  constructor(options: GatewayOptions) {
    if (!isObject(options)) throw new McpClientError('Gateway needs options with a provider');
    refuseUnknown(options, OPTION_KEYS);
    const { provider, servers = {}, separator = '_', name = 'rxmcp-gateway', version = VERSION, instructions, onWarn, sharedGrants = false, timeouts = {} } = options;
    if (!isObject(provider) || typeof provider.toolsForLlm !== 'function' || typeof provider.executeToolCalls !== 'function') {
      throw new McpClientError('option provider must be a tool provider (toolsForLlm and executeToolCalls)');
    }
    if (typeof separator !== 'string' || separator === '') throw new McpClientError('option separator must be a non-empty string');
    for (const [key, value] of [['name', name], ['version', version]] as const) {
      if (typeof value !== 'string' || value === '') throw new McpClientError(`option ${key} must be a non-empty string`);
    }
    if (instructions !== undefined && typeof instructions !== 'string') throw new McpClientError('option instructions must be a string');
    if (onWarn !== undefined && typeof onWarn !== 'function') throw new McpClientError('option onWarn must be a function');
    if (typeof sharedGrants !== 'boolean') throw new McpClientError('option sharedGrants must be true or false');
    if (!isObject(timeouts)) throw new McpClientError('option timeouts must be an object');
    const callTimeouts = batchTimeoutsOf(timeouts);
    const warn = (message: string): void => {
      try {
        onWarn?.(message);
      } catch {
        // A listener that throws must not break serving.
      }
    };
    const upstreams = new Upstreams(servers, separator);
    const busy = new BusyHosts();
    // Behind a ToolSearch each host has its own list; the Mcp-Param-* check reads the whole catalogue, which any host may call.
    const searches = provider instanceof ToolSearch ? new HostSearches(provider, (principal) => this.serving.toolsChangedFor(principal)) : undefined;
    this.searches = searches;
    const paramHeaders = new ParamHeaders(searches ? { toolsForLlm: async () => (await deferrableTools(provider)).map(({ tool }) => tool) } : provider);
    this.hostCalls = new HostCalls({ provider, upstreams, busy, sharedGrants, timeouts: callTimeouts, onWarn: warn, ...(searches ? { hostProvider: (principal: string) => searches.of(principal) } : {}) });
    this.serving = new Serving({ provider, upstreams, info: { name, version }, instructions, onWarn: warn, hostCalls: this.hostCalls, busy, paramHeaders, ...(searches ? { searches } : {}) });
    const unclaimed: InputHook = () => {
      throw new McpClientError('no call made through the gateway claims this question');
    };
    this.upstreamHooks = { onElicit: unclaimed, onElicitUrl: unclaimed, onSample: unclaimed, onListRoots: unclaimed };
  }

  /**
   * For `Policy`'s `onAsk`: puts a permission question to the host whose
   * call it is (matched by `question.call.id`) as a form elicitation (allow
   * once, deny, always allow — under `question.suggestion` when there is one
   * — or always deny), showing the tool, the rule's note and the arguments
   * (bounded). The host's answer comes with its retry of the call (an
   * `input_required` round, both eras, with a `requestState` sealed to that
   * host, the tool and the arguments), and the call is decided again from
   * that answer; an answer a request brings without such a state is
   * ignored, and the host asked. An "always" answer binds that host alone
   * (the Policy is handed its once form) unless `sharedGrants`. Resolves
   * with a `PermissionAnswer`; rejects, so the Policy denies with the
   * reason, when that host declared no elicitation. An
   * `ElicitationQuestion` goes to the host of the one call running, under no
   * server's name (declined when there is not exactly one, when another host
   * has a request in flight, or when it imitates the permission form).
   */
  ask(question: PolicyQuestion): Promise<unknown> {
    return this.hostCalls.ask(question);
  }

  /**
   * Serves one host over stdio (this process's, or the streams given), in the
   * era the host opens with. Resolves when the host goes away.
   *
   * @throws McpClientError (as a rejection) when the server SDK is missing or the gateway is closed.
   */
  async serveStdio(io: { input?: NodeJS.ReadableStream; output?: NodeJS.WritableStream } = {}): Promise<void> {
    return this.serving.serveStdio(io);
  }

  /**
   * A fetch-style Streamable HTTP handler, `(Request) => Promise<Response>`,
   * for both eras: 2026-07-28 requests statelessly, 2025-era hosts on
   * sessions (at most 256 open, a further `initialize` refused 503; closed
   * after 30 minutes without a request, or by `DELETE`; an unknown session
   * id gets 404). `guard` is checked first on every request: Host, Origin,
   * bearer token.
   *
   * @throws McpClientError for a malformed guard option.
   */
  fetchHandler(guard: HttpGuardOptions = {}): (request: Request) => Promise<Response> {
    return this.serving.guarded(httpGuard(guard));
  }

  /**
   * Serves HTTP on a Node listener at `http://{host}:{port}{path}` (default
   * `127.0.0.1` and `/mcp`; port 0 picks a free one), other paths 404.
   * `bearerToken` is required, on loopback too: every account on the machine
   * can reach a loopback port. `bearerToken: false` serves without one, on
   * loopback only, for a caller that guards the port some other way.
   *
   * @throws McpClientError (as a rejection) for a missing `bearerToken`, `false` on a host that is not loopback, a malformed option, or a port that cannot be bound.
   */
  async listen(
    options: { port: number; host?: string; path?: string; bearerToken: string | false } & Omit<HttpGuardOptions, 'bearerToken'>,
  ): Promise<{ url: string; close(): Promise<void> }> {
    return this.serving.listen(options);
  }

  /** Stops serving: stdio connections, HTTP sessions and listeners close, waiting calls are cancelled. The provider stays open (its owner closes it). */
  async close(): Promise<void> {
    this.serving.stop();
    this.hostCalls.close();
    this.searches?.close();
    await this.serving.close();
  }
}
