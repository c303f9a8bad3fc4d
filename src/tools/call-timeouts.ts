import { McpClientError } from '../errors/mcp-client-error.js';

/** How long one tool call may run: the batch's own fields, and each entry of `toolTimeouts`. */
export interface CallTimeouts {
  /**
   * The call's budget in milliseconds (0 = none). A client's default is its
   * `requestTimeoutMs`; a `Toolkit`'s handler has none unless given one.
   */
  timeoutMs?: number;
  /** Restart the `timeoutMs` clock at every progress report of the call. */
  resetTimeoutOnProgress?: boolean;
  /**
   * A cap on the whole call, progress or not (0 = none). With
   * `resetTimeoutOnProgress` and no cap given, a client caps a call at ten
   * of its `timeoutMs`.
   */
  maxTotalTimeoutMs?: number;
}

/**
 * Key of the batch option that carries each call's own timeouts, by call id,
 * once the outermost layer has read `toolTimeouts` against the names the
 * calls came in under. Private to the package: no host or JSON text sets it.
 */
export const CALL_TIMEOUTS: unique symbol = Symbol('rxmcp.callTimeouts');

/** The batch options this file reads. */
export interface TimeoutBatchOptions extends CallTimeouts {
  toolTimeouts?: Record<string, CallTimeouts>;
  [CALL_TIMEOUTS]?: ReadonlyMap<string, CallTimeouts>;
}

/** With `resetTimeoutOnProgress` and no `maxTotalTimeoutMs`, a call ends after this many of its budgets, progress or not. */
export const PROGRESS_CAP_BUDGETS = 10;

const KEYS: ReadonlyArray<keyof CallTimeouts> = ['timeoutMs', 'resetTimeoutOnProgress', 'maxTotalTimeoutMs'];

/**
 * Checks the timeouts of a batch (`where` names them in the message, up to the key) as
 * `callTool` checks its own: a duration is a finite number of milliseconds,
 * 0 or more; the reset is a boolean.
 *
 * @throws McpClientError naming the option and the value it got.
 */
export function checkCallTimeouts(timeouts: CallTimeouts, where = 'batch option '): void {
  for (const key of ['timeoutMs', 'maxTotalTimeoutMs'] as const) {
    const value: unknown = timeouts[key];
    if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < 0)) {
      throw new McpClientError(`${where}${key} must be a number of milliseconds, 0 or more; got ${JSON.stringify(value) ?? String(value)}`);
    }
  }
  const reset: unknown = timeouts.resetTimeoutOnProgress;
  if (reset !== undefined && typeof reset !== 'boolean') throw new McpClientError(`${where}resetTimeoutOnProgress must be a boolean`);
}

/**
 * Checks every timeout a batch carries: its own, and each entry of
 * `toolTimeouts` (an object of objects holding only the three keys).
 *
 * @throws McpClientError saying which value is wrong.
 */
