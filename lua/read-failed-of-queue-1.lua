--[[
  READ FAILED OF QUEUE: the newest failed jobs of one queue, looked for among
  the newest `window` entries of queue:failed (every queue's). Reads only,
  and bounded whatever the failed set's size: one ZREVRANGE of at most
  `window` ids and one HGET of each id's `queue` field, stopping at `limit`
  matches. The caller then reads the rows of those few ids only, instead of
  whole hashes (error texts included) of the entire window.

  KEYS[1] queue:failed

  ARGV[1] prefix                for the job hashes, built from the ids in the set
  ARGV[2] queue                 the exact name
  ARGV[3] window                failed ids looked at, newest first
  ARGV[4] limit                 matches returned at most

  Returns {id, score, id, score, …} newest first, the score being when the job
  failed (unix seconds), or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout

local failedKey = KEYS[1]
local prefix, queue = ARGV[1], ARGV[2]
local window, limit = tonumber(ARGV[3]), tonumber(ARGV[4])

local wrongKey = firstWrongTypedKey({failedKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local newest = rcall('ZREVRANGE', failedKey, 0, window - 1, 'WITHSCORES')
local found = {}
for i = 1, #newest, 2 do
  if #found >= 2 * limit then break end
  -- A gone hash reads as false; a j:{id} of another type is no job (the
  -- doctor reports it), so its error is no match rather than a failed read.
  if redis.pcall('HGET', jobKey(prefix, newest[i]), 'queue') == queue then
    found[#found + 1] = newest[i]
    found[#found + 1] = newest[i + 1]
  end
end
return found
