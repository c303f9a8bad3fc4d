import { McpCapabilityError } from '../errors/capability-errors.js';
import type { Session } from './session.js';

/**
 * The server capability each gated method needs, as a dotted path into the
 * server's `capabilities` (both eras spell them the same way). A method not
 * named here (ping, server/discover, the task methods, …) is never gated.
 */
const NEEDS: ReadonlyMap<string, readonly [string, string?]> = new Map<string, readonly [string, string?]>([
  ['tools/list', ['tools']],
  ['tools/call', ['tools']],
  ['prompts/list', ['prompts']],
  ['prompts/get', ['prompts']],
  ['resources/list', ['resources']],
  ['resources/templates/list', ['resources']],
  ['resources/read', ['resources']],
  ['resources/subscribe', ['resources', 'subscribe']],
  ['resources/unsubscribe', ['resources', 'subscribe']],
  ['completion/complete', ['completions']],
  ['logging/setLevel', ['logging']],
]);

/**
 * Whether the server declared `path` (`['resources', 'subscribe']`, say): a
 * top-level capability is declared by being present (the spec's "present if
 * the server supports"); a flag under it must be `true`. Own keys only: a
 * server's `capabilities` is parsed JSON, and `toString` is nobody's capability.
 */
export function declares(capabilities: Record<string, unknown>, path: readonly [string, string?]): boolean {
  const [top, flag] = path;
  if (!Object.hasOwn(capabilities, top)) return false;
  const value = capabilities[top];
  if (value === undefined || value === null || value === false) return false;
  if (flag === undefined) return true;
  return typeof value === 'object' && Object.hasOwn(value, flag) && (value as Record<string, unknown>)[flag] === true;
}

/**
 * The error for a call of `method` on `session` when the server did not
 * declare the capability the method needs; undefined when it may be sent.
 * A session whose capabilities the probe could not learn (a modern server
 * that answered `server/discover` with a header error) is never refused:
 * "not known" is not "not declared".
 */
export function capabilityRefusal(session: Session, method: string): McpCapabilityError | undefined {
  const needed = NEEDS.get(method);
  if (needed === undefined || session.capabilitiesUnknown) return undefined;
  // `completions` came with 2025-03-26: a 2024-11-05 server offers completion without a capability to say so.
  if (needed[0] === 'completions' && session.description.protocolVersion < '2025-03-26') return undefined;
  if (declares(session.description.capabilities, needed)) return undefined;
  return new McpCapabilityError(needed[1] === undefined ? needed[0] : `${needed[0]}.${needed[1]}`, method);
}

/** True for the error `capabilityRefusal` gives when `capability` (`tools`, `prompts`, …) is missing. */
export function isMissing(error: unknown, capability: string): error is McpCapabilityError {
  return error instanceof McpCapabilityError && error.capability === capability;
}
