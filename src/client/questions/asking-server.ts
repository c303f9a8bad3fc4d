// Which server asks a question: what every hook is told, so that one hook
// shared by many servers (a Registry's, a gateway's) can say who is asking,
// as the spec's client MUST has it (2025-11-25 client/elicitation, Security
// Considerations: "Clients MUST provide clear indication of which server is
// requesting information").
import type { AskingServer } from '../../protocol/input-request.js';
import { isObject } from '../../util/values.js';

/**
 * The internal method by which a `Registry` tells a provider the prefix it
 * publishes it under: `(prefix, separator)`, `prefix` `undefined` when it is
 * removed. A client keeps the prefix for its questions; a registry or a
 * config's server passes it on to what it holds. Symbol-keyed, so it is no
 * public name.
 */
export const ASKED_UNDER: unique symbol = Symbol('rxmcp.askedUnder');

/** A provider a registry can tell its prefix. */
export interface AskedUnder {
  [ASKED_UNDER](prefix: string | undefined, separator: string): void;
}

/** Whether a provider takes its prefix (clients, registries, a config's servers do). */
export function takesPrefix(provider: unknown): provider is AskedUnder {
  return isObject(provider) && typeof (provider as Partial<AskedUnder>)[ASKED_UNDER] === 'function';
}

/** The longest `name`, `title` or `version` passed on: enough to tell servers apart, not a document. */
export const MAX_SERVER_INFO_CHARS = 200;

// Controls, format characters (bidi overrides, zero-width), separators and
// lone surrogates: a hook may print the name in a terminal or a form, where
// they would move, reorder or hide the text around it.
const UNSAFE = /[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/gu;

/**
 * The asking server as hooks are told it: `name`, `title` and `version` from
 * the `serverInfo` the client learned (untrusted: own string fields only, cut
 * to `MAX_SERVER_INFO_CHARS`, unsafe characters replaced by U+FFFD), and the
 * prefix a `Registry` gave it (the registry's own word). `undefined` when
 * there is nothing to say.
 */
export function askingServerOf(serverInfo: unknown, prefix: string | undefined): AskingServer | undefined {
  const server: AskingServer = {};
  if (isObject(serverInfo)) {
    for (const field of ['name', 'title', 'version'] as const) {
      const value = Object.hasOwn(serverInfo, field) ? serverInfo[field] : undefined;
      if (typeof value === 'string' && value !== '') server[field] = cleaned(value);
    }
  }
  if (prefix !== undefined) server.prefix = prefix;
  return Object.keys(server).length === 0 ? undefined : server;
}

function cleaned(text: string): string {
  // Cut first, by code points, so a huge string costs no more than its head.
  const head = text.length > MAX_SERVER_INFO_CHARS * 2 ? text.slice(0, MAX_SERVER_INFO_CHARS * 2) : text;
  const points = Array.from(head);
  const cut = points.length > MAX_SERVER_INFO_CHARS ? `${points.slice(0, MAX_SERVER_INFO_CHARS).join('')}…` : head;
  return cut.replace(UNSAFE, '\ufffd');
}
