// The one check every surface makes before a URL elicitation's page is
// offered to a person: the engine before it asks `onElicitUrl`, the CLI and
// the gateway before they show or pass it on. The URL is the server's, and
// the spec's client MUSTs (2025-11-25 client/elicitation, "Safe URL
// Handling") are about not letting it trick anyone.
import { zoneOf } from '../../auth/network-zone.js';

/** The longest URL offered: a page address, not a document. */
export const MAX_ELICITATION_URL_CHARS = 4_096;

/** A URL that may be offered, as parsed, and the host to show apart from it. */
export interface OfferableUrl {
  ok: true;
  /** The URL as the WHATWG parser writes it (what is shown and opened). */
  url: string;
  /** The host, in the parser's spelling (punycode for an international name), shown apart so a person sees where the page is. */
  host: string;
}

/** Why a URL may not be offered. */
export interface RefusedUrl {
  ok: false;
  reason: string;
}

/**
 * Whether a server's URL may be offered to a person: `https:`, or `http:` to
 * the loopback interface only; no user name or password in it (`https://bank.example@evil.example`
 * reads as the bank's); no control characters; a host name DNS could hold;
 * at most `MAX_ELICITATION_URL_CHARS`. Nothing is fetched.
 */
export function checkElicitationUrl(raw: unknown): OfferableUrl | RefusedUrl {
  if (typeof raw !== 'string' || raw.length === 0) return { ok: false, reason: 'the URL is missing' };
  if (raw.length > MAX_ELICITATION_URL_CHARS) return { ok: false, reason: `the URL is longer than ${MAX_ELICITATION_URL_CHARS} characters` };
  // The parser would strip tabs and newlines silently; a URL that needs them is not one to show.
  if (/[\u0000-\u001f\u007f-\u009f]/.test(raw)) return { ok: false, reason: 'the URL holds control characters' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'the URL cannot be parsed' };
  }
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'the URL carries a user name or password' };
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url))) {
    if (url.hostname === '') return { ok: false, reason: 'the URL names no host' };
    const problem = hostProblem(url.hostname);
    if (problem !== undefined) return { ok: false, reason: problem };
    return { ok: true, url: url.href, host: url.host };
  }
  return { ok: false, reason: url.protocol === 'http:' ? 'the URL is plain http to another machine' : `the URL's scheme ${url.protocol} is not https` };
}

/**
 * Plain http only to the loopback interface itself (127/8, `::1`, the
 * `localhost` names): not `0.0.0.0`, which also reaches this machine but
 * through every interface, and not the LAN.
 */
function isLoopback(url: URL): boolean {
  if (zoneOf(url) !== 'this-machine') return false;
  const host = url.hostname;
  return host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host) || host === 'localhost' || host.endsWith('.localhost');
}

/**
 * Why a host cannot be shown to a person as a place to go: a name DNS
 * could not hold (over 253 characters, a label over 63), which exists only
 * to push the part that matters out of sight.
 */
function hostProblem(hostname: string): string | undefined {
  if (hostname.startsWith('[')) return undefined;
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  if (name.length > 253) return 'the host name is longer than DNS allows (253 characters)';
  if (name.split('.').some((label) => label.length > 63)) return 'the host name has a label longer than DNS allows (63 characters)';
  return undefined;
}

/** The longest message a URL question may carry to a person: a few paragraphs, not a document. */
export const MAX_ELICITATION_MESSAGE_CHARS = 4_096;

/** The longest `elicitationId` read from a server: ids are handles, not payloads. */
export const MAX_ELICITATION_ID_CHARS = 256;

/** The most pages one `-32042` error may ask for; more fails the call as a malformed answer. */
export const MAX_REQUIRED_ELICITATIONS = 16;

/** The params a URL question reaches `onElicitUrl` with. */
export interface UrlQuestionParams extends Record<string, unknown> {
  mode: 'url';
  message: string;
  /** The checked URL, as the WHATWG parser writes it. */
  url: string;
  /** Absent in 2026-07-28, where a question has its `inputRequests` key instead. */
  elicitationId?: string;
}

