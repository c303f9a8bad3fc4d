import { type AuthStep, McpAuthError } from '../errors/auth-errors.js';
import { type NetworkZone, zoneOf } from './network-zone.js';

const PLACES: Record<Exclude<NetworkZone, 'public'>, string> = {
  'this-machine': 'on this machine',
  'link-local': 'a link-local address',
  private: 'in a private network',
  unroutable: 'not a unicast address anyone routes (multicast, reserved, documentation, or a tunnel such as Teredo)',
};

/**
 * Where the client's own OAuth requests (metadata, registration, tokens) and
 * the person's browser (the authorization endpoint) may go, judged against
 * where the MCP server is. Every URL in that chain comes from the server or
 * from metadata it points to, so without this a server could make the client
 * request, or POST a client secret to, any address the client can reach:
 * its own loopback services, the cloud metadata service, the office network.
 *
 * The rules, by the zone of the endpoint's host (see `zoneOf`):
 * - public: always;
 * - this machine: only when the MCP server is on this machine too;
 * - link-local: only when the MCP server is link-local too;
 * - private: when the MCP server is in a private network too, or the caller
 *   set `auth.allowPrivateNetwork`;
 * - unroutable: never.
 * And plain http only to this machine, which the rules above allow only when
 * the MCP server is there as well.
 */
export class OAuthReach {
  private readonly serverZone: NetworkZone;

  constructor(
    serverUrl: URL,
    private readonly allowPrivateNetwork: boolean,
  ) {
    this.serverZone = zoneOf(serverUrl);
  }

  /**
   * Refuses a URL an OAuth request must not go to.
   *
   * @throws McpAuthError at `step`, naming the URL's origin and why.
   */
  check(url: URL, step: AuthStep): void {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new McpAuthError(step, `refusing to send an OAuth request to ${JSON.stringify(url.href.slice(0, 200))}: not an http(s) URL`);
    }
    const zone = zoneOf(url);
    const origin = JSON.stringify(url.origin.slice(0, 200));
    if (zone !== 'public' && !(zone === this.serverZone && zone !== 'unroutable') && !(zone === 'private' && this.allowPrivateNetwork)) {
      const hint = zone === 'private' ? ' (auth.allowPrivateNetwork: true allows private addresses)' : '';
      // No server's own place makes an unroutable address a fit one.
      const server = zone === 'unroutable' ? '' : ', and the MCP server is not';
      throw new McpAuthError(step, `refusing to send an OAuth request to ${origin}: it is ${PLACES[zone]}${server}${hint}`);
    }
    if (url.protocol === 'http:' && zone !== 'this-machine') {
      throw new McpAuthError(step, `refusing to send an OAuth request to ${origin} in the clear: plain http only to this machine`);
    }
  }
}
