// A call whose upstream server asks the host something cannot end in one request: the host gets
// input_required with a sealed requestState and answers on its retry. This file is where such calls wait
// between the two, bounded in number and time, and the one place their states are sealed and opened, so
// that a state opens only for the host, method and arguments it was issued to.
import { newHandle, RequestStateSeal } from './request-state.js';
import type { HostRequest, RunningCall, WireInputRequest } from './running-call.js';
import type { ServerSdk } from './server-sdk.js';

/** How many calls may wait for a host's answer at once, and for how long. */
const MAX_PARKED = 256;
const PARKED_MS = 10 * 60_000;
// The handle of a sealed requestState that carries a permission question's key rather than a parked call.
const ASKED = 'ask:';
// How many answered permission states are remembered (until they expire), so that each counts once.
const MAX_ANSWERED = 4_096;

interface Parked {
  call: RunningCall<unknown>;
  method: string;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * The calls that wait for a host's retry, each under an unguessable handle
 * that only a `requestState` sealed by this process for that host and request
 * names, and the sealed states of permission questions (which name the
 * question, not a call).
 */
export class ParkedCalls {
  private readonly parked = new Map<string, Parked>();
  private readonly seal = new RequestStateSeal();
  // The permission states whose answer was read, with their expiry: a replayed one reads none.
  private readonly answered = new Map<string, number>();

  /** @param drop Gives up a call that can wait no longer (it is to be abandoned with `reason` and forgotten). */
  constructor(private readonly drop: (call: RunningCall<unknown>, reason: string) => void) {}

  /** The hosts whose calls wait for their answer. */
  *principals(): Iterable<string> {
    for (const { call } of this.parked.values()) yield call.principal;
  }

  /**
   * Parks a call that has questions for its host: the reply is an
   * `input_required` with the questions and a state sealed to `binding`, or,
   * when too many calls wait already, an error result (the call dropped).
   */
  park(sdk: ServerSdk, call: RunningCall<unknown>, method: string, binding: () => string, ask: Record<string, WireInputRequest>): unknown {
    if (this.parked.size >= MAX_PARKED) {
      this.drop(call, 'too many calls wait for answers');
      return { content: [{ type: 'text', text: 'The gateway holds too many calls waiting for answers, so this one was cancelled; try again later' }], isError: true };
    }
    const handle = newHandle();
    const timer = setTimeout(() => {
      this.parked.delete(handle);
      this.drop(call, 'nobody answered in time');
    }, PARKED_MS);
    timer.unref?.();
    this.parked.set(handle, { call, method, timer });
    return sdk.inputRequired({ inputRequests: ask as never, requestState: this.seal.seal(handle, Date.now() + PARKED_MS, binding()) });
  }

  /** A state for a permission question (`key`) put to the host of the request `binding` names: its answer counts only on that retry. */
  sealQuestion(key: string, binding: string): string {
    return this.seal.seal(`${ASKED}${key}`, Date.now() + PARKED_MS, binding);
  }

  /**
   * The handle a retry's requestState holds, when this process sealed it for
   * this host and this request: a parked call's, or a permission question's
   * (`questionIn` reads its key).
   *
   * @throws the SDK's ProtocolError (InvalidParams) for a state expired, forged, altered or issued for another request.
   */
  open(sdk: ServerSdk, state: string, binding: string): string {
    const opened = this.seal.open(state, Date.now(), binding);
    if ('error' in opened) {
      throw new sdk.ProtocolError(
        sdk.ProtocolErrorCode.InvalidParams,
        opened.error === 'expired'
          ? 'The requestState has expired: the call waited too long for its answer. Call the tool again.'
          : 'The requestState was not issued for this request: it belongs to another client, tool or arguments, or was altered, forged, or made by another gateway process. Call the tool again.',
      );
    }
    return opened.handle;
  }

  /** The key of the permission question an opened handle names, or `undefined` for a parked call's. */
  questionIn(handle: string): string | undefined {
    return handle.startsWith(ASKED) ? handle.slice(ASKED.length) : undefined;
  }

  /** Whether a permission state brings its answer for the first time (it is then remembered until it expires). */
  firstAnswer(state: string): boolean {
    if (this.answered.has(state)) return false;
    const now = Date.now();
    if (this.answered.size >= MAX_ANSWERED) {
      for (const [kept, expiry] of this.answered) if (expiry <= now) this.answered.delete(kept);
      // Still full: the oldest go (all live as long, so they are the nearest their expiry).
      for (const kept of this.answered.keys()) {
        if (this.answered.size < MAX_ANSWERED) break;
        this.answered.delete(kept);
      }
    }
    this.answered.set(state, now + PARKED_MS);
    return true;
  }

  /**
   * The parked call a retry's state names (opened by `open`), tied to the retry and given its answers.
   *
   * @throws the SDK's ProtocolError (InvalidParams) when the call no longer waits, or waits for another method.
   */
  resume<T>(sdk: ServerSdk, handle: string, host: HostRequest, method: string): RunningCall<T> {
    const invalid = (message: string): Error => new sdk.ProtocolError(sdk.ProtocolErrorCode.InvalidParams, message);
    const entry = this.parked.get(handle);
    if (!entry) throw invalid('The call this requestState belongs to no longer waits for an answer (answered already, expired, or held by another process). Call the tool again.');
    if (entry.method !== method) throw invalid(`The requestState belongs to a ${entry.method} request, not this ${method}.`);
    this.parked.delete(handle);
    clearTimeout(entry.timer);
    const call = entry.call as RunningCall<T>;
    call.attach(host);
    call.answer(host.inputResponses);
    return call;
  }

  /** Cancels every waiting call: the gateway closed. */
  close(): void {
    for (const { call, timer } of this.parked.values()) {
      clearTimeout(timer);
      call.abandon('the gateway closed');
    }
    this.parked.clear();
  }
}
