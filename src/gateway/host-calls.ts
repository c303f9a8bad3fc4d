// What happens between a host's tools/call (or a forwarded prompts/get, resources/read) and its answer:
// the provider stack runs the call, and every question on the way (a Policy asking permission, an upstream
// server eliciting, sampling or listing roots) goes back to that same host in rounds of input_required,
// while its progress is relayed. The serving side hands each request here.
import { randomUUID } from 'node:crypto';
import { failure, type ExecuteOptions, type ToolMessage, type ToolProvider } from '../tools/bridge.js';
import type { InputHook, InputHooks, InputRequest } from '../protocol/input-request.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import type { CallToolResult, ToolProgress } from '../protocol/types.js';
import type { PolicyQuestion } from '../providers/policy/policy.js';
import { isObject, messageOf } from '../util/values.js';
import { checkElicitationUrl } from '../client/questions/elicitation-url.js';
import { answerTooDeep, argumentsTooLarge, MAX_ANSWER_DEPTH } from './argument-bounds.js';
import type { BusyHosts } from './busy-hosts.js';
import { HostGrants } from './host-grants.js';
import { ElicitationCompletions } from './elicitation-completions.js';
import { ParkedCalls } from './parked-calls.js';
import { permissionAnswer, permissionForm, permissionKey } from './permission-form.js';
import { ProgressRelay } from './progress-relay.js';
import { requestBinding } from './request-state.js';
import { CAPABILITY, type HostRequest, isSamplingWithTools, isUrlElicitation, type RoundOutcome, RunningCall } from './running-call.js';
import type { SdkContext, ServerSdk } from './server-sdk.js';
import type { Upstreams } from './upstreams.js';
import { imitatesPermissionForm, underServerName } from './upstream-questions.js';

/** What `HostCalls` is given by the gateway. */
export interface HostCallsOptions {
  provider: ToolProvider;
  /** The provider a host's calls run on, when each host has its own (a `ToolSearch` forked per host); else `provider`. */
  hostProvider?: (principal: string) => ToolProvider;
  upstreams: Upstreams;
  /** The hosts with a request in flight, counted by the serving side. */
  busy: BusyHosts;
  /** `GatewayOptions.sharedGrants`. */
  sharedGrants: boolean;
  /** `GatewayOptions.timeouts`, checked. */
  timeouts: Pick<ExecuteOptions, 'timeoutMs' | 'resetTimeoutOnProgress' | 'maxTotalTimeoutMs' | 'toolTimeouts'>;
  onWarn: (message: string) => void;
}

/**
 * The calls hosts make through the gateway, from their first round to their
 * result: each is run once by the provider stack, parked while its host is
 * asked something, and resumed by the host's retry. Answers and "always"
 * grants are bound to the host that made the call.
 */
export class HostCalls {
  private readonly provider: ToolProvider;
  private readonly hostProvider: ((principal: string) => ToolProvider) | undefined;
  private readonly upstreams: Upstreams;
  private readonly busy: BusyHosts;
  private readonly sharedGrants: boolean;
  private readonly timeouts: HostCallsOptions['timeouts'];
  private readonly onWarn: (message: string) => void;
  private readonly calls = new Map<string, RunningCall<unknown>>();
  private readonly parked: ParkedCalls;
  private readonly hostGrants = new HostGrants();
  private readonly relays = new WeakMap<RunningCall<unknown>, ProgressRelay>();
  // The capabilities a 2026-07-28 host lacked for an upstream question its call asked: that call ends in -32021.
  private readonly missing = new WeakMap<RunningCall<CallToolResult>, Record<string, unknown>>();
  // The page a 2025-era host without `elicitation.url` must be sent to: that call ends in -32042.
  private readonly urlRequired = new WeakMap<RunningCall<CallToolResult>, UrlElicitation>();
  // The URL questions put to 2025-era hosts, so that the server's word that a page is done reaches that host alone.
  private readonly completions = new ElicitationCompletions();

