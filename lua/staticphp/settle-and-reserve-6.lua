--[[
  SETTLE AND RESERVE: a worker settles the job it finished (complete,
  release or fail) and is handed the next job of a queue, in one call, so a
  busy worker pays one round trip per job instead of two. The two halves are
  exactly complete-3/release-3/fail-4's (includes/settle.lua) and
  reserve-2's (includes/reserve.lua), run one after the other in one script:
  nothing can happen between them, which changes nothing either half checks.

  The next job is reserved whether or not the settle still held its claim:
  a worker whose claim was lost is as free to take the next job as one whose
  settle applied.

  KEYS[1] q:{queue}:s:{level}   the stream the finished job was reserved from
  KEYS[2] q:{queue}:delayed     of the finished job's queue
  KEYS[3] queue:failed
  KEYS[4] j:{id}                the finished job
  KEYS[5] q:{next}:delayed      of the queue to reserve from
  KEYS[6] q:{next}:levels

  ARGV[1]  prefix               for keys derived from data
  ARGV[2]  group
  ARGV[3]  how                  'complete', 'release' or 'fail'
  ARGV[4]  id                   the finished job, as reserve handed it out:
  ARGV[5]  entry id
  ARGV[6]  reserved_by
  ARGV[7]  reserved_until
  ARGV[8]  delay in seconds     release only
  ARGV[9]  error message        release and fail: last_error or error
  ARGV[10] queue                to reserve from
  ARGV[11] worker id            written to reserved_by, cut to 64 characters
  ARGV[12] timeout              seconds
  ARGV[13] promote limit

  Returns {settled, next}: settled is 1 when applied and 0 when the claim had
  been lost; next is reserve-2's reply (a claimed job, nil, or {ErrorCode,
  key} for a level's stream of the wrong type, met after the settle stood).
  Or {ErrorCode, key} when a declared key has the wrong type, before
  anything is written.
]]
local rcall = redis.call
-- @include server-time
-- @include layout
-- @include fail-job
-- @include settle
-- @include promote
-- @include reserve

local stream, delayedKey, failedKey, job, nextDelayedKey, nextLevelsKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local prefix, group, how = ARGV[1], ARGV[2], ARGV[3]

if how ~= 'complete' and how ~= 'release' and how ~= 'fail' then
  return redis.error_reply('settle-and-reserve: how must be complete, release or fail, not ' .. how)
end

-- Only the keys a TYPE call must vouch for, each once: the stream and the
-- hash are checked by the settle's first command on each, the failed set only
-- when failing writes it, and the finished job's queue is usually the next
-- one's too.
local checks = {delayedKey, 'zset', nextLevelsKey, 'zset'}
if how == 'fail' then
  checks[#checks + 1] = failedKey
  checks[#checks + 1] = 'zset'
end
if nextDelayedKey ~= delayedKey then
  checks[#checks + 1] = nextDelayedKey
  checks[#checks + 1] = 'zset'
end
local wrongKey = firstWrongTypedKey(checks)
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local settle = settleHeldJob(how, stream, delayedKey, failedKey, job, prefix, group, ARGV[4], ARGV[5], ARGV[6], ARGV[7],
  math.max(0, math.floor(tonumber(ARGV[8]) or 0)), ARGV[9])
if settle[1] < 0 then return settle end

local timeout = math.max(1, math.floor(tonumber(ARGV[12]) or 60))
local nextJob = reserveJob(nextDelayedKey, nextLevelsKey, prefix, ARGV[10], group, string.sub(ARGV[11], 1, 64), timeout,
  math.floor(tonumber(ARGV[13]) or 50), serverNow())
return {settle[1], nextJob or false}
