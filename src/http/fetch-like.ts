// The part of fetch rxmcp uses, whichever fetch it is: a browser's, undici's,
// node-fetch, or rxmcp's own node:http requests. The
// transports and the sign-in code both talk to servers through it.

/** The part of a fetch Response rxmcp reads. */
export interface FetchResponse {
  status: number;
  ok: boolean;
  /** `'opaqueredirect'` when a browser's fetch hid a redirect it was told not to follow. */
  type?: string;
  /** The URL the response came from, when the fetch says (after redirects it followed on its own). */
  url?: string;
  /** `true` when the fetch followed a redirect on its own; `false` when it says it did not. */
  redirected?: boolean;
  headers: { get(name: string): string | null };
  body: unknown;
  text(): Promise<string>;
  /** The whole body as text within `limit` bytes, when the fetch can read it more cheaply than chunk by chunk (rxmcp's own node:http requests). */
  textWithin?(limit: number): Promise<string>;
}

/** The part of `fetch` rxmcp calls. */
export type FetchLike = (url: string, init: Record<string, unknown>) => Promise<FetchResponse>;

/** Why a request sent with a `deadline` (rxmcp's own node:http requests) failed: no response came in time. */
export class DeadlinePassed extends Error {
  override name = 'DeadlinePassed';
  constructor() {
    super('no response before the deadline');
  }
}