  constructor(options: HostCallsOptions) {
    this.provider = options.provider;
    this.hostProvider = options.hostProvider;
    this.upstreams = options.upstreams;
    this.busy = options.busy;
    this.sharedGrants = options.sharedGrants;
    this.timeouts = options.timeouts;
    this.onWarn = options.onWarn;
    this.parked = new ParkedCalls((call, reason) => {
      call.abandon(reason);
      this.busy.linger(call.principal);
      this.calls.delete(call.id);
    });
  }

  /** `Gateway#ask`: a Policy's question, put to the host whose call it is (see there). */
  ask(question: PolicyQuestion): Promise<unknown> {
    if (question?.kind === 'elicitation') {
      const running = [...this.calls.values()].filter((call) => call.current && call.hostCan(question.method));
      const [only] = running;
      const request = { method: question.method, params: question.params };
      if (running.length !== 1 || !only || this.busyHosts() > 1 || imitatesPermissionForm(request)) return Promise.resolve({ action: 'decline' });
      return only.ask(underServerName(request, undefined));
    }
    const call = question?.kind === 'permission' ? this.calls.get(question.call?.id) : undefined;
    if (!call || question?.kind !== 'permission') {
      return Promise.reject(new McpClientError('no host made this call through the gateway, so there is nobody to ask'));
    }
    const key = permissionKey(question);
    const permitted = call.permitted;
    if (permitted?.key === key) {
      // Once: the answer is to this question, for this request.
      call.permitted = undefined;
      const answer = permissionAnswer(permitted.answer);
      return Promise.resolve(this.sharedGrants ? answer : this.hostGrants.keep(call.principal, question, answer));
    }
    const kept = this.sharedGrants ? undefined : this.hostGrants.decide(call.principal, question);
    if (kept) return Promise.resolve(kept);
    if (!call.hostCan('elicitation/create')) {
      return Promise.reject(new McpClientError('the MCP host declared no elicitation, so it could not be asked'));
    }
    call.permission = { key, request: { method: 'elicitation/create', params: permissionForm(question, this.sharedGrants) } };
    return Promise.reject(new McpClientError('the question was put to the MCP host'));
  }

  /** Forgets a host that went away (its connection or session was its identity): its "always" answers go with it. */
  forgetHost(principal: string): void {
    this.hostGrants.forget(principal);
    this.completions.forget(principal);
  }

  /**
   * A 2025-era host's session (or stdio connection), which can be sent
   * `notifications/elicitation/complete`: `send` reaches that session alone.
   * Forgotten with the host (`forgetHost`).
   */
  reachHost(principal: string, send: (notification: { method: string; params: Record<string, unknown> }) => Promise<void>): void {
    this.completions.reach(principal, send);
  }

  /**
   * An upstream server's `notifications/elicitation/complete` (`server` is
   * its prefix): passed on, under the id the host was given, to the one host
   * that was put that server's URL question; an id handed to no host is not passed on.
   */
  elicitationComplete(server: string, elicitationId: string): void {
    this.completions.complete(server, elicitationId, this.onWarn);
  }

  /** Cancels every call waiting for an answer: the gateway closed. */
  close(): void {
    this.parked.close();
  }

