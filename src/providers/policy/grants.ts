import type { GrantsStore } from './grants-store.js';
import { type PolicyRule, validateRule } from './rules.js';

/**
 * A book of grants shared by any number of policies: the human's "always"
 * belongs to the session, not to the policy that asked. Hand one book to every
 * policy of a fleet as `grantsStore`; a grant added through any of them binds
 * all of them from the next decision on. Grants are consulted only after the
 * static rules said ask, so none of them can overrule a deny or the danger floor.
 * Every operation answers at once. For policies in several processes or on
 * several machines, `RedisGrants` from `rxmcp/redis` keeps the same contract
 * (`GrantsStore`).
 */
export class Grants implements GrantsStore {
  private readonly book: PolicyRule[] = [];

  /** @throws McpClientError for a grant that is not a valid allow or deny rule. */
  constructor(options: { grants?: readonly PolicyRule[] } = {}) {
    for (const grant of options.grants ?? []) this.book.push(validateGrant(grant));
  }

  /** A copy of every grant, oldest first: plain data to persist. */
  get grants(): PolicyRule[] {
    return this.book.map((grant) => ({ ...grant }));
  }

  /** The grants a decision weighs: all of them, at once. */
  current(): PolicyRule[] {
    return this.grants;
  }

  /** Adds grants (each validated; all or none). */
  add(grants: readonly PolicyRule[]): void {
    const checked = grants.map(validateGrant);
    this.book.push(...checked);
  }
}

/** A grant is an allow or deny rule. */
export function validateGrant(grant: unknown): PolicyRule {
  const rule = validateRule(grant, 'grant');
  if (rule.decision === 'ask') return validateRule({ ...rule, decision: undefined }, 'grant (a grant allows or denies)');
  return rule;
}
