import { McpStoreError } from '../errors/store-errors.js';
import { MAX_PINS, type Pin, type PinsStore, validatePin } from '../providers/pins/pins-store.js';
import { messageOf } from '../util/values.js';
import { luaScript, RedisConnection, type RedisStoreOptions } from './redis-connection.js';

/** Options of `RedisPins`. */
export type RedisPinsOptions = RedisStoreOptions;

// KEYS[1]: the hash of pins (tool → pin as JSON). ARGV: '1' to replace or
// '0' to keep a pin already held, the most pins, then tool, pin pairs.
// All or none: past the limit, nothing is written.
const WRITE = luaScript(`
local replace = ARGV[1] == '1'
local fresh = 0
for i = 3, #ARGV, 2 do
  if redis.call('HEXISTS', KEYS[1], ARGV[i]) == 0 then fresh = fresh + 1 end
end
if redis.call('HLEN', KEYS[1]) + fresh > tonumber(ARGV[2]) then return redis.error_reply('the pins would number more than ' .. ARGV[2]) end
for i = 3, #ARGV, 2 do
  if replace then redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) else redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1]) end
end
return fresh
`);

/**
 * Pins (`PinsStore`) kept in Redis, one hash per namespace, so that every
 * agent of a fleet holds tools to the same definitions: give each `Pins` a
 * `RedisPins` with the same `namespace` as its `store`. A change approved by
 * any of them is what all of them compare with from their next listing.
 * First sightings never overwrite a pin another process wrote first.
 *
 * Fails closed: when Redis cannot be reached or does not answer within
 * `timeoutMs`, or holds an entry that is not a pin, `read` and `write`
 * reject with `McpStoreError` naming the store, and `Pins` hides every tool
 * it could not check. It recovers by itself when Redis returns.
 *
 * @example
 * ```ts
 * import { Pins } from 'rxmcp';
 * import { RedisPins } from 'rxmcp/redis';
 *
 * const store = new RedisPins({ url: 'redis://127.0.0.1:6379', namespace: 'team-a' });
 * const pins = new Pins({ provider: registry, store, onDrift });
 * // … at shutdown:
 * await store.close();
 * ```
 */
export class RedisPins implements PinsStore {
  private readonly redis: RedisConnection;
  private readonly key: string;

  /** @throws McpClientError for unknown options, neither or both of client and url, or a bad namespace or budget. */
  constructor(options: RedisPinsOptions) {
    this.redis = new RedisConnection('RedisPins', [], options);
    this.key = this.redis.key('pins');
  }

  /**
   * The pins Redis holds now for these tools, in one round trip.
   * @throws McpStoreError when Redis cannot answer, or holds an entry that is not a pin.
   */
  async read(tools: readonly string[]): Promise<Map<string, Pin>> {
    const found = new Map<string, Pin>();
    if (tools.length === 0) return found;
    const reply = await this.redis.command('read', ['HMGET', this.key, ...tools]);
    if (!Array.isArray(reply) || reply.length !== tools.length) throw this.broken('read', 'unexpected reply to HMGET');
    reply.forEach((raw: unknown, n) => {
      if (raw === null || raw === undefined) return;
      const tool = tools[n] as string;
      let pin: Pin;
      try {
        pin = validatePin(JSON.parse(String(raw)));
      } catch (error) {
        throw this.broken('read', `the pin of ${JSON.stringify(tool.slice(0, 200))} is not a pin (${messageOf(error).slice(0, 200)})`);
      }
      if (pin.tool !== tool) throw this.broken('read', `the pin kept under ${JSON.stringify(tool.slice(0, 200))} is another tool's`);
      found.set(tool, pin);
    });
    return found;
  }

  /**
   * Stores pins (see `PinsStore.write`), all or none, and resolves once Redis holds them.
   * @throws McpStoreError when Redis cannot answer (the pins may not have been written) or would hold more than 10,000 pins.
   */
  async write(pins: readonly Pin[], options: { replace: boolean }): Promise<void> {
    const checked = pins.map(validatePin);
    if (checked.length === 0) return;
    const pairs = checked.flatMap((pin) => [pin.tool, JSON.stringify(pin)]);
    await this.redis.script('write', WRITE, [this.key], [options.replace ? '1' : '0', String(MAX_PINS), ...pairs]);
  }

  /** Closes the client it made from `url` (a given client stays open). Pins stay in Redis. */
  close(): Promise<void> {
    return this.redis.close();
  }

  private broken(operation: string, reason: string): McpStoreError {
    return new McpStoreError('RedisPins', this.redis.location, operation, reason);
  }
}
