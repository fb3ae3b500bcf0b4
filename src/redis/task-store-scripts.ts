/**
 * The Lua behind `RedisMCPTaskStore`. A task is a hash of its fields, each value the field's JSON
 * as the application wrote it: the scripts compare and copy those strings but never decode them,
 * so a result comes back byte for byte (Redis' cjson would turn `[]` into `{}` and round numbers
 * to 14 digits).
 *
 * Finished tasks are counted under `<base>held` (all of them) and `<base>held:<owner JSON>` (one
 * principal's; anonymous: empty), sorted sets in the order they finished (`<base>held-seq`), with
 * each one's size and owner in the hash `<base>held-sizes` and the byte totals in
 * `<base>held-bytes` (`*`: all; else per owner). When a task finishes, the tasks that finished
 * first (never this one) are deleted until its principal and the server are back within the
 * bounds. A task that expired by itself still counts until its turn comes, which can only make a
 * bound act early, never late; the accounting holds no more entries than the bounds allow.
 */
import { RedisScript } from './script.js';

/** KEYS: the task. ARGV: expiresAt (ms, or ''), then field/value pairs. */
export const CREATE = new RedisScript(`redis.call('HSET', KEYS[1], unpack(ARGV, 2))
if ARGV[1] ~= '' then redis.call('PEXPIREAT', KEYS[1], ARGV[1]) end
return 1`);

/**
 * Applies an update unless the task is terminal (or, given an expected instance, runs elsewhere);
 * answers the task's fields after it (or nil). KEYS: the task. ARGV: 1 task id, 2 expected
 * instanceId as JSON or '', 3 lastUpdatedAt as JSON, 4 channel, 5 change message, 6 the server's
 * key base, 7 maxFinishedTaskBytes, 8 maxFinishedTaskBytesPerPrincipal, 9 maxFinishedTasks,
 * 10 maxFinishedTasksPerPrincipal, 11 n fields to remove, then their names, then field/value pairs.
 */
export const UPDATE = new RedisScript(`local function terminal(status)
  return status == '"completed"' or status == '"failed"' or status == '"cancelled"'
end
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return false end
if terminal(status) or (ARGV[2] ~= '' and redis.call('HGET', KEYS[1], 'instanceId') ~= ARGV[2]) then
  return redis.call('HGETALL', KEYS[1])
end
local removed = tonumber(ARGV[11])
if removed > 0 then redis.call('HDEL', KEYS[1], unpack(ARGV, 12, 11 + removed)) end
redis.call('HSET', KEYS[1], 'lastUpdatedAt', ARGV[3], unpack(ARGV, 12 + removed))
redis.call('PUBLISH', ARGV[4], ARGV[5])
local task = redis.call('HGETALL', KEYS[1])
if not terminal(redis.call('HGET', KEYS[1], 'status')) then return task end

local base, id = ARGV[6], ARGV[1]
local held, sizes, totals = base .. 'held', base .. 'held-sizes', base .. 'held-bytes'
local function forget(victim)
  redis.call('ZREM', held, victim)
  local entry = redis.call('HGET', sizes, victim)
  if not entry then return end
  local bytes, owner = string.match(entry, '^(%d+) (.*)$')
  redis.call('HDEL', sizes, victim)
  redis.call('ZREM', held .. ':' .. owner, victim)
  redis.call('HINCRBY', totals, '*', -tonumber(bytes))
  if redis.call('HINCRBY', totals, owner, -tonumber(bytes)) <= 0 then redis.call('HDEL', totals, owner) end
end
local function bound(set, field, maxBytes, maxCount)
  while tonumber(redis.call('HGET', totals, field) or '0') > maxBytes or redis.call('ZCARD', set) > maxCount do
    local oldest = redis.call('ZRANGE', set, 0, 1)
    local victim = oldest[1]
    if victim == id then victim = oldest[2] end
    if not victim then return end
    forget(victim)
    redis.call('DEL', base .. 'task:' .. victim)
  end
end
local owner = redis.call('HGET', KEYS[1], 'owner') or ''
local bytes = 0
for _, part in ipairs(task) do bytes = bytes + #part end
local score = redis.call('INCR', base .. 'held-seq')
redis.call('ZADD', held, score, id)
redis.call('ZADD', held .. ':' .. owner, score, id)
redis.call('HSET', sizes, id, bytes .. ' ' .. owner)
redis.call('HINCRBY', totals, '*', bytes)
redis.call('HINCRBY', totals, owner, bytes)
bound(held .. ':' .. owner, owner, tonumber(ARGV[8]), tonumber(ARGV[10]))
bound(held, '*', tonumber(ARGV[7]), tonumber(ARGV[9]))
return task`);
