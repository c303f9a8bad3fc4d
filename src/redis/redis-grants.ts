import { randomUUID } from 'node:crypto';
import { McpStoreError } from '../errors/store-errors.js';
import { validateGrant } from '../providers/policy/grants.js';
import type { GrantsStore } from '../providers/policy/grants-store.js';
import type { PolicyRule } from '../providers/policy/rules.js';
import { isObject } from '../util/values.js';
import { ADD, READ } from './grant-scripts.js';
import { RedisConnection, type RedisStoreOptions } from './redis-connection.js';

/** Options of `RedisGrants`. */
export type RedisGrantsOptions = RedisStoreOptions;

/** One entry of the book as Redis holds it, with its grants once read. */
interface Entry {
  raw: string;
  grants: PolicyRule[];
}

/**
 * A grant book kept in Redis, so that a human's "always" binds every policy
 * of a fleet, in any process or on any host: give each `Policy` a
 * `RedisGrants` with the same `namespace` as its `grantsStore`. Same
 * contract as the in-process `Grants`: grants are allow or deny rules,
 * validated (all of an add or none), consulted only after the rules said
 * ask.
 *
 * An added grant is in Redis before `add` resolves (so before the policy's
 * `onGrant` hears of it). Every decision that reaches the book checks, in
 * one round trip, that the local mirror is current (re-reading it when
 * not), so a grant made anywhere binds every policy from its next decision.
 * Additions are also published, keeping `grants` current between decisions;
 * after a reconnect the mirror is read again.
 *
 * Fails closed: when Redis cannot be reached or does not answer within
 * `timeoutMs`, `current` and `add` reject with `McpStoreError` naming the
 * store; a `Policy` then asks the human instead of allowing, and an
 * "always" answer applies to its one call only. It recovers by itself when
 * Redis returns.
 *
 * @example
 * ```ts
 * import { Policy } from 'rxmcp';
 * import { RedisGrants } from 'rxmcp/redis';
 *
 * const grantsStore = new RedisGrants({ url: 'redis://127.0.0.1:6379', namespace: 'session-42' });
 * const policy = new Policy({ provider: registry, rules: Policy.defaultRules(), onAsk, grantsStore });
 * // … at shutdown:
 * await grantsStore.close();
 * ```
 */
export class RedisGrants implements GrantsStore {
  private readonly redis: RedisConnection;
  private readonly key: string;
  private readonly channel: string;
  private entries: Entry[] = [];

  /** @throws McpClientError for unknown options, neither or both of client and url, or a bad namespace or budget. */
  constructor(options: RedisGrantsOptions) {
    this.redis = new RedisConnection('RedisGrants', [], options);
    this.key = this.redis.key('grants');
    this.channel = this.key;
    this.redis.subscribe(
      this.channel,
      (message) => this.heard(message),
      () => void this.current().catch(() => undefined),
    );
  }

  /** A copy of every grant this process knows of, oldest first, from the local mirror (current as of the last decision or message). */
  get grants(): PolicyRule[] {
    return this.entries.flatMap((entry) => entry.grants.map((grant) => ({ ...grant })));
  }

  /**
   * The grants as Redis holds them now: one round trip, which re-reads the
   * book only when it changed since this process last looked.
   * @throws McpStoreError when Redis cannot answer, or holds an entry that is not a valid grant.
   */
  async current(): Promise<PolicyRule[]> {
    const reply = await this.redis.script('read', READ, [this.key], this.known());
    this.settle('read', reply, undefined);
    return this.grants;
  }

  /**
   * Adds grants (each validated; all or none) and resolves once Redis holds
   * them; then publishes them to every other `RedisGrants` of the namespace.
   * @throws McpClientError for a grant that is not a valid allow or deny rule (nothing is written).
   * @throws McpStoreError when Redis cannot answer (the grants may not have been written).
   */
  async add(grants: readonly PolicyRule[]): Promise<void> {
    const checked = grants.map(validateGrant);
    const raw = JSON.stringify({ id: randomUUID(), grants: checked });
    const reply = await this.redis.script('add', ADD, [this.key], [...this.known(), this.channel, raw]);
    this.settle('add', reply, raw);
  }

  /** Closes what the book opened (its subscription, and its client when it made it from `url`). Grants stay in Redis. */
  close(): Promise<void> {
    return this.redis.close();
  }

  private known(): [string, string] {
    return [String(this.entries.length), this.entries.at(-1)?.raw ?? ''];
  }

  // Applies a READ or ADD reply: `[n]` means the mirror was current (so an
  // add's entry is the n-th), `[n, entries]` is the whole book.
  private settle(operation: string, reply: unknown, added: string | undefined): void {
    if (!Array.isArray(reply) || typeof reply[0] !== 'number' || (reply.length === 2 && !Array.isArray(reply[1])) || reply.length > 2) {
      throw this.broken(operation, `unexpected reply ${JSON.stringify(reply)}`);
    }
    const [length, book] = reply as [number, unknown[] | undefined];
    if (book) this.entries = book.map((raw) => this.entry(operation, raw));
    else if (added !== undefined) this.place(length, added);
  }

  // A published addition: placed when it is the next entry, otherwise the
  // mirror is behind (or was ahead of a book that lost entries) and is read again.
  private heard(message: string): void {
    const newline = message.indexOf('\n');
    const length = Number(message.slice(0, newline));
    try {
      if (newline > 0 && Number.isInteger(length) && this.place(length, message.slice(newline + 1))) return;
    } catch {
      // An entry that does not read is left for the next decision to refuse.
    }
    void this.current().catch(() => undefined);
  }

  // Puts the entry at position `length`; false when that does not follow from the mirror.
  private place(length: number, raw: string): boolean {
    if (this.entries[length - 1]?.raw === raw) return true;
    if (this.entries.length !== length - 1) return false;
    this.entries.push(this.entry('read', raw));
    return true;
  }

  private entry(operation: string, raw: unknown): Entry {
    let grants: PolicyRule[];
    try {
      const parsed: unknown = JSON.parse(String(raw));
      if (!isObject(parsed) || !Array.isArray(parsed.grants)) throw new Error('not an entry of grants');
      grants = parsed.grants.map(validateGrant);
    } catch (error) {
      throw this.broken(operation, `the book holds an entry that is not a valid grant, ${JSON.stringify(String(raw).slice(0, 200))}`, error);
    }
    return { raw: String(raw), grants };
  }

  private broken(operation: string, reason: string, cause?: unknown): McpStoreError {
    return new McpStoreError('RedisGrants', this.redis.location, operation, reason, { cause });
  }
}
