--[[
  DOCTOR RAISE SEQ: sets queue:seq to the highest job id the check found when
  it is lower, so that the next push gets a fresh id (PUSH refuses to
  overwrite a job, so a counter behind stops every push at the first taken id).

  Re-checks that the job key exists and the counter is still lower; it never
  lowers the counter.

  KEYS[1] queue:seq

  ARGV[1] prefix                for the job key
  ARGV[2] the highest job id

  Returns {1} when raised, {0} when it was already high enough, or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout

local seqKey = KEYS[1]
local prefix, highest = ARGV[1], tonumber(ARGV[2])

local wrongKey = firstWrongTypedKey({seqKey, 'string'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end
if not highest or rcall('EXISTS', jobKey(prefix, ARGV[2])) == 0 then return {0} end
local current = tonumber(rcall('GET', seqKey) or '0')
if current and current >= highest then return {0} end
rcall('SET', seqKey, string.format('%d', highest))
return {1}
