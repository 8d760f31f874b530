--[[
  CLEAN TOMBSTONE: acknowledges and deletes a pending entry whose job is
  gone, as a reserve would once it reclaimed the entry. Nothing to run is
  lost: the job hash no longer exists (or the entry itself was already
  deleted from the stream and only its pending record is left).

  Applied only while the entry is still in the group's pending list, still
  names the job the operator saw, and j:{id} does not exist at all; a key of
  another type under j:{id} is not touched and not counted as gone.

  KEYS[1] q:{queue}:s:{level}   the stream holding the entry

  ARGV[1] prefix                for the job key, built from the id in the entry
  ARGV[2] group
  ARGV[3] entry id              as the operator saw it
  ARGV[4] job id                as the operator saw it; '' when the entry
                                named none or was already deleted

  Returns {1} when cleaned, {0, reason} when the entry changed meanwhile
  (reason 'not-pending', 'entry-changed' or 'job-exists'), or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout
-- @include reservation-check

local stream = KEYS[1]
local prefix, group, entry, expectedId = ARGV[1], ARGV[2], ARGV[3], ARGV[4]

local wrongKey = firstWrongTypedKey({stream, 'stream'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

if not stillPending(stream, group, entry) then return {0, 'not-pending'} end

local id = ''
local found = rcall('XRANGE', stream, entry, entry, 'COUNT', 1)[1]
if found then
  for i = 1, #found[2], 2 do
    if found[2][i] == 'job' then id = found[2][i + 1] end
  end
end
if id ~= expectedId then return {0, 'entry-changed'} end
if id ~= '' and rcall('TYPE', jobKey(prefix, id)).ok ~= 'none' then return {0, 'job-exists'} end

rcall('XACK', stream, group, entry)
rcall('XDEL', stream, entry)
return {1}
