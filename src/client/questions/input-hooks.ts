import { catchError, defaultIfEmpty, defer, forkJoin, map, type Observable, of, take } from 'rxjs';
import { McpClientError } from '../../errors/mcp-client-error.js';
import type { AskingServer, InputHooks, InputRequest } from '../../protocol/input-request.js';
import type { Shape } from '../../protocol/shapes.js';
import { checkSamplingRequest, checkSamplingResult, declaresSamplingTools } from '../../protocol/sampling-checks.js';
import type { ClientCapabilities } from '../../protocol/types.js';
import { observableOf } from '../../util/observable-of.js';
import { isObject, messageOf } from '../../util/values.js';
import { keepOfferableRoots } from '../roots.js';
import { checkAnswer, describeProblem } from './answer-check.js';
import { elicitAnswer, elicitUrlAnswer, rootsAnswer, sampleAnswer } from './answer-shapes.js';
import { readUrlQuestion } from './elicitation-url.js';

interface Kind {
  hook: keyof InputHooks;
  capability: 'elicitation' | 'sampling' | 'roots';
  /** What the client answers when it declines; `undefined` where the protocol has no decline shape. */
  decline: Record<string, unknown> | undefined;
  /** The shape a hook's answer must have (a problem, or undefined when it fits). */
  result: Shape;
  /** Whether the request must carry params. */
  needsParams: boolean;
  /** What becomes of a valid answer before it is sent, given the request's params; `warn` says what it left out. */
  finish?: (answer: Record<string, unknown>, params: Record<string, unknown>, warn: (message: string) => void) => Record<string, unknown>;
  /** Why a well-shaped answer still may not be sent, given the request's params; `undefined` when it may (the question is declined). */
  check?: (answer: Record<string, unknown>, params: Record<string, unknown>) => string | undefined;
  /** Why a finished answer may not be sent at all, or `undefined` when it may (the call fails). */
  refuse?: (answer: Record<string, unknown>, params: Record<string, unknown>) => string | undefined;
}

const KINDS: Record<string, Kind> = {
  'elicitation/create': {
    hook: 'onElicit',
    capability: 'elicitation',
    decline: { action: 'decline' },
    result: elicitAnswer,
    needsParams: true,
    finish: withDefaults,
    refuse: breaksSchema,
  },
  'sampling/createMessage': {
    hook: 'onSample',
    capability: 'sampling',
    // Sampling has no "no" answer: a declined question is left out of inputResponses.
    decline: undefined,
    result: sampleAnswer,
    needsParams: true,
    check: checkSamplingResult,
  },
  'roots/list': {
    hook: 'onListRoots',
    capability: 'roots',
    decline: { roots: [] },
    result: rootsAnswer,
    needsParams: false,
    // Whichever hook answers (the client's, a call's, a gateway's host), only file:// roots that pass the checks reach the server.
    finish: (answer, _params, warn) => keepOfferableRoots(answer, warn),
  },
};

// URL mode: the same method, told apart by params.mode (see kindOf). The
// answer carries no content: what the person enters on the page never
// passes through the client.
const URL_ELICITATION: Kind = {
  hook: 'onElicitUrl',
  capability: 'elicitation',
  decline: { action: 'decline' },
  result: elicitUrlAnswer,
  needsParams: true,
  finish: (answer) => ({ action: answer.action }),
};

/**
 * The capabilities the set hooks amount to: each elicitation mode only with
 * its hook; `sampling.tools` with `onSample` and `sampleWithTools`.
 */
export function capabilitiesOf(hooks: InputHooks, sampleWithTools = false): ClientCapabilities {
  const capabilities: ClientCapabilities = {};
  if (hooks.onElicit || hooks.onElicitUrl) {
    capabilities.elicitation = { ...(hooks.onElicit ? { form: {} } : {}), ...(hooks.onElicitUrl ? { url: {} } : {}) };
  }
  if (hooks.onSample) capabilities.sampling = sampleWithTools ? { tools: {} } : {};
  if (hooks.onListRoots) capabilities.roots = {};
  return capabilities;
}

/** The capability a server question needs, or `undefined` for a method this client does not serve. */
export function capabilityFor(method: string): Kind['capability'] | undefined {
  return Object.hasOwn(KINDS, method) ? KINDS[method]?.capability : undefined;
}

/**
 * The mode of an elicitation's params: `form` when `mode` is absent (as the
 * spec says a client MUST read it), `url`, or `undefined` for any other value.
 */
export function elicitationModeOf(params: unknown): 'form' | 'url' | undefined {
  const mode = isObject(params) ? params.mode : undefined;
  if (mode === undefined || mode === 'form') return 'form';
  return mode === 'url' ? 'url' : undefined;
}

/**
 * Whether the client declared the elicitation mode a question is in. An
 * `elicitation` capability naming no mode (`{}`, as older clients and a
 * hand-written `clientCapabilities` declare it) means form mode.
 */
