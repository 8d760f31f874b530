--[[
  RESERVE: hands one job of one queue to a worker, or nothing.

  1. Promotes at most ARGV[6] due ids from the delayed set into their
     priority's stream (bounded: a burst of ten thousand due jobs must not
     hold the server inside one script).
  2. Walks the levels highest first; creates each stream's group lazily at
     id 0 with MKSTREAM (not $: jobs are pushed long before workers start).
  3. Per level, XAUTOCLAIM ... COUNT 1 before XREADGROUP ... >, so a job a
     dead worker held is not sent to the back of the queue. XAUTOCLAIM runs
     only when one of the ten pending entries it looks at has been idle past
     the timeout (an XPENDING of those ten says): it would claim nothing
     otherwise, and with many jobs held it is the dearest command of a
     reserve.

  Every entry taken, reclaimed or fresh, is checked against its hash
  (includes/reserve.lua): a hash that is gone makes it a tombstone (XACK +
  XDEL); a hash that points at another entry, or at this id in another
  level's stream, makes it stale and it is dropped the same way; a hash whose
  reserved_until is still ahead is parked in the delayed set at that deadline
  without counting an attempt, as the PHP RESERVE does; otherwise it is
  claimed.

  KEYS[1] q:{queue}:delayed
  KEYS[2] q:{queue}:levels

  ARGV[1] prefix             for keys derived from data (streams, job hashes)
  ARGV[2] queue
  ARGV[3] group              the consumer group
  ARGV[4] worker id          written to reserved_by, cut to 64 characters
  ARGV[5] timeout            seconds: the claim's length and the idle time
                             after which this worker reclaims an entry
  ARGV[6] promote limit

  Returns {id, entry id, {field, value, ...}, branch} for a claimed job, where
  branch is 'reclaimed' (XAUTOCLAIM took it back from an idle holder) or
  'fresh' (XREADGROUP read it from the stream); nil when the queue has
  nothing to hand out; or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include server-time
-- @include layout
-- @include promote
-- @include reserve

local delayedKey, levelsKey = KEYS[1], KEYS[2]
local timeout = math.max(1, math.floor(tonumber(ARGV[5]) or 60))
local promoteLimit = math.floor(tonumber(ARGV[6]) or 50)

local wrongKey = firstWrongTypedKey({delayedKey, 'zset', levelsKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

return reserveJob(delayedKey, levelsKey, ARGV[1], ARGV[2], ARGV[3], string.sub(ARGV[4], 1, 64), timeout, promoteLimit, serverNow())
