import { defer, filter, finalize, type Observable, type Subscriber, type TeardownLogic } from 'rxjs';
import { McpClientError } from '../../errors/mcp-client-error.js';
import { checkCallHooks } from '../../protocol/input-request.js';
import type { CallToolResult, ProgressEvent } from '../../protocol/types.js';
import { checkDuration } from '../../util/checks.js';
import { messageOf } from '../../util/values.js';
import { CALL_TOOL_KEYS, type CallOptions, type CallToolOptions, checkCallOptions, INPUT_CALL_KEYS, type InputCallOptions } from '../options.js';
import { type Settings } from '../settings.js';
import type { Session } from '../session.js';
import type { ProgressTokens } from '../streams.js';
import { type CallBounds, callBounds, risingProgress } from './call-budget.js';
import { BodyCall } from './call-guard.js';
import type { CallInput, CallInputs } from './call-inputs.js';
import type { CallPipeline } from './call-pipeline.js';
import type { Deadlines } from '../../util/deadlines.js';
import type { OutputSchemas } from './output-schemas.js';
import { startToolCall, ToolCall, type ToolCallHost } from './tool-call.js';

type Meta = Record<string, unknown> | undefined;

/**
 * A tool call's options when it is given none: one shared, frozen object
 * rather than a fresh `{}` (56 bytes) on the path every call takes. The
 * starter knows it by identity, and starts such a call with nothing to check.
 */
export const NO_CALL_OPTIONS: CallToolOptions = Object.freeze({});

/** What the call starter needs from its client. */
export interface CallStarterContext {
  settings: Pick<Settings, 'requestTimeoutMs' | 'tasks' | 'onProgress' | 'warn'>;
  /** True once the client is closing: a call then fails at once. */
  isClosing(): boolean;
  /** The session, once the era is known. */
  currentSession(): Session | undefined;
  /** The shared probe that finds the session. */
  probing$: Observable<Session>;
  deadlines: Deadlines;
  calls: CallPipeline;
  outputs: OutputSchemas;
  inputs: CallInputs;
  tokens: ProgressTokens;
  progress$: Observable<ProgressEvent>;
}

/**
 * How the client starts a call: its options checked, its bounds worked out
 * (see `call-budget.ts`), its own hooks filed and its progress token minted
 * when it needs them, and the call begun once the era is known. The client
 * owns one and hands every call to it.
 */
export class CallStarter {
  /** What every bounded call reads of the client, one object for all of them. */
  readonly host: ToolCallHost;
  // The bounds of a call given no options: the client's budget, nothing else.
  private readonly plainBounds: CallBounds;
  private readonly settings: CallStarterContext['settings'];
  private readonly inputs: CallInputs;
  private readonly tokens: ProgressTokens;
  private readonly progress$: Observable<ProgressEvent>;

  constructor(context: CallStarterContext) {
    this.settings = context.settings;
    this.inputs = context.inputs;
    this.tokens = context.tokens;
    this.progress$ = context.progress$;
    this.host = new ClientHost(context.isClosing, context.currentSession, context.probing$, context.deadlines, context.calls, context.outputs);
    this.plainBounds = Object.freeze(callBounds(NO_CALL_OPTIONS, this.settings.requestTimeoutMs, undefined, undefined));
  }

  /** A call with its options checked against `allowed`: bounded, and begun (`body`) once the era is known. */
  run<T>(
    method: string,
    options: CallOptions,
    allowed: readonly string[],
    body: (session: Session) => Observable<T>,
    bounds: Omit<CallBounds, 'timeoutMs' | 'signal'> = {},
  ): Observable<T> {
    checkCallOptions(options, allowed);
    return this.bounded<T>(method, options, (session, subscriber) => body(session).subscribe(subscriber), bounds.activity$, bounds.maxTotalTimeoutMs);
  }

  /** A call other than a tool call that may ask for input: with hooks of its own, filed (as a tool call's are) for its whole life. */
  asking<T>(method: string, options: InputCallOptions, body: (session: Session, input: CallInput | undefined) => Observable<T>): Observable<T> {
    checkCallOptions(options, INPUT_CALL_KEYS);
    checkCallHooks(options);
    const { input } = options;
    const call = (filed?: CallInput): Observable<T> => this.bounded<T>(method, options, (session, subscriber) => body(session, filed).subscribe(subscriber));
    if (!input) return call();
    return defer(() => {
      const filed = this.inputs.open(input);
      return call(filed).pipe(finalize(() => this.inputs.close(filed)));
    });
  }

  /** A call whose options are already checked: bounded, and begun once the era is known. */
  bounded<T>(
    method: string,
    options: CallOptions,
    begin: (session: Session, subscriber: Subscriber<T>) => TeardownLogic,
    activity$?: Observable<unknown>,
    maxTotalTimeoutMs?: number,
  ): Observable<T> {
    return new BodyCall<T>(this.host, method, callBounds(options, this.settings.requestTimeoutMs, activity$, maxTotalTimeoutMs), begin);
  }

