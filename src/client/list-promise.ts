import type { Session } from './session.js';

// The capability whose `listChanged` covers each list: resources/list_changed
// speaks for the templates too (streams.ts drops both on it).
const CAPABILITY_OF: Readonly<Record<string, string>> = {
  'tools/list': 'tools',
  'prompts/list': 'prompts',
  'resources/list': 'resources',
  'resources/templates/list': 'resources',
};

/**
 * Whether a list of `method` read now may be kept until the server says it
 * changed, rather than read again each time: only from a handshake-era
 * server that declared `listChanged: true` for it (a promise to send
 * `notifications/…/list_changed`), and only while that word can reach the
 * client (`hears`: see `Transport.unsolicited$`). A 2026-07-28 server's
 * lists keep to its `ttlMs` instead: there a change notification comes only
 * on a `subscriptions/listen` stream, and `ttlMs` is the server's own word on
 * freshness, which a notification may only shorten.
 */
export function keepsUntilChanged(session: Session, method: string, hears: boolean): boolean {
  if (!hears || session.description.era !== 'legacy' || !Object.hasOwn(CAPABILITY_OF, method)) return false;
  const { capabilities } = session.description;
  const name = CAPABILITY_OF[method] as string;
  // A server's capabilities are untrusted: own members only, and only `true` is a promise.
  const declared: unknown = Object.hasOwn(capabilities, name) ? capabilities[name] : undefined;
  return typeof declared === 'object' && declared !== null && Object.hasOwn(declared, 'listChanged') && (declared as { listChanged: unknown }).listChanged === true;
}
