// rxmcp/redis: the fleet's shared state in Redis, for agents in several
// processes or on several machines. Needs the `redis` package (the official
// node-redis client, an optional peer dependency); the root entry never loads it.

export { RedisGrants } from './redis-grants.js';
export type { RedisGrantsOptions } from './redis-grants.js';
export { RedisLeaseTable } from './redis-lease-table.js';
export type { RedisLeaseTableOptions } from './redis-lease-table.js';
export type { RedisClientLike, RedisStoreOptions } from './redis-connection.js';
export { RedisPins } from './redis-pins.js';
export type { RedisPinsOptions } from './redis-pins.js';
