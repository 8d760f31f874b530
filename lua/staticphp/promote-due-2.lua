--[[
  PROMOTE DUE: what a reserve on this queue would promote, without reserving
  anything, for a queue no worker is watching (nothing else promotes a
  delayed job). The same rules as RESERVE's step 1, from the shared
  includes/promote.lua: at most ARGV[3] ids due by the server's clock,
  soonest first, each XADDed to its priority's stream with entry updated and
  its level registered; an id whose hash is gone is dropped from the set.
  Bounded like a reserve, so a burst of due jobs never holds the server:
  the caller repeats the call while `remaining due` is above 0.

  KEYS[1] q:{queue}:delayed
  KEYS[2] q:{queue}:levels

  ARGV[1] prefix             for keys derived from data (streams, job hashes)
  ARGV[2] queue
  ARGV[3] promote limit      the spec's PROMOTE_LIMIT, 50

  Returns {{promoted ids}, {ids whose hash was gone}, remaining due}, or
  {ErrorCode, key}.
]]
local rcall = redis.call
-- @include server-time
-- @include layout
-- @include promote

local delayedKey, levelsKey = KEYS[1], KEYS[2]
local prefix, queue = ARGV[1], ARGV[2]
local limit = math.max(1, math.floor(tonumber(ARGV[3]) or 50))

local wrongKey = firstWrongTypedKey({delayedKey, 'zset', levelsKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local now = serverNow()
local outcome = promoteDue(delayedKey, levelsKey, prefix, queue, now, limit)
if outcome.wrongKey then return {ErrorCode.WrongKeyType, outcome.wrongKey} end

return {outcome.promoted, outcome.vanished, rcall('ZCOUNT', delayedKey, '-inf', now)}
