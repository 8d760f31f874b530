--[[
  LARAVEL COPY: runs a copy of one job the operator saw (Run a copy), by its
  payload's exact bytes: while those bytes are still in the queue's ready
  list, delayed or reserved set, a new payload is built from them with a new
  `id` (RedisQueue's 32 random characters), a new `uuid` and `attempts` 0,
  as RedisQueue::createPayloadArray makes a new job's, and pushed as
  RedisQueue::pushRaw pushes (LuaScripts::push: RPUSH onto the ready list
  and a notify token) or, delayed, as laterRaw does (ZADD of the delayed set
  at the Redis second + delay; Laravel takes the PHP host's second).

  The payload is decoded and encoded with cjson inside this script, as
  Laravel's own pop script (LuaScripts::pop) re-encodes every payload it
  reserves: every payload a worker runs has been through cjson already, so
  the copy is one Laravel's worker reads as it reads its own reservations.
  Everything else is kept as it was, `data.command` included (the job's
  serialized object: its arguments, and where the job is ShouldBeEncrypted,
  its ciphertext). The new id and uuid come from the caller: Redis scripts
  have no source of randomness to rely on.

  KEYS[1] {prefix}queues:{queue}            list, ready payloads
  KEYS[2] {prefix}queues:{queue}:delayed    sorted set, scored by the second it is due
  KEYS[3] {prefix}queues:{queue}:reserved   sorted set, scored by the second the reservation runs out
  KEYS[4] {prefix}queues:{queue}:notify     list, one token per ready job

  ARGV[1] the payload as read
  ARGV[2] new id                            32 letters and digits
  ARGV[3] new uuid
  ARGV[4] delay                             whole seconds, 0 for none
  ARGV[5] readyAt                           the index from the head the look-up
                                            found the payload at in the ready
                                            list, just before ('' when it found
                                            it in a set): it is looked for there
                                            and up to MOVED_SINCE places nearer
                                            the head, where Laravel's pops move
                                            it (an LPOS from the head would read
                                            as far as the job is deep)

  Returns {'copied', new id}, {'gone'} when those bytes are nowhere any more,
  {'not-json'} when they are no JSON object Laravel's pop could re-encode,
  or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout
-- @include server-time

local readyKey, delayedKey, reservedKey, notifyKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local payload, newId, newUuid, delay, readyAt = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]) or 0, tonumber(ARGV[5])

local wrongKey = firstWrongTypedKey({readyKey, 'list', delayedKey, 'zset', reservedKey, 'zset', notifyKey, 'list'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

-- Places a ready job may have moved towards the head between the look-up and this call (as many pops).
local MOVED_SINCE = 25

local function readyNearFound()
  if not readyAt then return false end
  for _, element in ipairs(rcall('LRANGE', readyKey, math.max(0, readyAt - MOVED_SINCE), readyAt)) do
    if element == payload then return true end
  end
  return false
end

local there = rcall('ZSCORE', delayedKey, payload) or rcall('ZSCORE', reservedKey, payload) or readyNearFound()
if not there then return {'gone'} end

-- Laravel's pop reads `attempts` as a number; a payload it could not re-encode is not copied.
local ok, job = pcall(cjson.decode, payload)
if not ok or type(job) ~= 'table' or type(job['attempts']) ~= 'number' then return {'not-json'} end
job['id'] = newId
if job['uuid'] ~= nil then job['uuid'] = newUuid end
job['attempts'] = 0
local copy = cjson.encode(job)

if delay > 0 then
  rcall('ZADD', delayedKey, serverNow() + delay, copy)
else
  rcall('RPUSH', readyKey, copy)
  rcall('RPUSH', notifyKey, 1)
end
return {'copied', newId}
