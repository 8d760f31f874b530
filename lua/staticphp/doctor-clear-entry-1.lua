--[[
  DOCTOR CLEAR ENTRY: empties a job's entry field when it names a stream
  entry that does not exist (the job waits in the delayed or failed set,
  where entry is ''), so nothing mistakes it for a job in a stream.

  Re-checks that entry is still the value the check saw and still names no
  entry of the job's stream.

  KEYS[1] j:{id}

  ARGV[1] prefix                for the job's stream
  ARGV[2] id
  ARGV[3] entry id              as the check saw it

  Returns {1} when cleared, {0} when the field had changed or the entry exists.
]]
local rcall = redis.call
-- @include server-time
-- @include layout
-- @include doctor

local job = KEYS[1]
local prefix, id, entry = ARGV[1], ARGV[2], ARGV[3]

if rcall('TYPE', job).ok ~= 'hash' then return {0} end
if rcall('HGET', job, 'entry') ~= entry or entry == '' then return {0} end
if entryHoldsJob(jobStream(prefix, job), entry, id) then return {0} end

rcall('HSET', job, 'entry', '')
return {1}
