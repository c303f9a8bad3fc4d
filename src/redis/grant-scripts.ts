import { luaScript } from './redis-connection.js';

// The grant book is one list per namespace, appended to and never rewritten:
// each entry is one add (all its grants, with a random id). A reader knows
// the book by its length and its last entry; when both still match, its
// mirror is current and nothing more is sent.
const CHECK = `
local n = redis.call('LLEN', KEYS[1])
local current = n == tonumber(ARGV[1]) and (n == 0 or redis.call('LINDEX', KEYS[1], -1) == ARGV[2])
`;

/** ARGV: known length, known last entry → { n } when the mirror is current, else { n, { every entry… } }. */
export const READ = luaScript(`${CHECK}
if current then return { n } end
return { n, redis.call('LRANGE', KEYS[1], 0, -1) }
`);

/**
 * ARGV: known length, known last entry, channel, the new entry → appends it,
 * publishes "length\\nentry" on the channel, and answers as READ does after
 * the append.
 */
export const ADD = luaScript(`${CHECK}
n = redis.call('RPUSH', KEYS[1], ARGV[4])
redis.call('PUBLISH', ARGV[3], n .. '\\n' .. ARGV[4])
if current then return { n } end
return { n, redis.call('LRANGE', KEYS[1], 0, -1) }
`);