  /** Serves one round of a host's tools/call: the result, or an `input_required` for the host to answer on its retry. */
  async callTool(sdk: ServerSdk, host: HostRequest, params: Record<string, unknown>, ctx: SdkContext): Promise<unknown> {
    // Worked out only for a request that brings a state or is answered with one: most calls are neither.
    let bound: string | undefined;
    const binding = (): string => (bound ??= requestBinding(host.principal, 'tools/call', params));
    const state = ctx.mcpReq.requestState();
    let start: ((host: HostRequest) => RunningCall<CallToolResult>) | undefined;
    let permitted: RunningCall<unknown>['permitted'];
    if (typeof state === 'string') {
      const handle = this.parked.open(sdk, state, binding());
      const key = this.parked.questionIn(handle);
      if (key !== undefined) {
        // The retry of a call whose permission question this host was put: its answer to that question alone is read.
        const given = host.inputResponses;
        if (given && Object.hasOwn(given, key) && this.parked.firstAnswer(state)) permitted = { key, answer: given[key] };
      } else {
        start = (retry) => this.parked.resume(sdk, handle, retry, 'tools/call');
      }
    }
    if (!start) {
      const name = params.name;
      const args = params.arguments ?? {};
      if (typeof name !== 'string' || !isObject(args)) throw new sdk.ProtocolError(sdk.ProtocolErrorCode.InvalidParams, 'tools/call needs a name and an arguments object');
      const tooLarge = argumentsTooLarge(args);
      if (tooLarge) return { content: [{ type: 'text', text: tooLarge }], isError: true };
      // A 2026-07-28 request carries its capabilities with it; a 2025-era host declared them at initialize.
      const modern = ctx.mcpReq.envelope?.[sdk.CLIENT_CAPABILITIES_META_KEY] !== undefined;
      start = (first) => this.start(sdk, name, args, first, modern, permitted);
    }
    const outcome = await this.round(sdk, host, binding, 'tools/call', start);
    if ('reply' in outcome) return outcome.reply;
    const missing = this.missing.get(outcome.call);
    if (missing !== undefined) {
      const [name = ''] = Object.keys(missing);
      const spelled = isObject(missing.elicitation) && missing.elicitation.url !== undefined ? 'elicitation.url' : name;
      throw new sdk.MissingRequiredClientCapabilityError(
        { requiredCapabilities: missing },
        `The tool needs the ${JSON.stringify(spelled)} capability, which this request's client capabilities do not declare`,
      );
    }
    const page = this.urlRequired.get(outcome.call);
    if (page !== undefined) {
      throw new sdk.UrlElicitationRequiredError([page], 'The tool needs a page opened in a browser first; open it, then call the tool again');
    }
    const permission = outcome.call.permission;
    if (permission) {
      // The answer counts only on this host's retry of this very call: the state seals the question to both.
      const requestState = this.parked.sealQuestion(permission.key, binding());
      return sdk.inputRequired({ inputRequests: { [permission.key]: permission.request } as never, requestState });
    }
    if (answerTooDeep(outcome.done)) return { content: [{ type: 'text', text: `The result nests deeper than ${MAX_ANSWER_DEPTH} levels, so it was not passed on` }], isError: true };
    return outcome.done;
  }

  /**
   * Serves one round of a forwarded prompts/get or resources/read: `run`
   * does the upstream work once, its questions reaching the host in rounds
   * as a tool call's do. `request.server` is the prefix of the server asked.
   */
  async forward<T>(
    sdk: ServerSdk,
    host: HostRequest,
    ctx: SdkContext,
    method: string,
    request: { params: Record<string, unknown>; server: string | undefined },
    run: (input: InputHooks, signal: AbortSignal) => Promise<T>,
  ): Promise<unknown> {
    const binding = (): string => requestBinding(host.principal, method, request.params);
    const state = ctx.mcpReq.requestState();
    // A state sealed for a tools/call (a permission question's too) does not open here: the method is in its binding.
    const handle = typeof state === 'string' ? this.parked.open(sdk, state, binding()) : undefined;
    const outcome = await this.round<{ value: T } | { error: unknown }>(sdk, host, binding, method, (first) => {
      if (handle !== undefined) return this.parked.resume(sdk, handle, first, method);
      const call = new RunningCall<{ value: T } | { error: unknown }>(first);
      const ask = this.upstreamAsk(request.server, (question) => this.askHost(call, request.server, question));
      call.begin(() => run({ onElicit: ask, onElicitUrl: ask, onSample: ask, onListRoots: ask }, call.controller.signal).then((value) => ({ value }), (error: unknown) => ({ error })));
      return call;
    });
    if ('reply' in outcome) return outcome.reply;
    if ('error' in outcome.done) throw outcome.done.error;
    return outcome.done.value;
  }

