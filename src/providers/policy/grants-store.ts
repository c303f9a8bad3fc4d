import type { PolicyRule } from './rules.js';

/**
 * What `Policy` needs from a shared grant book (its `grantsStore`): the
 * contract both the in-process `Grants` and `RedisGrants` (from
 * `rxmcp/redis`) keep. `current` and `add` may answer with a plain value or
 * a Promise; `Policy` awaits them.
 *
 * Grants are allow or deny rules, validated by the book (all of an `add` or
 * none). A book that cannot answer must throw or reject (preferably with
 * `McpStoreError`): `Policy` then asks the human rather than allowing, and
 * an "always" answer it could not write applies to that one call only.
 */
export interface GrantsStore {
  /** A copy of every grant this process knows of, oldest first, without waiting (a remote book answers from its local mirror). */
  readonly grants: PolicyRule[];
  /** The grants as the book holds them now, for a decision: a remote book checks that its mirror is current. */
  current(): PolicyRule[] | Promise<PolicyRule[]>;
  /** Adds grants, validated, all or none; settles once they are durable, so a listener told about them can rely on them. */
  add(grants: readonly PolicyRule[]): void | Promise<void>;
}
