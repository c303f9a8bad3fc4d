import type { McpClient } from '../client/mcp-client.js';
import { McpCapabilityError } from '../errors/capability-errors.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import { isObject } from '../util/values.js';

/** The scheme of a resource URI the gateway shows: `rxmcp://{prefix, percent-encoded}/{the server's own URI}`. */
export const GATEWAY_URI_SCHEME = 'rxmcp://';

/** A name or URI the gateway showed, read back to the server that owns it. */
export interface Owned {
  prefix: string;
  client: McpClient;
  /** The server's own name or URI. */
  value: string;
}

/**
 * The upstream clients a gateway forwards resources, prompts and completion
 * to, by the prefix their tools are shown under. Names are shown as
 * `{prefix}{separator}{name}`, URIs as `rxmcp://{prefix}/{uri}`; with the
 * one server of key `''`, both are shown as they are.
 */
export class Upstreams {
  private readonly entries: Array<[string, McpClient | (() => McpClient)]>;

  /** @throws McpClientError for a malformed `servers` option. */
  constructor(
    servers: Record<string, McpClient | (() => McpClient)>,
    private readonly separator: string,
  ) {
    if (!isObject(servers)) throw new McpClientError('option servers must be an object of clients by prefix');
    this.entries = Object.entries(servers);
    for (const [prefix, client] of this.entries) {
      if (typeof client !== 'function' && !(isObject(client) && typeof (client as { listResources?: unknown }).listResources === 'function')) {
        throw new McpClientError(`servers[${JSON.stringify(prefix)}] must be an McpClient or a function that gives one`);
      }
    }
    if (this.entries.some(([prefix]) => prefix === '') && this.entries.length > 1) {
      throw new McpClientError("servers: the key '' serves one server without a prefix, so it must be the only one");
    }
  }

  /** Whether there are any. */
  get any(): boolean {
    return this.entries.length > 0;
  }

  /** The prefixes, each with its client; a client that cannot be had is skipped and reported. */
  clients(onFailure: (prefix: string, error: unknown) => void): Array<[string, McpClient]> {
    return this.entries.flatMap(([prefix]) => {
      try {
        return [[prefix, this.clientOf(prefix)] as [string, McpClient]];
      } catch (error) {
        onFailure(prefix, error);
        return [];
      }
    });
  }

  /** A server's name as shown. */
  showName(prefix: string, name: string): string {
    return prefix === '' ? name : `${prefix}${this.separator}${name}`;
  }

  /** A server's URI (or URI template) as shown. */
  showUri(prefix: string, uri: string): string {
    return prefix === '' ? uri : `${GATEWAY_URI_SCHEME}${encodeURIComponent(prefix)}/${uri}`;
  }

  /** The server owning a shown name (the longest prefix that fits), or `undefined`. */
  ownerOfName(shown: string): Owned | undefined {
    const best = this.bestPrefix(shown);
    if (best === undefined) return undefined;
    const value = best === '' ? shown : shown.slice(best.length + this.separator.length);
    return value === '' ? undefined : { prefix: best, client: this.clientOf(best), value };
  }

  /** The prefix of the server a shown name or URI belongs to, without reaching its client; `undefined` when none, or the one unprefixed server. */
  prefixOf(shown: unknown, kind: 'name' | 'uri'): string | undefined {
    if (typeof shown !== 'string') return undefined;
    return (kind === 'name' ? this.bestPrefix(shown) : this.uriParts(shown)?.prefix) || undefined;
  }

  /** The server owning a shown URI, or `undefined`. */
  ownerOfUri(shown: string): Owned | undefined {
    if (this.entries.length === 1 && this.entries[0]?.[0] === '') return { prefix: '', client: this.clientOf(''), value: shown };
    const parts = this.uriParts(shown);
    return parts && { prefix: parts.prefix, client: this.clientOf(parts.prefix), value: parts.value };
  }

  // The longest prefix a shown name fits.
  private bestPrefix(shown: string): string | undefined {
    let best: string | undefined;
    for (const [prefix] of this.entries) {
      const fits = prefix === '' || shown.startsWith(`${prefix}${this.separator}`);
      if (fits && (best === undefined || prefix.length > best.length)) best = prefix;
    }
    return best;
  }

  // A shown rxmcp:// URI read back to its (known) prefix and the server's own URI.
  private uriParts(shown: string): { prefix: string; value: string } | undefined {
    if (!shown.startsWith(GATEWAY_URI_SCHEME)) return undefined;
    const rest = shown.slice(GATEWAY_URI_SCHEME.length);
    const slash = rest.indexOf('/');
    if (slash < 0) return undefined;
    let prefix: string;
    try {
      prefix = decodeURIComponent(rest.slice(0, slash));
    } catch {
      return undefined;
    }
    if (prefix === '' || !this.entries.some(([known]) => known === prefix)) return undefined;
    return { prefix, value: rest.slice(slash + 1) };
  }

  /** Reads a list from every server, skipping (and reporting) those that fail, so one dead server leaves the rest served. */
  async gather<T>(read: (client: McpClient, prefix: string) => Promise<T[]>, onFailure: (prefix: string, error: unknown) => void): Promise<T[]> {
    const lists = await Promise.all(
      this.clients(onFailure).map(async ([prefix, client]) => {
        try {
          return await read(client, prefix);
        } catch (error) {
          // A server that does not offer prompts (or resources) has none to list: no warning.
          if (!(error instanceof McpCapabilityError)) onFailure(prefix, error);
          return [];
        }
      }),
    );
    return lists.flat();
  }

  private clientOf(prefix: string): McpClient {
    const entry = this.entries.find(([known]) => known === prefix)?.[1];
    if (entry === undefined) throw new McpClientError(`no server under ${JSON.stringify(prefix)}`);
    return typeof entry === 'function' ? entry() : entry;
  }
}

