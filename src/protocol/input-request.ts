// The questions a server may ask a client, and the hooks that answer them:
// the types every layer shares (the engine asks them, the tool kit and the
// providers pass them through), kept below both.
import { McpClientError } from '../errors/mcp-client-error.js';
import { isObject } from '../util/values.js';
import { keysOf } from '../util/option-keys.js';

/**
 * The server a question comes from, as far as the client knows it: its
 * `serverInfo` (untrusted, as the server sent it) and, for a server in a
 * `Registry`, the prefix the registry gave it (the registry's own word,
 * the one to trust when telling servers apart).
 */
export interface AskingServer {
  name?: string;
  title?: string;
  version?: string;
  prefix?: string;
}

/** A question a server asks the client: an elicitation, a sampling request or a roots listing. */
export interface InputRequest {
  /** `elicitation/create`, `sampling/createMessage` or `roots/list`. */
  method: string;
  /** The request's params, as the server sent them. */
  params: Record<string, unknown>;
  /**
   * The key the server filed the question under in a 2026-07-28
   * `input_required` round's `inputRequests` (untrusted, as the server sent
   * it); absent for a 2025-11-25 server's own request, which has none. A
   * proxy asking its own host can reuse it, so the host sees the key the
   * server chose.
   */
  key?: string;
  /** Which server asks: a hook shared by many servers tells them apart by it. */
  server?: AskingServer;
}

/**
 * Answers one server question with the body of the matching result
 * (`ElicitResult`, `CreateMessageResult`, `ListRootsResult`): directly, as a
 * Promise, or as an Observable whose first value is the answer. Throwing,
 * rejecting, erroring, completing empty or answering with something that is
 * not an object declines. When the call that asked is cancelled, the
 * Observable is unsubscribed.
 */
export type InputHook = (request: InputRequest) => unknown;

/** The hooks a client serves server questions with. Which are set is what the client declares. */
export interface InputHooks {
  /**
   * Answers `elicitation/create` (form mode) with an `ElicitResult`. An
   * accepted answer with no `content` gets the schema's `default`s (no form
   * was shown); one with `content` is sent as it is, so a field a person
   * cleared stays out. An accepted answer that breaks the `requestedSchema`
   * is never sent (see docs/questions.md, "Safeguards").
   */
  onElicit?: InputHook;
  /**
   * Answers `elicitation/create` in URL mode (`params`: `{ mode: 'url',
   * message, url, elicitationId }`) with `{ action: 'accept' | 'decline' |
   * 'cancel' }`: `accept` means the person agreed to visit the page. Setting
   * it declares `elicitation.url`.
   */
  onElicitUrl?: InputHook;
  /** Answers `sampling/createMessage` with a `CreateMessageResult`. */
  onSample?: InputHook;
  /** Answers `roots/list` with a `ListRootsResult`. */
  onListRoots?: InputHook;
}

/**
 * Checks a call's own `onProgress` and `input` (a batch's too: `label` says
 * whose), which a caller may have built from data.
 *
 * @throws McpClientError for an `onProgress` that is not a function, or an `input` that is not an object of hook functions.
 */
export function checkCallHooks(options: { onProgress?: unknown; input?: unknown }, label = 'option'): void {
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function') throw new McpClientError(`${label} onProgress must be a function`);
  const { input } = options;
  if (input === undefined) return;
  if (!isObject(input)) throw new McpClientError(`${label} input must be an object of hooks (onElicit, onElicitUrl, onSample, onListRoots)`);
  for (const key of Object.keys(input)) {
    if (!INPUT_HOOK_KEYS.includes(key)) throw new McpClientError(`${label} input has an unknown hook: ${JSON.stringify(key)}`);
  }
  for (const name of INPUT_HOOK_KEYS) {
    if (input[name] !== undefined && typeof input[name] !== 'function') throw new McpClientError(`${label} input.${name} must be a function`);
  }
}

const INPUT_HOOK_KEYS = keysOf<InputHooks>({ onElicit: true, onElicitUrl: true, onSample: true, onListRoots: true });