  // One downstream round of a request whose upstream work may ask the host:
  // the call started, or resumed by the host's retry, runs until it ends or
  // has questions; then it is parked and the host gets input_required.
  private async round<T>(sdk: ServerSdk, host: HostRequest, binding: () => string, method: string, start: (host: HostRequest) => RunningCall<T>): Promise<{ reply: unknown } | { done: T; call: RunningCall<T> }> {
    const call = start(host);
    let outcome: RoundOutcome<T>;
    try {
      outcome = await call.next();
    } finally {
      // The last progress of the round reaches the host ahead of the round's answer.
      this.relays.get(call as RunningCall<unknown>)?.end();
      this.relays.delete(call as RunningCall<unknown>);
      call.detach();
    }
    if ('ask' in outcome) return { reply: this.parked.park(sdk, call, method, binding, outcome.ask) };
    this.calls.delete(call.id);
    return { done: outcome.done, call };
  }

  private start(sdk: ServerSdk, name: string, args: Record<string, unknown>, host: HostRequest, modern: boolean, permitted: RunningCall<unknown>['permitted']): RunningCall<CallToolResult> {
    const call = new RunningCall<CallToolResult>(host);
    call.permitted = permitted;
    this.calls.set(call.id, call as RunningCall<unknown>);
    // The 2026-07-28 spec has a server that needs an undeclared capability refuse the request (-32021)
    // rather than go on without it: the upstream call is cancelled and the host told what to declare
    // (`elicitation.url` for a page to open). A 2025-era host has no such error, so its question is declined
    // and the call goes on; but a page to open has one, -32042, which hands the host the page with the
    // call's error, so the host's person can open it and call again.
    const server = this.upstreams.prefixOf(name, 'name');
    const ask = this.upstreamAsk(server, (request) => {
      const capability = CAPABILITY[request.method];
      const url = isUrlElicitation(request.method, request.params);
      if (capability !== undefined && !call.hostCan(request.method, request.params) && !this.missing.has(call) && !this.urlRequired.has(call)) {
        if (modern || url) {
          const needed = url ? { elicitation: { url: {} } } : isSamplingWithTools(request.method, request.params) ? { sampling: { tools: {} } } : { [capability]: {} };
          if (modern) this.missing.set(call, needed);
          else this.urlRequired.set(call, urlElicitationOf(request.params));
          call.controller.abort();
          this.busy.linger(call.principal);
        }
      }
      return this.askHost(call, server, request);
    });
    call.begin(async () => {
      let raw: CallToolResult | undefined;
      const options: ExecuteOptions = {
        ...this.timeouts,
        // A host that asked for progress hears the upstream's, so a call that reports it is alive stays alive.
        ...(host.progressToken !== undefined && this.timeouts.resetTimeoutOnProgress === undefined ? { resetTimeoutOnProgress: true } : {}),
        signal: call.controller.signal,
        onResult: (id, result) => {
          if (id === call.id) raw = result;
        },
        onProgress: (progress) => {
          if (progress.toolCallId === call.id) this.progress(call, progress);
        },
        input: { onElicit: ask, onElicitUrl: ask, onSample: ask, onListRoots: ask },
      };
      let message: ToolMessage | undefined;
      try {
        [message] = await (this.hostProvider?.(host.principal) ?? this.provider).executeToolCalls([{ id: call.id, type: 'function', function: { name, arguments: args } }], options);
      } catch (error) {
        message = failure(call.id, messageOf(error));
      }
      // A result the SDK would not write out as one (malformed blocks) goes as the text it flattens to.
      if (raw && sdk.isCallToolResult(raw)) return raw;
      const answer = message ?? failure(call.id, 'the provider gave no answer for this call');
      return {
        content: [{ type: 'text', text: answer.content }],
        isError: answer.is_error,
        ...(answer.structured_content === undefined ? {} : { structuredContent: answer.structured_content as Record<string, unknown> }),
      };
    });
    return call;
  }

