--[[
  PUSH: writes a new job and makes it ready or delayed, in one step.

  KEYS[1] queue:seq                the id counter
  KEYS[2] queue:queues             the set of queue names
  KEYS[3] q:{queue}:levels         the queue's priority levels
  KEYS[4] q:{queue}:delayed        the queue's delayed set
  KEYS[5] q:{queue}:s:{priority}   the stream for the job's priority

  ARGV[1] prefix                   for the keys derived from data (j:{id}, u:{key})
  ARGV[2] queue
  ARGV[3] name
  ARGV[4] payload                  JSON text, stored as given
  ARGV[5] max_attempts
  ARGV[6] priority                 an integer
  ARGV[7] unique key               '' for none
  ARGV[8] delay in seconds         0 for ready now

  Returns {id, 1} for a new job, {id, 0} when a live unique key collapsed the
  push into the job that holds it, or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include server-time
-- @include layout

local prefix, queue, uniqueKey = ARGV[1], ARGV[2], ARGV[7]
local priority = levelOf(ARGV[6])

local wrongKey = firstWrongTypedKey({KEYS[1], 'string', KEYS[2], 'set', KEYS[3], 'zset',
  KEYS[4], 'zset', KEYS[5], 'stream'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

-- The check and the take happen here, in one script, because doing them in
-- two round trips is exactly the race a unique key exists to prevent.
local ownerKey
if uniqueKey ~= '' then
  ownerKey = uniqueKeyOf(prefix, uniqueKey)
  local ownerType = rcall('TYPE', ownerKey).ok
  if ownerType ~= 'none' and ownerType ~= 'string' then return {ErrorCode.WrongKeyType, ownerKey} end
  local owner = rcall('GET', ownerKey)
  -- A key naming a hash that is gone is free: refusing to queue for ever
  -- because somebody deleted a hash by hand would be the worse answer.
  if owner and rcall('EXISTS', jobKey(prefix, owner)) == 1 then
    return {tonumber(owner), 0}
  end
end

local id = rcall('INCR', KEYS[1])
local job = jobKey(prefix, id)
-- queue:seq behind the highest id would hand out an id twice; never overwrite.
if rcall('EXISTS', job) == 1 then return {ErrorCode.JobIdTaken, job} end

local now = serverNow()
local availableAt = now + math.max(0, math.floor(tonumber(ARGV[8]) or 0))
local entry = ''
if availableAt > now then
  rcall('ZADD', KEYS[4], availableAt, id)
else
  entry = rcall('XADD', KEYS[5], '*', 'job', id)
  rcall('ZADD', KEYS[3], priority, priority)
end
rcall('SADD', KEYS[2], queue)
if ownerKey then rcall('SET', ownerKey, id) end

rcall('HSET', job,
  'queue', queue,
  'name', ARGV[3],
  'payload', ARGV[4],
  'attempts', 0,
  'max_attempts', ARGV[5],
  'priority', priority,
  'unique_key', uniqueKey,
  'available_at', availableAt,
  'reserved_until', 0,
  'reserved_by', '',
  'last_error', '',
  'created_at', formatUtc(now),
  'entry', entry)

return {id, 1}
