import { randomUUID } from 'node:crypto';
import type { InputRequest } from '../protocol/input-request.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import { isObject } from '../util/values.js';

/** What a call knows of the downstream request that is serving it right now. */
export interface HostRequest {
  /** The capabilities the host declared: on this request (2026-07-28) or at initialize (2025-11-25). */
  capabilities: { elicitation?: unknown; sampling?: unknown; roots?: unknown };
  /** The answers the host sent with this request, untrusted. */
  inputResponses: Record<string, unknown> | undefined;
  /** Where progress goes, when the host asked for it. */
  progressToken: string | number | undefined;
  /** Sends a notification tied to this request. */
  notify(notification: { method: string; params: Record<string, unknown> }): Promise<void>;
  /** Aborts when the host cancels this request. */
  signal: AbortSignal;
  /**
   * Who the host is, as far as the transport can tell: its stdio connection,
   * its 2025-era HTTP session, or (2026-07-28 HTTP, which has no session)
   * its bearer token and client name. Answers and grants are bound to it.
   */
  principal: string;
}

/** A wire-ready input request, as `input_required` carries it. */
export interface WireInputRequest {
  method: string;
  params: Record<string, unknown>;
}

/** What a call comes to at the end of one downstream round. */
export type RoundOutcome<T> = { done: T } | { ask: Record<string, WireInputRequest> };

interface Question {
  request: WireInputRequest;
  resolve: (answer: unknown) => void;
  reject: (reason: Error) => void;
  sent: boolean;
}

/** The longest upstream question key passed on as it is. */
const MAX_KEY_CHARS = 256;

/** The client capability each question a server may ask needs. */
export const CAPABILITY: Record<string, 'elicitation' | 'sampling' | 'roots'> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** Whether a question is a URL-mode elicitation: a page for the person to open, which needs `elicitation.url`. */
export function isUrlElicitation(method: string, params: unknown): boolean {
  return method === 'elicitation/create' && isObject(params) && params.mode === 'url';
}

/** Whether a question is a sampling request that offers tools (SEP-1577), which needs `sampling.tools`. */
export function isSamplingWithTools(method: string, params: unknown): boolean {
  return method === 'sampling/createMessage' && isObject(params) && (params.tools !== undefined || params.toolChoice !== undefined);
}

/** The capability a question needs, dotted as `McpCapabilityError` and -32021 name it. */
export function neededCapability(method: string, params: unknown): string {
  if (isUrlElicitation(method, params)) return 'elicitation.url';
  if (isSamplingWithTools(method, params)) return 'sampling.tools';
  return CAPABILITY[method] ?? method;
}

/**
 * One downstream tools/call (or forwarded prompts/get, resources/read), from its first round to its result: the
 * upstream call runs once, and each question an upstream server asks it is
 * carried to the downstream host as a round of `input_required`, the call
 * waiting (parked by the gateway) until the host's retry brings the answer.
 */
export class RunningCall<T> {
  /** The call id the provider stack sees; unique per downstream call. */
  readonly id = `rxgw-${randomUUID()}`;
  /** Aborts the upstream call. */
  readonly controller = new AbortController();
  /** A permission question this round must put to the host (set by the gateway's `ask`). */
  permission: { key: string; request: WireInputRequest } | undefined;
  /** The answer to the permission question the gateway put to this host for this very request, as its retry brought it (untrusted), once. */
  permitted: { key: string; answer: unknown } | undefined;
  /** The host that made the call (`HostRequest.principal`). */
  readonly principal: string;
  private host: HostRequest | undefined;
  private readonly capabilities: HostRequest['capabilities'];
  private readonly questions = new Map<string, Question>();
  private asked = 0;
  private wake: (() => void) | undefined;
  private result: Promise<T> | undefined;
  private readonly cancelOnAbort = (): void => this.controller.abort();

  constructor(host: HostRequest) {
    this.capabilities = host.capabilities;
    this.principal = host.principal;
    this.attach(host);
  }

  /** Starts the upstream call (once the call can be found by its id). `run` never rejects. */
  begin(run: () => Promise<T>): void {
    this.result ??= run();
  }

  /** The downstream request serving the call now, if one is. */
  get current(): HostRequest | undefined {
    return this.host;
  }

