--[[
  RESERVE: hands one job of one queue to a worker, or nothing.

  1. Promotes at most ARGV[6] due ids from the delayed set into their
     priority's stream (bounded: a burst of ten thousand due jobs must not
     hold the server inside one script).
  2. Walks the levels highest first; creates each stream's group lazily at
     id 0 with MKSTREAM (not $: jobs are pushed long before workers start).
  3. Per level, XAUTOCLAIM ... COUNT 1 before XREADGROUP ... >, so a job a
     dead worker held is not sent to the back of the queue.

  A reclaimed entry whose hash is gone is a tombstone (XACK + XDEL); one whose
  reserved_until is still ahead is parked in the delayed set at that deadline
  without counting an attempt; otherwise it is claimed. An entry the hash no
  longer points at (the job failed, was released or requeued since) is stale
  and dropped the same way as a tombstone.

  KEYS[1] q:{queue}:delayed
  KEYS[2] q:{queue}:levels

  ARGV[1] prefix             for keys derived from data (streams, job hashes)
  ARGV[2] queue
  ARGV[3] group              the consumer group
  ARGV[4] worker id          written to reserved_by, cut to 64 characters
  ARGV[5] timeout            seconds: the claim's length and the idle time
                             after which this worker reclaims an entry
  ARGV[6] promote limit

  Returns {id, entry id, {field, value, ...}} for a claimed job, nil when the
  queue has nothing to hand out, or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include server-time
-- @include layout
-- @include promote

local delayedKey, levelsKey = KEYS[1], KEYS[2]
local prefix, queue, group = ARGV[1], ARGV[2], ARGV[3]
local workerId = string.sub(ARGV[4], 1, 64)
local timeout = math.max(1, math.floor(tonumber(ARGV[5]) or 60))
local promoteLimit = math.floor(tonumber(ARGV[6]) or 50)
-- One consumer name for the whole fleet: worker ids change on every restart
-- and would leave the group a dead consumer per deploy. Who holds a job is
-- in its hash's reserved_by.
local CONSUMER = 'shared'
-- Bounds the tombstones and stale entries one call skips per level.
local MAX_SKIPPED = 10

local wrongKey = firstWrongTypedKey({delayedKey, 'zset', levelsKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local now = serverNow()

local promotion = promoteDue(delayedKey, levelsKey, prefix, queue, now, promoteLimit)
if promotion.wrongKey then return {ErrorCode.WrongKeyType, promotion.wrongKey} end

local function drop(stream, entry)
  redis.pcall('XACK', stream, group, entry)
  rcall('XDEL', stream, entry)
end

local function take(stream, entry, fields, reclaimed)
  local id
  for i = 1, #(fields or {}), 2 do
    if fields[i] == 'job' then id = fields[i + 1] end
  end
  local job = id and jobKey(prefix, id)
  if not job or rcall('TYPE', job).ok ~= 'hash' then
    drop(stream, entry)
    return nil
  end
  local state = rcall('HMGET', job, 'entry', 'reserved_until', 'attempts')
  if state[1] and state[1] ~= entry then
    drop(stream, entry)
    return nil
  end
  if reclaimed then
    -- XAUTOCLAIM measured idleness against this worker's timeout; the
    -- holder's own deadline gets the last word. Parking is not an attempt.
    local deadline = tonumber(state[2]) or 0
    if deadline > now then
      rcall('ZADD', delayedKey, deadline, id)
      rcall('HSET', job, 'entry', '')
      drop(stream, entry)
      return nil
    end
  end
  rcall('HSET', job,
    'attempts', (tonumber(state[3]) or 0) + 1,
    'reserved_by', workerId,
    'reserved_until', now + timeout,
    'entry', entry)
  return {id, entry, rcall('HGETALL', job)}
end

for _, level in ipairs(rcall('ZREVRANGE', levelsKey, 0, -1)) do
  local stream = streamKey(prefix, queue, level)
  wrongKey = firstWrongTypedKey({stream, 'stream'})
  if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

  local claimed = redis.pcall('XAUTOCLAIM', stream, group, CONSUMER, timeout * 1000, '0-0', 'COUNT', 1)
  if claimed.err then
    if not string.find(claimed.err, 'NOGROUP', 1, true) then return claimed end
    rcall('XGROUP', 'CREATE', stream, group, '0', 'MKSTREAM')
  elseif claimed[2][1] then
    local reply = take(stream, claimed[2][1][1], claimed[2][1][2], true)
    if reply then return reply end
  end

  for _ = 1, MAX_SKIPPED do
    local read = rcall('XREADGROUP', 'GROUP', group, CONSUMER, 'COUNT', 1, 'STREAMS', stream, '>')
    if not read then break end
    local newEntry = read[1][2][1]
    local reply = take(stream, newEntry[1], newEntry[2], false)
    if reply then return reply end
  end
end

return nil
