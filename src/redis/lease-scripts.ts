import { luaScript } from './redis-connection.js';

/** The keys of one namespace's table, in the order every script takes them. */
export const LEASE_KEYS = ['leases', 'expiry', 'paths'] as const;

// The lease table is three keys per namespace: a hash path → "since expires
// holder" (milliseconds, by the server's clock, TIME, so that the callers'
// clocks never matter), a sorted set of paths by expiry (to drop what has
// lapsed without reading the rest), and a sorted set of paths by name (to
// find the leases inside a directory without reading the rest). So an
// operation costs the depth of its paths, not the size of the table. Redis
// runs a script alone: each operation is atomic. The keys expire with the
// longest lease, so an abandoned namespace leaves nothing behind.
const PRELUDE = `
local leases, expiry, paths = KEYS[1], KEYS[2], KEYS[3]
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local function fmt(number) return string.format('%.0f', number) end

for _, path in ipairs(redis.call('ZRANGEBYSCORE', expiry, '-inf', fmt(now))) do
  redis.call('HDEL', leases, path)
  redis.call('ZREM', paths, path)
end
redis.call('ZREMRANGEBYSCORE', expiry, '-inf', fmt(now))

-- A lease as stored, or nil; an entry rxmcp did not write is an error, never a free path.
local function parse(path, value)
  if not value then return nil end
  local since, expires, holder = string.match(value, '^(%d+) (%d+) (.*)$')
  if since == nil then error('the lease on ' .. path .. ' is not one rxmcp wrote') end
  return { path = path, holder = holder, since = tonumber(since), expires = tonumber(expires) }
end

-- The path and every directory around it: within(path, dir) holds exactly
-- for these (dir = path, dir followed by a slash in path, dir ending in one).
local function around(path)
  local found = { path }
  for i = 1, #path do
    if string.sub(path, i, i) == '/' then
      found[#found + 1] = string.sub(path, 1, i - 1)
      found[#found + 1] = string.sub(path, 1, i)
    end
  end
  return found
end

-- The leases on the path and on the directories around it.
local function outer(path)
  local candidates = around(path)
  local values = redis.call('HMGET', leases, unpack(candidates))
  local found = {}
  for k = 1, #candidates do
    local lease = parse(candidates[k], values[k])
    if lease then found[#found + 1] = lease end
  end
  return found
end

-- Another holder's lease touching the path (on it, around it, or inside it), or nil.
local function conflict(holder, path)
  for _, lease in ipairs(outer(path)) do
    if lease.holder ~= holder then return lease end
  end
  local prefix = path
  if string.sub(prefix, -1) ~= '/' then prefix = prefix .. '/' end
  local offset = 0
  while true do
    local batch = redis.call('ZRANGEBYLEX', paths, '[' .. prefix, '[' .. prefix .. '\\255', 'LIMIT', offset, 100)
    if #batch == 0 then return nil end
    local values = redis.call('HMGET', leases, unpack(batch))
    for k = 1, #batch do
      local lease = parse(batch[k], values[k])
      if lease and lease.holder ~= holder then return lease end
    end
    offset = offset + #batch
  end
end

local function drop(path)
  redis.call('HDEL', leases, path)
  redis.call('ZREM', expiry, path)
  redis.call('ZREM', paths, path)
end
`;

/** ARGV: holder, ttl in ms, paths… → nil when granted, else { path, holder, heldForSeconds } of a conflicting lease. */
export const ACQUIRE = luaScript(`${PRELUDE}
local holder = ARGV[1]
for j = 3, #ARGV do
  local lease = conflict(holder, ARGV[j])
  if lease then return { lease.path, lease.holder, math.floor((now - lease.since) / 1000) } end
end
local expires = now + tonumber(ARGV[2])
for j = 3, #ARGV do
  local since = now
  local own = parse(ARGV[j], redis.call('HGET', leases, ARGV[j]))
  if own then since = own.since end
  redis.call('HSET', leases, ARGV[j], fmt(since) .. ' ' .. fmt(expires) .. ' ' .. holder)
  redis.call('ZADD', expiry, fmt(expires), ARGV[j])
  redis.call('ZADD', paths, 0, ARGV[j])
end
local latest = redis.call('ZRANGE', expiry, -1, -1, 'WITHSCORES')[2]
for _, key in ipairs(KEYS) do redis.call('PEXPIREAT', key, latest) end
return false
`);

/** ARGV: holder, "all" or "some", paths… → the paths released. */
export const RELEASE = luaScript(`${PRELUDE}
local released = {}
if ARGV[2] == 'all' then
  -- Every lease is read once here: this runs when an agent's run is over.
  local flat = redis.call('HGETALL', leases)
  for i = 1, #flat, 2 do
    local lease = parse(flat[i], flat[i + 1])
    if lease.holder == ARGV[1] then released[#released + 1] = lease.path end
  end
else
  local seen = {}
  for j = 3, #ARGV do
    local lease = parse(ARGV[j], redis.call('HGET', leases, ARGV[j]))
    if lease and lease.holder == ARGV[1] and not seen[lease.path] then
      seen[lease.path] = true
      released[#released + 1] = lease.path
    end
  end
end
for _, path in ipairs(released) do drop(path) end
return released
`);

/** ARGV: holder, path → { path, holder, since, expiresAt } of another holder's lease touching the path, or nil. */
export const CONFLICT = luaScript(`${PRELUDE}
local lease = conflict(ARGV[1], ARGV[2])
if lease then return { lease.path, lease.holder, fmt(lease.since), fmt(lease.expires) } end
return false
`);

/** ARGV: holder, path → 1 when the holder has a lease on the path or a directory around it, else 0. */
export const COVERS = luaScript(`${PRELUDE}
for _, lease in ipairs(outer(ARGV[2])) do
  if lease.holder == ARGV[1] then return 1 end
end
return 0
`);
