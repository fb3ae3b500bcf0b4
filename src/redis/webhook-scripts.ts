/**
 * The Lua scripts of the Redis webhook registry and queue: everything that reads and then writes
 * runs as one script, so the cap holds across instances, a write never resurrects a subscription
 * that expired or was removed meanwhile, and a job is enqueued only for a live, active one. Key
 * names are in webhook-registry.ts; scripts that reach several subscriptions build theirs from the
 * prefix (single-node Redis only, as the stores are).
 */
import { RedisScript } from './script.js';

/** KEYS: sub, subs, event index, open, suspended. ARGV: now, max, expiresAt, id, field/value pairs. */
export const CREATE = new RedisScript(`redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
if redis.call('EXISTS', KEYS[1]) == 1 then return 'exists' end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) then return 'full' end
redis.call('DEL', KEYS[4])
redis.call('ZREM', KEYS[5], ARGV[4])
redis.call('HSET', KEYS[1], unpack(ARGV, 5))
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[4])
return 'created'`);

/** KEYS: sub, open. */
export const GET = new RedisScript(`local fields = redis.call('HGETALL', KEYS[1])
if #fields == 0 then return false end
return {fields, redis.call('ZRANGE', KEYS[2], 0, 0)}`);

/** KEYS: index (subs, or one event's). ARGV: now, prefix. */
export const LIST = new RedisScript(`redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local out = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local fields = redis.call('HGETALL', ARGV[2] .. 'sub:' .. id)
  if #fields > 0 then out[#out + 1] = {fields, redis.call('ZRANGE', ARGV[2] .. 'open:' .. id, 0, 0)} end
end
return out`);

/** KEYS: sub, subs, suspended, open. ARGV: secret, graceUntil, expiresAt, id, prefix. */
export const REFRESH = new RedisScript(`local before = redis.call('HGETALL', KEYS[1])
if #before == 0 then return false end
local lowest = redis.call('ZRANGE', KEYS[4], 0, 0)
local secret = redis.call('HGET', KEYS[1], 'secret')
if secret ~= ARGV[1] then
  redis.call('HSET', KEYS[1], 'prevSecret', secret, 'prevUntil', ARGV[2], 'secret', ARGV[1])
end
redis.call('HSET', KEYS[1], 'expiresAt', ARGV[3], 'abandoned', '0', 'active', '1')
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
redis.call('PEXPIREAT', KEYS[4], ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
redis.call('ZADD', ARGV[5] .. 'event:' .. redis.call('HGET', KEYS[1], 'name'), ARGV[3], ARGV[4])
redis.call('ZREM', KEYS[3], ARGV[4])
return {before, lowest}`);

/** KEYS: sub, subs, suspended, open. ARGV: id, prefix. */
export const DELETE = new RedisScript(`local name = redis.call('HGET', KEYS[1], 'name')
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('DEL', KEYS[4])
if name then redis.call('ZREM', ARGV[2] .. 'event:' .. name, ARGV[1]) end
return redis.call('DEL', KEYS[1])`);

/**
 * The same rules as the in-memory registry's `report`, applied atomically. KEYS: sub, suspended.
 * ARGV: kind, now (ISO), error, suspendAfter, id.
 */
export const REPORT = new RedisScript(`if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local kind = ARGV[1]
if kind == 'delivered' then
  redis.call('HSET', KEYS[1], 'lastDeliveryAt', ARGV[2], 'abandoned', '0')
  redis.call('HDEL', KEYS[1], 'lastError', 'failedSince')
elseif kind == 'rejected' then
  redis.call('HSET', KEYS[1], 'abandoned', '0')
elseif kind == 'failed' then
  redis.call('HSET', KEYS[1], 'lastError', ARGV[3])
  redis.call('HSETNX', KEYS[1], 'failedSince', ARGV[2])
elseif redis.call('HINCRBY', KEYS[1], 'abandoned', 1) >= tonumber(ARGV[4]) then
  redis.call('HSET', KEYS[1], 'active', '0')
  redis.call('ZADD', KEYS[2], redis.call('HGET', KEYS[1], 'expiresAt'), ARGV[5])
end
return 1`);

/** KEYS: subs, suspended. ARGV: now. */
export const COUNTS = new RedisScript(`redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
return {redis.call('ZCARD', KEYS[1]), redis.call('ZCARD', KEYS[2])}`);

/**
 * KEYS: stream. ARGV: prefix, then (subscription id, kind, position, payload, after) per job; an
 * empty `after` chains the job after the subscription's `last`. Returns how many were enqueued.
 */
export const ENQUEUE = new RedisScript(`local n = 0
for i = 2, #ARGV, 5 do
  local id, kind, position, payload, after = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4]
  local sub = ARGV[1] .. 'sub:' .. id
  if redis.call('HGET', sub, 'active') == '1' then
    local last = redis.call('HGET', sub, 'last')
    if after == '' then after = last end
    if last == after then redis.call('HSET', sub, 'last', position) end
    local seq = redis.call('HINCRBY', sub, 'seq', 1)
    local open = ARGV[1] .. 'open:' .. id
    redis.call('ZADD', open, seq, seq .. ':' .. after)
    redis.call('PEXPIREAT', open, redis.call('HGET', sub, 'expiresAt'))
    redis.call('XADD', KEYS[1], '*', 'sub', id, 'seq', seq, 'after', after, 'kind', kind,
      'position', position, 'payload', payload)
    n = n + 1
  end
end
return n`);

/** KEYS: stream, open set, attempts. ARGV: group, job id, open member. */
export const SETTLE = new RedisScript(`redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])
redis.call('XDEL', KEYS[1], ARGV[2])
redis.call('ZREM', KEYS[2], ARGV[3])
redis.call('HDEL', KEYS[3], ARGV[2])
return 1`);

/** Re-claims the jobs still pending for this consumer. KEYS: stream. ARGV: group, consumer, ids. Returns the lost ids. */
export const KEEP = new RedisScript(`local lost = {}
for i = 3, #ARGV do
  if #redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[i], ARGV[i], 1, ARGV[2]) == 1 then
    redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, ARGV[i], 'JUSTID')
  else
    lost[#lost + 1] = ARGV[i]
  end
end
return lost`);
