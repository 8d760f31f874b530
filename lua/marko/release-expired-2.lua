--[[
  MARKO RELEASE EXPIRED: puts a reservation whose time ran out back in line
  now. marko's pop would do the same at its next call on this queue (it
  moves every expired reservation to the ready list), but at an end of the
  list its documentation does not name; so the id goes into the delayed
  set, due a second ago, and that same pop moves it with the other due jobs
  (the layout note's way to requeue without knowing the list's direction,
  §4.6). Until then marko counts it as ready, as its size() counts due
  delayed jobs. Its attempts are the hash's and stay as they are: pop's
  limit check still applies. Refused while the reservation is live.

  KEYS[1] {prefix}queues:{queue}:reserved   sorted set, scored by the second the reservation runs out
  KEYS[2] {prefix}queues:{queue}:delayed    sorted set, scored by the second it is due

  ARGV[1] job id

  Returns {1} when done, {0} when the job is not reserved (any more),
  {ErrorCode.LiveReservation, key} when the reservation has not run out, or
  {ErrorCode.WrongKeyType, key}.
]]
local rcall = redis.call
-- @include layout
-- @include server-time

local reservedKey, delayedKey = KEYS[1], KEYS[2]
local id = ARGV[1]

local wrongKey = firstWrongTypedKey({reservedKey, 'zset', delayedKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end
local expiresAt = tonumber(rcall('ZSCORE', reservedKey, id))
if not expiresAt then return {0} end
local now = serverNow()
-- Expired means expiresAt <= now, as QueueLens's reservation pages count it.
if expiresAt > now then return {ErrorCode.LiveReservation, reservedKey} end
rcall('ZREM', reservedKey, id)
-- A second ago, not now: whether marko's pop takes a job due at exactly now is not documented.
rcall('ZADD', delayedKey, now - 1, id)
return {1}