  // Coalesced (latest value, bounded rate): an upstream server flooding progress cannot flood the host.
  private progress(call: RunningCall<unknown>, progress: ToolProgress): void {
    const host = call.current;
    if (host?.progressToken === undefined) return;
    const params: Record<string, unknown> = { progressToken: host.progressToken, progress: progress.progress };
    if (progress.total !== undefined) params.total = progress.total;
    if (progress.message !== undefined) params.message = progress.message;
    let relay = this.relays.get(call);
    if (!relay) this.relays.set(call, (relay = new ProgressRelay()));
    relay.push(() => {
      host.notify({ method: 'notifications/progress', params }).catch((error: unknown) => this.onWarn(`progress could not be sent: ${messageOf(error)}`));
    });
  }

  // An upstream server's question on its way to the call's host: one shaped like the permission form is refused; a
  // 2025-era one (which the wire may tie to no call) is declined while another host has any request in flight,
  // since it may be that host's; an elicitation says which server asks (`server`, the prefix of its tools).
  // A page to open is checked here too, whatever the upstream client checked (`checkElicitationUrl`): one that
  // is not https (or http to this machine), carries a user name or control characters, is declined and reaches
  // no host, not even inside a -32042; one that passes goes on in the parser's spelling.
  private upstreamAsk(server: string | undefined, ask: (request: InputRequest) => Promise<unknown>): InputHook {
    return (request) => {
      const refused = imitatesPermissionForm(request);
      if (refused) return Promise.reject(new McpClientError(refused));
      let passed = request;
      if (isUrlElicitation(request.method, request.params)) {
        const checked = checkElicitationUrl(request.params.url);
        if (!checked.ok) return Promise.reject(new McpClientError(`the server's page was not passed on: ${checked.reason}`));
        passed = { ...request, params: { ...request.params, url: checked.url } };
      }
      if (request.key === undefined && this.busyHosts() > 1) {
        return Promise.reject(new McpClientError('more than one host has a request in flight, and the server tied its question to no call, so it was declined'));
      }
      return ask(underServerName(passed, server));
    };
  }

  // A question put to the call's host. A URL question a 2025-era host can take goes as a request under an
  // elicitationId of its own: the server's when it is sane, else one made up (the SDK would make up one we
  // could not know); it is remembered, so the server's completion of it is passed on to this host once it answered.
  private askHost<T>(call: RunningCall<T>, server: string | undefined, request: InputRequest): Promise<unknown> {
    if (!isUrlElicitation(request.method, request.params) || !call.hostCan(request.method, request.params)) return call.ask(request);
    // `prefixOf` gives no prefix for the one unprefixed server, whose completions come under ''.
    const source = server ?? (this.upstreams.clients(() => undefined).some(([prefix]) => prefix === '') ? '' : undefined);
    const handed = source === undefined ? undefined : this.completions.handOut(call.principal, source, request.params.elicitationId);
    if (!handed) return call.ask(request);
    const asked = call.ask({ ...request, params: { ...request.params, elicitationId: handed.hostId } });
    // Once answered, however: a completion heard before goes out then, after the host has its request's answer.
    const settled = (): void => handed.answered(this.onWarn);
    asked.then(settled, settled);
    return asked;
  }

  // How many hosts have a request in flight, a call waiting for their answer, or a request given up whose server may still ask.
  private busyHosts(): number {
    return this.busy.count(this.parked.principals());
  }
}

/** A page a host must open before its call can go on, as -32042 carries it. */
interface UrlElicitation {
  mode: 'url';
  elicitationId: string;
  url: string;
  message: string;
}

/** The longest upstream `elicitationId` passed on as it is. */
const MAX_ELICITATION_ID_CHARS = 256;

// The -32042 entry for a URL question already checked and named (upstreamAsk): the spec wants an
// `elicitationId` on each, so one the server left out (or made unreasonably long) is made up.
function urlElicitationOf(params: Record<string, unknown>): UrlElicitation {
  const id = params.elicitationId;
  return {
    mode: 'url',
    elicitationId: typeof id === 'string' && id !== '' && id.length <= MAX_ELICITATION_ID_CHARS ? id : `rxmcp-${randomUUID()}`,
    url: String(params.url),
    message: typeof params.message === 'string' ? params.message : '',
  };
}

