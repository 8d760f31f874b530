--[[
  READ FAILED OF QUEUE: failed jobs of one queue among `count` entries of
  queue:failed (every queue's), newest first from rank `start`. Reads only,
  and bounded whatever the failed set's size: one ZREVRANGE of at most
  `count` ids and one HGET of each id's `queue` field (about 1 µs of Redis
  each), stopping at `limit` matches. The caller then reads the rows of those
  few ids only, instead of whole hashes (error texts included) of every id.

  KEYS[1] queue:failed

  ARGV[1] prefix                for the job hashes, built from the ids in the set
  ARGV[2] queue                 the exact name
  ARGV[3] start                 the rank to start from, 0 being the newest
  ARGV[4] count                 failed ids looked at, at most
  ARGV[5] limit                 matches returned at most

  Returns {ids looked at, id, score, id, score, …} newest first, the score
  being when the job failed (unix seconds); fewer ids looked at than `count`
  and no `limit` matches means the set ended. Or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout

local failedKey = KEYS[1]
local prefix, queue = ARGV[1], ARGV[2]
local start, count, limit = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])

local wrongKey = firstWrongTypedKey({failedKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local newest = rcall('ZREVRANGE', failedKey, start, start + count - 1, 'WITHSCORES')
local reply = {0}
for i = 1, #newest, 2 do
  if #reply > 2 * limit then break end
  reply[1] = reply[1] + 1
  -- A gone hash reads as false; a j:{id} of another type is no job (the
  -- doctor reports it), so its error is no match rather than a failed read.
  if redis.pcall('HGET', jobKey(prefix, newest[i]), 'queue') == queue then
    reply[#reply + 1] = newest[i]
    reply[#reply + 1] = newest[i + 1]
  end
end
return reply