export function declaresElicitationMode(declared: ClientCapabilities, mode: 'form' | 'url'): boolean {
  const elicitation = declared.elicitation;
  if (!isObject(elicitation)) return false;
  const named = elicitation.form !== undefined || elicitation.url !== undefined;
  return mode === 'form' ? elicitation.form !== undefined || !named : elicitation.url !== undefined;
}

/**
 * A server question checked before any hook sees it: a sampling request's
 * params bounded and its tools refused unless the client declared
 * `sampling.tools` (see sampling-checks.ts). Gives the request to ask (with
 * the checked params), or why it is refused: a 2025-11-25 server is answered
 * `-32602` with it, a 2026-07-28 round declines the question.
 */
export function screenQuestion<T extends { method?: unknown; params?: unknown }>(
  request: T,
  declared: ClientCapabilities | undefined,
): { ok: true; request: T } | { ok: false; reason: string } {
  if (request.method !== 'sampling/createMessage') return { ok: true, request };
  const checked = checkSamplingRequest(request.params, declaresSamplingTools(declared));
  return checked.ok ? { ok: true, request: { ...request, params: checked.params } } : checked;
}

/** The kind of question a request is: by method, and for an elicitation by mode too. */
function kindOf(method: unknown, params: unknown): Kind | undefined {
  if (typeof method !== 'string' || !Object.hasOwn(KINDS, method)) return undefined;
  if (method === 'elicitation/create' && elicitationModeOf(params) === 'url') return URL_ELICITATION;
  return KINDS[method];
}

/** Who answers a round of input requests: the hooks, what the client declared, and who asks. */
export interface Answering {
  hooks: InputHooks;
  /** What the client declared: a sampling question with tools is declined unless it names `sampling.tools`. */
  declared?: ClientCapabilities;
  warn(message: string): void;
  server?(): AskingServer | undefined;
}

/**
 * Answers a round of input requests (an `input_required` result's, or a
 * task's): each screened (`screenQuestion`), then asked of its hook. Emits
 * the answers by key, a declined question left out; `labelOf` names a
 * question in warnings.
 */
export function answerInputRequests(
  entries: ReadonlyArray<readonly [string, unknown]>,
  answering: Answering,
  labelOf: (key: string) => string,
): Observable<Record<string, unknown>> {
  if (entries.length === 0) return of({});
  return forkJoin(
    entries.map(([key, request]) => {
      const label = labelOf(key);
      const screened = screenQuestion(typeof request === 'object' && request !== null ? request : {}, answering.declared);
      if (!screened.ok) {
        answering.warn(`declined ${label}: ${screened.reason}`);
        return of([key, undefined] as const);
      }
      return askHook(screened.request, answering.hooks, answering.warn, label, key, answering.server?.()).pipe(map((answer) => [key, answer] as const));
    }),
  ).pipe(
    // fromEntries defines each key: a server's "__proto__" stays a key, never the prototype.
    map((answers) => Object.fromEntries(answers.filter(([, answer]) => answer !== undefined))),
  );
}

/**
 * Asks the matching hook one question and emits exactly one value: the
 * answer, the decline shape, or `undefined` (declined with no shape). Every
 * way of declining other than an unset hook is reported through `warn`.
 * `key` is the question's key in an `input_required` round, passed on to the
 * hook as `InputRequest.key`; `server` is who asks (`InputRequest.server`).
 *
 * It errors in one case only, with an `McpClientError` naming the field and
 * the rule: an accepted form answer that breaks the question's
 * `requestedSchema`, which is never sent. The caller decides what the server
 * hears instead.
 */
