--[[
  DOCTOR DROP TOMBSTONE: acknowledges and deletes a stream entry whose job
  hash is gone, as reserve does when it meets one; dropping it ahead of time
  keeps the stream's length honest.

  Re-checks that the entry still exists and its job hash is still gone.

  KEYS[1] q:{queue}:s:{level}

  ARGV[1] prefix                for the job key read from the entry
  ARGV[2] group
  ARGV[3] entry id

  Returns {1} when dropped, {0} when there was nothing to drop.
]]
local rcall = redis.call
-- @include layout

local stream = KEYS[1]
local prefix, group, entry = ARGV[1], ARGV[2], ARGV[3]

if rcall('TYPE', stream).ok ~= 'stream' then return {0} end
local found = rcall('XRANGE', stream, entry, entry, 'COUNT', 1)[1]
if not found then return {0} end
local id
for i = 1, #found[2], 2 do
  if found[2][i] == 'job' then id = found[2][i + 1] end
end
if id and rcall('TYPE', jobKey(prefix, id)).ok == 'hash' then return {0} end

redis.pcall('XACK', stream, group, entry)
rcall('XDEL', stream, entry)
return {1}
