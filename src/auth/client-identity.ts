import { McpAuthError } from '../errors/auth-errors.js';
import type { AuthOptions, PrivateKeyJwt, StoredTokens } from './auth-options.js';
import type { ServerMetadata } from './discovery.js';
import { zoneOf } from './network-zone.js';
import { oauthRefusal, type OAuthHttp, secureUrl } from './oauth-http.js';
import { quote } from '../util/quote.js';

/** How the client proves who it is at the token endpoint. */
export type ClientAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';

/** Who the client is to one authorization server. */
export interface ClientIdentity {
  clientId: string;
  clientSecret?: string;
  authMethod: ClientAuthMethod;
  privateKeyJwt?: PrivateKeyJwt;
  /**
   * Where the identity came from: the caller's own credentials, a Client ID
   * Metadata Document URL, or a registration the authorization server
   * answered. Only a registration's secret is kept with the tokens.
   */
  source: 'caller' | 'metadata-document' | 'registration';
}

/**
 * The client's identities, one per authorization server (keyed by its
 * issuer): client ids are only meaningful to the server that issued them, so
 * a change of authorization server means registering again, never reusing.
 * Pre-registered credentials (a client id, or a workload's JWT) cannot be
 * registered again: they are bound to
 * one issuer (`auth.issuer`, else the one the token store says they were
 * used with, else the first they are used with here), and an MCP server
 * that names another is refused before anything goes to it.
 */
export class ClientIdentities {
  private readonly registered = new Map<string, ClientIdentity>();
  private preRegisteredIssuer: string | undefined;

  constructor(
    private readonly options: AuthOptions,
    private readonly redirectUrl: string,
  ) {}

  /**
   * The authorization server to use among those a resource names, before
   * any of them is asked anything: the one this client is bound to, else
   * the first.
   *
   * @param named The issuers the resource's metadata lists, in its order.
   * @param stored The tokens kept for this server, whose issuer binds a pre-registered client id they were issued to.
   * @throws McpAuthError (step `resource-metadata`) when the client is bound to an issuer not named.
   */
  chooseIssuer(named: readonly string[], stored: StoredTokens | undefined): string {
    const { issuer } = this.options;
    const held = this.heldCredential();
    let bound: { issuer: string; why: string } | undefined;
    if (issuer !== undefined) bound = { issuer, why: 'auth.issuer names it' };
    else if (held !== undefined && this.preRegisteredIssuer !== undefined) bound = { issuer: this.preRegisteredIssuer, why: `${held.name} was used with it` };
    else if (held !== undefined && stored?.clientId === held.clientId) bound = { issuer: stored.issuer, why: `${held.name} was used with it: the token store keeps its tokens` };
    if (!bound) return named[0] as string;
    if (named.includes(bound.issuer)) return bound.issuer;
    throw new McpAuthError(
      'resource-metadata',
      `this client signs in only with the authorization server ${JSON.stringify(bound.issuer)} (${bound.why}), but the MCP server names ${JSON.stringify(named.slice(0, 5).map((name) => name.slice(0, 200)))}; nothing was sent there`,
    );
  }