  /**
   * Whether the host that made the call declared the capability a question
   * needs: for a URL-mode elicitation (`params.mode === 'url'`), `elicitation.url`
   * itself, since a host that declared only forms may not be sent a page to open;
   * for sampling that offers tools, `sampling.tools`.
   */
  hostCan(method: string, params?: unknown): boolean {
    const capability = CAPABILITY[method];
    if (capability === undefined || this.capabilities[capability] === undefined) return false;
    if (isSamplingWithTools(method, params)) {
      // Tools offered to a host's model that never said it can use them would be dropped or misread.
      const sampling = this.capabilities.sampling;
      return isObject(sampling) && sampling.tools !== undefined;
    }
    if (!isUrlElicitation(method, params)) return true;
    const elicitation = this.capabilities.elicitation;
    return isObject(elicitation) && elicitation.url !== undefined;
  }

  /** Ties the call to the downstream request now serving it: its cancellation cancels the call. */
  attach(host: HostRequest): void {
    this.host = host;
    if (host.signal.aborted) this.controller.abort();
    else host.signal.addEventListener('abort', this.cancelOnAbort, { once: true });
  }

  /** Unties it at the end of a round. */
  detach(): void {
    this.host?.signal.removeEventListener('abort', this.cancelOnAbort);
    this.host = undefined;
  }

  /**
   * An upstream server's question about this call, for the host. Declined
   * (rejects) when the host declared no capability for it.
   */
  ask(request: InputRequest): Promise<unknown> {
    if (!this.hostCan(request.method, request.params)) {
      const capability = neededCapability(request.method, request.params);
      return Promise.reject(new McpClientError(`the host declared no ${JSON.stringify(capability)} capability, so the question was declined`));
    }
    return new Promise((resolve, reject) => {
      this.questions.set(this.keyFor(request.key), { request: { method: request.method, params: { ...request.params } }, resolve, reject, sent: false });
      this.wake?.();
    });
  }

  /**
   * Gives the answers of the host's retry to the questions put to it: an
   * answer that is not an object, or none, declines (rejects) its question.
   */
  answer(responses: Record<string, unknown> | undefined): void {
    for (const [key, question] of this.questions) {
      if (!question.sent) continue;
      this.questions.delete(key);
      const answer = responses && Object.hasOwn(responses, key) ? responses[key] : undefined;
      if (isObject(answer)) question.resolve(answer);
      else question.reject(new McpClientError('the host gave no answer'));
    }
  }

  /** The call's end, or the questions to put to the host before it can go on. */
  async next(): Promise<RoundOutcome<T>> {
    const result = this.result;
    if (!result) throw new McpClientError('the call was never started');
    for (;;) {
      const waiting = this.unsent();
      if (waiting) return { ask: waiting };
      const woken = new Promise<'question'>((resolve) => (this.wake = () => resolve('question')));
      const first = await Promise.race([result.then((done) => ({ done })), woken]);
      this.wake = undefined;
      if (first !== 'question') return first;
      // Questions asked together (one upstream round) go to the host together.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Ends the call: it is cancelled upstream, and its questions are declined. */
  abandon(reason: string): void {
    this.controller.abort();
    for (const question of this.questions.values()) question.reject(new McpClientError(reason));
    this.questions.clear();
  }

  // The upstream server's own key, so the host sees the question as the
  // server filed it, when it is free in this round (two servers, or two
  // rounds of one, may reuse a key) and of a sane length, and not in the
  // gateway's own namespace (`rxmcp-`, its permission questions'); else one of ours.
  private keyFor(upstream: string | undefined): string {
    if (typeof upstream === 'string' && upstream !== '' && upstream.length <= MAX_KEY_CHARS && !upstream.startsWith('rxmcp-') && !this.questions.has(upstream)) return upstream;
    let key: string;
    do key = `rxmcp-q${++this.asked}`;
    while (this.questions.has(key));
    return key;
  }

  private unsent(): Record<string, WireInputRequest> | undefined {
    const waiting = [...this.questions].filter(([, question]) => !question.sent);
    if (waiting.length === 0) return undefined;
    for (const [, question] of waiting) question.sent = true;
    return Object.fromEntries(waiting.map(([key, question]) => [key, question.request]));
  }
}