export function checkBatchTimeouts(options: TimeoutBatchOptions): void {
  checkCallTimeouts(options);
  const perTool: unknown = options.toolTimeouts;
  if (perTool === undefined) return;
  if (typeof perTool !== 'object' || perTool === null || Array.isArray(perTool)) throw new McpClientError('batch option toolTimeouts must be an object keyed by tool name');
  for (const [name, entry] of Object.entries(perTool)) {
    const where = `batch option toolTimeouts[${JSON.stringify(name)}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new McpClientError(`${where} must be an object`);
    for (const key of Object.keys(entry)) {
      if (!(KEYS as readonly string[]).includes(key)) throw new McpClientError(`${where} has an unknown key ${JSON.stringify(key)}`);
    }
    checkCallTimeouts(entry as CallTimeouts, `${where}.`);
  }
}

/**
 * The batch options with `toolTimeouts` read against the calls as they are
 * now, under the names the caller knows them by, and kept by call id for the
 * layers below, which see the calls under other names (a `Registry` strips
 * its prefix; a layer reads shown names back to real ones). Options an outer
 * layer already read, or without `toolTimeouts`, come back as they are.
 * Calls of different tools under one id run under the batch's own timeouts.
 *
 * @throws McpClientError for timeouts `checkBatchTimeouts` refuses.
 */
export function withCallTimeouts<O extends TimeoutBatchOptions>(calls: readonly unknown[], options: O): O {
  checkBatchTimeouts(options);
  const perTool = options.toolTimeouts;
  if (perTool === undefined || options[CALL_TIMEOUTS] !== undefined) return options;
  // The tool each id names, or null once two calls name different tools under it.
  const named = new Map<string, string | null>();
  for (const call of calls) {
    const { id, function: fn } = (typeof call === 'object' && call !== null ? call : {}) as { id?: unknown; function?: { name?: unknown } | null };
    const name = typeof fn === 'object' && fn !== null ? fn.name : undefined;
    if (typeof id !== 'string') continue;
    const before = named.get(id);
    named.set(id, before === undefined || before === name ? (typeof name === 'string' ? name : null) : null);
  }
  // The layers below know a call by its id alone: an id the model gave
  // calls of two tools gets neither's entry (both run under the batch's own
  // timeouts), so no call borrows another tool's budget.
  const byId = new Map<string, CallTimeouts>();
  for (const [id, name] of named) {
    // Own keys only: a tool named "__proto__" or "toString" reads nothing inherited.
    if (name !== null && Object.hasOwn(perTool, name)) byId.set(id, perTool[name] as CallTimeouts);
  }
  const { toolTimeouts: _read, ...rest } = options;
  return { ...rest, [CALL_TIMEOUTS]: byId } as unknown as O;
}

/** The timeouts one call runs under: the batch's, each field its tool's entry gives laid over. */
export function timeoutsOf(options: TimeoutBatchOptions, id: string, name: string): CallTimeouts {
  const own = options[CALL_TIMEOUTS]?.get(id) ?? (options.toolTimeouts && Object.hasOwn(options.toolTimeouts, name) ? options.toolTimeouts[name] : undefined);
  const timeouts: CallTimeouts = {};
  for (const key of KEYS) {
    const value = own?.[key] ?? options[key];
    if (value !== undefined) (timeouts as Record<string, unknown>)[key] = value;
  }
  return timeouts;
}

/**
 * Whether a call may run longer in all than one `timeoutMs` allows: its
 * `maxTotalTimeoutMs` (given, or the ten budgets `resetTimeoutOnProgress`
 * brings) exceeds its `timeoutMs`, or is 0 (no cap). A call without a
 * budget (`timeoutMs` 0) never outlives it. `defaultTimeoutMs` is the
 * client's `requestTimeoutMs`.
 */
export function outlivesTimeout(timeouts: CallTimeouts, defaultTimeoutMs: number): boolean {
  const timeoutMs = timeouts.timeoutMs ?? defaultTimeoutMs;
  if (timeoutMs === 0) return false;
  const total = totalOf(timeouts, timeoutMs);
  return total !== undefined && (total === 0 || total > timeoutMs);
}

/** The whole time a call may take (0 = no cap), or `undefined` when that is its `timeoutMs`. */
export function totalOf(timeouts: CallTimeouts, timeoutMs: number): number | undefined {
  return timeouts.maxTotalTimeoutMs ?? (timeouts.resetTimeoutOnProgress ? PROGRESS_CAP_BUDGETS * timeoutMs : undefined);
}

/**
 * The timeouts of an adapter's options, checked, as the batch options to
 * pass on with every batch (only those given).
 *
 * @throws McpClientError for timeouts `checkBatchTimeouts` refuses.
 */
export function batchTimeoutsOf(options: TimeoutBatchOptions): Pick<TimeoutBatchOptions, keyof CallTimeouts | 'toolTimeouts'> {
  checkBatchTimeouts(options);
  const picked: Pick<TimeoutBatchOptions, keyof CallTimeouts | 'toolTimeouts'> = {};
  for (const key of [...KEYS, 'toolTimeouts'] as const) {
    if (options[key] !== undefined) (picked as Record<string, unknown>)[key] = options[key];
  }
  return picked;
}