/**
 * A URL question's params, read and checked before any hook sees them: the
 * URL passes `checkElicitationUrl`, the message is a string within
 * `MAX_ELICITATION_MESSAGE_CHARS`, and (with `withId`, the 2025-11-25 era) the
 * `elicitationId` is a string within `MAX_ELICITATION_ID_CHARS`. Only these
 * keys are kept: nothing else a server adds reaches the hook.
 */
export function readUrlQuestion(params: Record<string, unknown>, withId: boolean): { ok: true; params: UrlQuestionParams } | RefusedUrl {
  const { message, elicitationId } = params;
  if (typeof message !== 'string') return { ok: false, reason: 'the message is missing' };
  if (message.length > MAX_ELICITATION_MESSAGE_CHARS) return { ok: false, reason: `the message is longer than ${MAX_ELICITATION_MESSAGE_CHARS} characters` };
  if (withId && !isElicitationId(elicitationId)) return { ok: false, reason: `the elicitationId is missing or longer than ${MAX_ELICITATION_ID_CHARS} characters` };
  const checked = checkElicitationUrl(params.url);
  if (!checked.ok) return checked;
  return { ok: true, params: { mode: 'url', message, url: checked.url, ...(withId ? { elicitationId: elicitationId as string } : {}) } };
}

/** Whether a server's value can be an `elicitationId`: a non-empty string within `MAX_ELICITATION_ID_CHARS`. */
export function isElicitationId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_ELICITATION_ID_CHARS;
}

/**
 * The pages a `-32042` error's `data.elicitations` names, each `{ url,
 * message, elicitationId }` as the server wrote them (the URL is checked
 * later, when it is offered), or the reason the list cannot be read: not an
 * array, empty, more than `MAX_REQUIRED_ELICITATIONS`, or an entry without a
 * string `url` (within `MAX_ELICITATION_URL_CHARS`), `message` (within
 * `MAX_ELICITATION_MESSAGE_CHARS`) or `elicitationId`. One unreadable entry
 * fails the whole list: a call is not retried on part of what a server asked.
 */
export function readRequiredElicitations(data: unknown): { ok: true; elicitations: RequiredElicitationEntry[] } | RefusedUrl {
  const list = typeof data === 'object' && data !== null && Object.hasOwn(data, 'elicitations') ? (data as { elicitations: unknown }).elicitations : undefined;
  if (!Array.isArray(list)) return { ok: false, reason: 'its data holds no elicitations array' };
  if (list.length === 0) return { ok: false, reason: 'its data names no elicitation' };
  if (list.length > MAX_REQUIRED_ELICITATIONS) return { ok: false, reason: `its data names ${list.length} elicitations, more than ${MAX_REQUIRED_ELICITATIONS}` };
  const read: RequiredElicitationEntry[] = [];
  for (const [index, entry] of list.entries()) {
    const url = own(entry, 'url');
    const message = own(entry, 'message');
    const elicitationId = own(entry, 'elicitationId');
    if (typeof url !== 'string' || url.length > MAX_ELICITATION_URL_CHARS) return { ok: false, reason: `elicitation ${index} has no readable url` };
    if (typeof message !== 'string' || message.length > MAX_ELICITATION_MESSAGE_CHARS) return { ok: false, reason: `elicitation ${index} has no readable message` };
    if (!isElicitationId(elicitationId)) return { ok: false, reason: `elicitation ${index} has no readable elicitationId` };
    read.push({ url, message, elicitationId });
  }
  return { ok: true, elicitations: read };
}

/** One entry of a `-32042` error, read (the same shape as `RequiredElicitation`, kept here below the errors it feeds). */
export interface RequiredElicitationEntry {
  url: string;
  message: string;
  elicitationId: string;
}

// Own keys only: an entry's inherited "url" is no url the server sent.
function own(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}
