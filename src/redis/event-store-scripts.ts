/**
 * The Lua behind `RedisMCPEventStore`. Each script runs atomically, which is what keeps the store
 * exact across instances:
 *
 * - the epoch is created once (SET NX) by whichever script first finds it missing, so every
 *   instance reads the same one, and a wiped Redis gets a new one on its next use;
 * - one global counter (INCR) numbers every occurrence of every type, and the occurrence is added
 *   to its type's stream with the explicit id `<n>-0` in the same script, so positions are totally
 *   ordered across types and instances, and no occurrence can appear below a position already
 *   handed out (by `head()` or a read);
 * - retention trims exactly (XTRIM MINID to the id after the newest dropped entry, instead of the
 *   approximate MAXLEN ~) and records the newest dropped number per type, so `truncated` is
 *   reported exactly as the in-memory store reports it. Entries carry Redis' own clock (TIME), so
 *   `maxAgeMs` means the same on every instance whatever their clocks say.
 *
 * KEYS are always: 1 epoch, 2 counter, 3 the type's stream, 4 the hash of dropped numbers.
 * Stream entries are `t <stored at, ms> o <occurrence JSON>`.
 */
import { RedisScript } from './script.js';

const PRELUDE = `
local function epochOf(candidate)
  if redis.call('SET', KEYS[1], candidate, 'NX') then return candidate end
  return redis.call('GET', KEYS[1])
end

local function nowMs()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end

-- Drops entries beyond maxEvents (oldest first), then entries stored before cutoff.
local function prune(name, maxEvents, cutoff)
  local last
  local excess = redis.call('XLEN', KEYS[3]) - maxEvents
  if excess > 0 then
    local doomed = redis.call('XRANGE', KEYS[3], '-', '+', 'COUNT', excess)
    last = doomed[#doomed][1]
  end
  while true do
    local first = redis.call('XRANGE', KEYS[3], last and ('(' .. last) or '-', '+', 'COUNT', 1)[1]
    if not first or tonumber(first[2][2]) >= cutoff then break end
    last = first[1]
  end
  if not last then return end
  local n = string.match(last, '^(%d+)')
  redis.call('XTRIM', KEYS[3], 'MINID', n .. '-1')
  redis.call('HSET', KEYS[4], name, n)
end
`;

/** ARGV: candidate epoch, name, occurrence JSON, maxEvents, maxAgeMs, channel, message. Returns {epoch, n}. */
export const APPEND = new RedisScript(`${PRELUDE}
local epoch = epochOf(ARGV[1])
local now = nowMs()
local n = redis.call('INCR', KEYS[2])
redis.call('XADD', KEYS[3], n .. '-0', 't', now, 'o', ARGV[3])
prune(ARGV[2], tonumber(ARGV[4]), now - tonumber(ARGV[5]))
redis.call('PUBLISH', ARGV[6], ARGV[7])
return {epoch, n}
`);

/**
 * ARGV: candidate epoch, name, maxEvents, maxAgeMs, the position's epoch, its number, count.
 * Returns {epoch, counter} when the position is of another epoch; else, after pruning,
 * {epoch, counter, dropped, n1, json1, n2, json2, ...}: up to count entries after
 * max(number, dropped).
 */
export const READ = new RedisScript(`${PRELUDE}
local epoch = epochOf(ARGV[1])
local counter = tonumber(redis.call('GET', KEYS[2]) or '0')
if epoch ~= ARGV[5] then return {epoch, counter} end
prune(ARGV[2], tonumber(ARGV[3]), nowMs() - tonumber(ARGV[4]))
local dropped = tonumber(redis.call('HGET', KEYS[4], ARGV[2]) or '0')
local result = {epoch, counter, dropped}
local after = math.max(tonumber(ARGV[6]), dropped)
for _, entry in ipairs(redis.call('XRANGE', KEYS[3], '(' .. after .. '-0', '+', 'COUNT', ARGV[7])) do
  table.insert(result, tonumber(string.match(entry[1], '^(%d+)')))
  table.insert(result, entry[2][4])
end
return result
`);

/** ARGV: candidate epoch. Returns {epoch, counter}. */
export const HEAD = new RedisScript(`${PRELUDE}
return {epochOf(ARGV[1]), tonumber(redis.call('GET', KEYS[2]) or '0')}
`);