  /**
   * The identity to use with this authorization server, in the spec's order
   * of preference: pre-registered, a Client ID Metadata Document where the
   * server supports them, then Dynamic Client Registration. `metadata` is
   * that of the issuer `chooseIssuer` chose.
   *
   * @throws McpAuthError when none applies or registration fails.
   */
  async identify(http: OAuthHttp, metadata: ServerMetadata, signal: AbortSignal): Promise<ClientIdentity> {
    const { clientId, clientSecret, clientMetadataUrl, privateKeyJwt, workloadIdentity } = this.options;
    if (clientId !== undefined) {
      this.preRegisteredIssuer ??= metadata.issuer;
      return { clientId, clientSecret, privateKeyJwt, authMethod: chooseAuthMethod(metadata, clientSecret, privateKeyJwt), source: 'caller' };
    }
    if (workloadIdentity !== undefined) {
      // A workload without a client id of its own is known by its JWT alone, which is bound like a client id.
      this.preRegisteredIssuer ??= metadata.issuer;
      return { clientId: '', authMethod: 'none', source: 'caller' };
    }
    // Metadata document URLs are portable between authorization servers (client registration, "Authorization Server Binding").
    if (clientMetadataUrl !== undefined && metadata.client_id_metadata_document_supported === true) {
      return { clientId: clientMetadataUrl, privateKeyJwt, authMethod: privateKeyJwt ? 'private_key_jwt' : 'none', source: 'metadata-document' };
    }
    const known = this.registered.get(metadata.issuer);
    if (known) return known;
    if (!metadata.registration_endpoint) {
      throw new McpAuthError(
        'registration',
        `${quote(metadata.issuer)} offers neither Client ID Metadata Documents nor registration: give auth.clientId (and auth.clientSecret) of a client registered there`,
      );
    }
    const identity = await this.register(http, metadata, signal);
    this.registered.set(metadata.issuer, identity);
    return identity;
  }

  // The credential given beforehand that belongs to one authorization server:
  // a client id, or a workload's JWT (a bearer credential for its audience,
  // which another server could replay there). Tokens record the latter as client id ''.
  private heldCredential(): { name: string; clientId: string } | undefined {
    const { clientId, workloadIdentity } = this.options;
    if (clientId !== undefined) return { name: 'auth.clientId', clientId };
    return workloadIdentity !== undefined ? { name: 'auth.workloadIdentity', clientId: '' } : undefined;
  }

  // RFC 7591: the defaults a native or web MCP client needs, under whatever
  // the caller put in auth.clientMetadata.
  private async register(http: OAuthHttp, metadata: ServerMetadata, signal: AbortSignal): Promise<ClientIdentity> {
    const endpoint = secureUrl(metadata.registration_endpoint, 'registration', 'the registration endpoint');
    const publicClient = metadata.token_endpoint_auth_methods_supported?.includes('none') ?? false;
    const redirect = new URL(this.redirectUrl);
    const body = {
      client_name: 'rxmcp',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // SEP-837: OIDC servers judge redirect URIs by application type; only
      // a remote https page is a web app's, loopback and app schemes are native.
      application_type: redirect.protocol === 'https:' && zoneOf(redirect) !== 'this-machine' ? 'web' : 'native',
      ...(publicClient ? { token_endpoint_auth_method: 'none' } : {}),
      ...this.options.clientMetadata,
    };
    const reply = await http.post(endpoint, body, {}, 'registration', signal);
    if ((reply.status !== 200 && reply.status !== 201) || typeof reply.body?.client_id !== 'string') {
      const refusal = oauthRefusal(reply);
      throw new McpAuthError('registration', `${endpoint.origin}${endpoint.pathname} refused to register the client: ${refusal.text}`, { oauthError: refusal.code });
    }
    const clientSecret = typeof reply.body.client_secret === 'string' ? reply.body.client_secret : undefined;
    const registeredMethod = reply.body.token_endpoint_auth_method;
    return {
      clientId: reply.body.client_id,
      clientSecret,
      authMethod: isAuthMethod(registeredMethod) && registeredMethod !== 'private_key_jwt' ? registeredMethod : chooseAuthMethod(metadata, clientSecret, undefined),
      source: 'registration',
    };
  }
}

/**
 * The token endpoint authentication to use: a key signs, a secret goes the
 * way the server advertises (Basic by default, RFC 8414 §2), and a client
 * without either is a public one.
 */
export function chooseAuthMethod(metadata: ServerMetadata, secret: string | undefined, key: PrivateKeyJwt | undefined): ClientAuthMethod {
  if (key) return 'private_key_jwt';
  if (secret === undefined) return 'none';
  const supported = metadata.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  return !supported.includes('client_secret_basic') && supported.includes('client_secret_post') ? 'client_secret_post' : 'client_secret_basic';
}

function isAuthMethod(value: unknown): value is ClientAuthMethod {
  return value === 'none' || value === 'client_secret_basic' || value === 'client_secret_post' || value === 'private_key_jwt';
}
