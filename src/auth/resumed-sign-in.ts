import { McpAuthError } from '../errors/auth-errors.js';
import { isObject } from '../util/values.js';
import type { PendingSignIn } from './auth-options.js';
import { chooseAuthMethod, type ClientIdentity } from './client-identity.js';
import type { ServerMetadata } from './discovery.js';

/** A sign-in begun earlier that the `authorize` hook answered with, checked, and the identity to finish it as. */
export interface ResumedPending {
  pending: PendingSignIn;
  identity: ClientIdentity;
}

const FIELDS = ['issuer', 'clientId', 'redirectUrl', 'resource', 'state', 'codeVerifier'] as const;

/**
 * Checks a `PendingSignIn` that the `authorize` hook kept from an earlier
 * page load against the sign-in the client has just begun: it must have been
 * begun with the same authorization server, redirect URL and resource, and
 * as the same client, or as a client the authorization server registered
 * (which a reload forgets). The kept value came back from storage, so each
 * field is checked before it is used.
 *
 * @param kept What the hook answered with as `pending`.
 * @param now The sign-in just begun.
 * @param identity Who the client is now.
 * @param metadata The authorization server's metadata.
 * @throws McpAuthError (step `callback`) when the two do not match.
 */
export function checkResumed(kept: unknown, now: PendingSignIn, identity: ClientIdentity, metadata: ServerMetadata): ResumedPending {
  if (!isObject(kept) || !FIELDS.every((name) => typeof kept[name] === 'string' && kept[name] !== '') || (kept['clientSecret'] !== undefined && typeof kept['clientSecret'] !== 'string')) {
    throw new McpAuthError('callback', 'the authorize hook answered with a pending sign-in that is not one rxmcp began');
  }
  const pending = kept as unknown as PendingSignIn;
  for (const name of ['issuer', 'redirectUrl', 'resource'] as const) {
    if (pending[name] !== now[name]) {
      throw new McpAuthError('callback', `the sign-in being finished was begun for ${name} ${JSON.stringify(pending[name].slice(0, 200))}, not ${JSON.stringify(now[name])}`);
    }
  }
  if (pending.clientId === identity.clientId) return { pending, identity };
  // Only a registered client may differ: the page that registered it is gone. A caller's own client id may not change.
  if (identity.source !== 'registration') {
    throw new McpAuthError('callback', `the sign-in being finished was begun as another client than ${JSON.stringify(identity.clientId)}`);
  }
  return {
    pending,
    identity: {
      clientId: pending.clientId,
      ...(pending.clientSecret !== undefined ? { clientSecret: pending.clientSecret } : {}),
      authMethod: chooseAuthMethod(metadata, pending.clientSecret, undefined),
      source: 'registration',
    },
  };
}