  /**
   * The shared part of every tool call, tasks or not: options, and the
   * progress token minted when progress is wanted but none was given.
   */
  toolCall<T>(options: CallToolOptions, body: (session: Session, meta: Meta, input: CallInput | undefined) => Observable<T>): Observable<T> {
    return this.beginToolCall<T>(options, (session, meta, subscriber, input) => body(session, meta, input).subscribe(subscriber));
  }

  /**
   * The same, for a call begun straight into the subscriber. Given a plain
   * tool call's `params` rather than a function, the call that needs nothing
   * minted or filed per subscription (the common case) is one object, with
   * no closure made for the paths it does not take.
   */
  beginToolCall<T>(
    options: CallToolOptions,
    body: ((session: Session, meta: Meta, subscriber: Subscriber<T>, input: CallInput | undefined) => TeardownLogic) | Record<string, unknown>,
  ): Observable<T> {
    // No options (the shared empty object): nothing to check or work out.
    if (options === NO_CALL_OPTIONS && typeof body !== 'function') return new ToolCall(this.host, this.plainBounds, body, undefined) as Observable<unknown> as Observable<T>;
    const { progressToken, toolCallId, resetTimeoutOnProgress, maxTotalTimeoutMs, meta, task, onProgress, input } = options;
    checkCallOptions(options, CALL_TOOL_KEYS);
    checkCallHooks(options);
    checkDuration('maxTotalTimeoutMs', maxTotalTimeoutMs, 0);
    if (task !== undefined && !this.settings.tasks) throw new McpClientError('option task needs the client option tasks: true');
    // A token of our own when the caller gave none but progress is wanted;
    // minted per subscription and forgotten when the call ends.
    const wantsToken = progressToken === undefined && ((toolCallId !== undefined && this.settings.onProgress) || resetTimeoutOnProgress || onProgress);
    if (typeof body !== 'function' && !wantsToken && !onProgress && !input) {
      const activity$ = resetTimeoutOnProgress ? risingProgress(this.progress$, progressToken) : undefined;
      const bounds = callBounds(options, this.settings.requestTimeoutMs, activity$, maxTotalTimeoutMs);
      return new ToolCall(this.host, bounds, body, progressToken === undefined ? meta : { ...meta, progressToken }) as Observable<unknown> as Observable<T>;
    }
    const begin =
      typeof body === 'function'
        ? body
        : (session: Session, meta: Meta, subscriber: Subscriber<T>, input: CallInput | undefined): TeardownLogic =>
            startToolCall(this.host, session, body, meta, subscriber as Subscriber<CallToolResult>, input);
    const call = (token: string | number | undefined, filed?: CallInput): Observable<T> =>
      this.bounded<T>(
        'tools/call',
        options,
        (session, subscriber) => begin(session, token === undefined ? meta : { ...meta, progressToken: token }, subscriber, filed),
        resetTimeoutOnProgress ? risingProgress(this.progress$, token) : undefined,
        maxTotalTimeoutMs,
      );
    if (!wantsToken && !onProgress && !input) return call(progressToken);
    return defer(() => {
      const token = wantsToken ? this.tokens.mint(toolCallId) : progressToken;
      // Filed for the call's whole life, task included: see CallInputs for who answers what.
      const filed = input && this.inputs.open(input);
      const heard = onProgress && this.progress$.pipe(filter((event) => event.progressToken === token)).subscribe((event) => this.tell(onProgress, event));
      return call(token, filed).pipe(
        finalize(() => {
          if (wantsToken) this.tokens.release(token as string);
          if (filed) this.inputs.close(filed);
          heard?.unsubscribe();
        }),
      );
    });
  }

  // A call's own progress listener that throws is reported, and the call goes on.
  private tell(onProgress: (progress: ProgressEvent) => void, event: ProgressEvent): void {
    try {
      onProgress(event);
    } catch (error) {
      this.settings.warn(`onProgress of a call threw: ${messageOf(error)}`);
    }
  }
}

/**
 * What every bounded call reads of its client, one object for all of them.
 * A class, not an object literal with getters: V8 optimises reads of such a
 * literal's members into its generic property lookup, which four reads on
 * every call paid for.
 */
class ClientHost implements ToolCallHost {
  constructor(
    private readonly isClosing: () => boolean,
    private readonly currentSession: () => Session | undefined,
    readonly probing$: Observable<Session>,
    readonly deadlines: Deadlines,
    readonly calls: CallPipeline,
    readonly outputs: OutputSchemas,
  ) {}

  get closing(): boolean {
    return this.isClosing();
  }

  get session(): Session | undefined {
    return this.currentSession();
  }
}
