import { McpClientError } from './mcp-client-error.js';

/**
 * The step of signing in that failed. `id-token` is getting the ID token
 * from `auth.enterprise.idToken`, `token-exchange` the exchange of it at the
 * identity provider, `assertion` getting the workload's JWT from
 * `auth.workloadIdentity.jwt`; `token` is every grant at the MCP server's
 * authorization server.
 */
export type AuthStep =
  | 'resource-metadata'
  | 'server-metadata'
  | 'registration'
  | 'authorize'
  | 'callback'
  | 'id-token'
  | 'token-exchange'
  | 'assertion'
  | 'token'
  | 'refresh'
  | 'token-store'
  | 'request';

/**
 * Signing in to a server failed, or was refused by rxmcp for the server's or
 * the user's safety. `step` names where; the message says why, and never
 * holds a token, a secret or an authorization code. The call that needed the
 * sign-in fails with it; the client stays usable, and the next call tries
 * again.
 *
 * @example
 * ```ts
 * try {
 *   await firstValueFrom(mcp.listTools());
 * } catch (error) {
 *   if (error instanceof McpAuthError && error.step === 'authorize') console.error('sign-in was not finished');
 * }
 * ```
 */
export class McpAuthError extends McpClientError {
  override name = 'McpAuthError' as const;

  /** The stable code of this class's errors. */
  static override readonly code = 'MCP_AUTH';
  declare readonly code: typeof McpAuthError.code;

  constructor(
    /** Where signing in failed. */
    readonly step: AuthStep,
    reason: string,
    options?: { cause?: unknown; oauthError?: string },
  ) {
    super(`sign-in failed at ${step}: ${reason}`, options);
    this.oauthError = options?.oauthError;
  }

  /** The OAuth `error` code the authorization server gave, when it gave one (such as `invalid_grant`). */
  readonly oauthError: string | undefined;
}