export function askHook(
  request: { method?: unknown; params?: unknown },
  hooks: InputHooks,
  warn: (message: string) => void,
  label: string,
  key?: string,
  server?: AskingServer,
): Observable<Record<string, unknown> | undefined> {
  // Own keys only: a server's method named "constructor" is no kind of question.
  const kind = kindOf(request.method, request.params);
  if (kind !== undefined && request.method === 'elicitation/create' && elicitationModeOf(request.params) === undefined) {
    // A mode this client does not know is declined on every path, never read as a form: a
    // `mode: "URL"` question's page would otherwise reach a form hook unchecked.
    warn(`declined ${label}: an elicitation in a mode this client does not know`);
    return of(kind.decline);
  }
  if (!kind) {
    warn(`declined ${label}: unknown input method ${JSON.stringify(request.method)}`);
    return of(undefined);
  }
  const params = request.params ?? (kind.needsParams ? undefined : {});
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    warn(`declined ${label}: ${request.method as string} came without params`);
    return of(kind.decline);
  }
  const hook = hooks[kind.hook];
  if (!hook) return of(kind.decline);
  let asking = params as Record<string, unknown>;
  if (kind === URL_ELICITATION) {
    // Checked before the hook is asked, so no UI ever shows a page that fails
    // (2025-11-25 client/elicitation, "Safe URL Handling"). A question from an
    // input_required round (it has a key) is 2026-07-28's, which has no elicitationId.
    const read = readUrlQuestion(asking, key === undefined);
    if (!read.ok) {
      warn(`declined ${label}: a URL elicitation, because ${read.reason}`);
      return of(kind.decline);
    }
    asking = read.params;
  }
  const asked: InputRequest = {
    method: request.method as string,
    params: asking,
    ...(key === undefined ? {} : { key }),
    ...(server === undefined ? {} : { server: { ...server } }),
  };
  return defer(() => observableOf(hook(asked))).pipe(
    take(1),
    map((answer): Record<string, unknown> | Refusal | undefined => {
      // Checked as the hook gave it (a Map or a Date where an object belongs
      // is refused, not sent as what its JSON happens to be), then as it will
      // travel: what is sent is the JSON of the answer, which a `toJSON`, an
      // inherited member or a getter can make differ from what was checked.
      // Either check drops an own "__proto__" member (shapes.ts): one never
      // sent.
      const written = kind.result(answer) === undefined ? asWritten(answer) : INVALID;
      if (written === UNWRITABLE) {
        warn(`declined ${label}: the answer cannot be written as JSON (a cycle, a BigInt or nesting too deep)`);
        return kind.decline;
      }
      if (written === INVALID || kind.result(written) !== undefined) {
        warn(`declined ${label}: ${kind.hook} answered with something that is not a valid ${request.method as string} result`);
        return kind.decline;
      }
      const valid = written as Record<string, unknown>;
      const problem = kind.check?.(valid, asked.params);
      if (problem !== undefined) {
        warn(`declined ${label}: ${kind.hook} answered with something that cannot be sent: ${problem}`);
        return kind.decline;
      }
      const finished = kind.finish ? kind.finish(valid, asked.params, (message) => warn(`${label}: ${message}`)) : valid;
      if (!writable(finished)) {
        warn(`declined ${label}: the answer cannot be written as JSON (a cycle, a BigInt or nesting too deep, perhaps from a default the server gave)`);
        return kind.decline;
      }
      const refused = kind.refuse?.(finished, asked.params);
      if (refused === undefined) return finished;
      warn(`did not send ${label}: ${kind.hook} accepted an answer whose ${refused}`);
      return new Refusal(`${kind.hook} accepted an answer to ${label} whose ${refused}; it was not sent`);
    }),
    defaultIfEmpty(kind.decline),
    catchError((error: unknown) => {
      warn(`declined ${label}: ${kind.hook} failed: ${messageOf(error)}`);
      return of(kind.decline);
    }),
    // Past catchError, so a refusal is not taken for a failing hook.
    map((answer) => {
      if (answer instanceof Refusal) throw new McpClientError(answer.message);
      return answer;
    }),
  );
}

// An accepted form answer that breaks its question's requestedSchema, on its
// way past catchError (where an Error would read as a failing hook).
class Refusal {
  constructor(readonly message: string) {}
}

/** Why an accepted form answer may not be sent: the first field that breaks the requested schema. */
function breaksSchema(answer: Record<string, unknown>, params: Record<string, unknown>): string | undefined {
  if (answer.action !== 'accept') return undefined;
  const content = isObject(answer.content) ? answer.content : {};
  const problem = checkAnswer(content, params.requestedSchema);
  return problem && describeProblem(problem);
}

/**
 * An accepted form answer with the schema's `default` filled in for every
 * field the answer left out (SEP-1034, as the conformance suite and the
 * official SDK read it): a form shows the default, and a person who submits
 * it unchanged has chosen it. A field the answer gives keeps its value; a
 * form that lets a person clear a default says so by sending the field.
 */
function withDefaults(answer: Record<string, unknown>, params: Record<string, unknown>): Record<string, unknown> {
  const properties = isObject(params.requestedSchema) ? params.requestedSchema.properties : undefined;
  if (answer.action !== 'accept' || !isObject(properties)) return answer;
  const content = isObject(answer.content) ? answer.content : {};
  const defaults = Object.entries(properties).flatMap(([field, schema]) =>
    isObject(schema) && Object.hasOwn(schema, 'default') && schema.default !== undefined && (!Object.hasOwn(content, field) || content[field] === undefined)
      ? [[field, schema.default] as const]
      : [],
  );
  // fromEntries defines each key: a server's "__proto__" field stays a field.
  return defaults.length === 0 ? answer : { ...answer, content: Object.fromEntries([...Object.entries(content), ...defaults]) };
}

const INVALID = Symbol('invalid');
const UNWRITABLE = Symbol('unwritable');

// A hook's answer as the server will read it: its JSON read back, so that
// nothing is checked but what is sent (a fresh plain value: an own
// "__proto__" member stays a member). UNWRITABLE when it cannot be written.
function asWritten(answer: unknown): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(answer);
  } catch {
    return UNWRITABLE;
  }
  return text === undefined ? INVALID : (JSON.parse(text) as unknown);
}

// An answer travels as JSON, written where the server's question is answered:
// what JSON.stringify cannot write (a cycle, a BigInt, a value nested past the
// stack, which a server's own form default can be) would throw there, outside
// any call, and leave the question unanswered.
function writable(value: unknown): boolean {
  try {
    JSON.stringify(value);
    return true;
  } catch {
    return false;
  }
}
