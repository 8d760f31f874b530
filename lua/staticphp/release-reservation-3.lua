--[[
  RELEASE RESERVATION: an operator hands a held job back at once, without
  waiting for its claim to run out: its entry is acknowledged and deleted and
  the job rejoins the back of the same level's stream, ready now, with its
  reserved fields cleared. attempts is left as the claim counted it.

  Applied only while the entry is still in the group's pending list and the
  hash still names the entry, holder, deadline and attempts the operator saw;
  otherwise (the worker completed, released, failed or a reserve reclaimed or
  parked it meanwhile) nothing is changed.

  KEYS[1] q:{queue}:s:{level}   the stream holding the entry
  KEYS[2] q:{queue}:levels
  KEYS[3] j:{id}

  ARGV[1] group
  ARGV[2] id
  ARGV[3] entry id              as the operator saw it
  ARGV[4] reserved_by           as the operator saw it
  ARGV[5] reserved_until        as the operator saw it
  ARGV[6] attempts              as the operator saw it
  ARGV[7] level                 the stream's priority level
  ARGV[8] prefix                for the job's own stream

  Returns {1, new entry id} when released, {0, reason} when the reservation
  changed meanwhile (reason 'not-pending' or 'claim-changed'), or
  {ErrorCode, key}.
]]
local rcall = redis.call
-- @include server-time
-- @include layout
-- @include reservation-check

local stream, levelsKey, job = KEYS[1], KEYS[2], KEYS[3]
local group, id, entry = ARGV[1], ARGV[2], ARGV[3]
local level = levelOf(ARGV[7])

local wrongKey = firstWrongTypedKey({stream, 'stream', levelsKey, 'zset', job, 'hash'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

if not stillPending(stream, group, entry) then return {0, 'not-pending'} end
if not claimUnchanged(job, stream, ARGV[8], entry, ARGV[4], ARGV[5], ARGV[6]) then return {0, 'claim-changed'} end

rcall('XACK', stream, group, entry)
rcall('XDEL', stream, entry)
local newEntry = rcall('XADD', stream, '*', 'job', id)
rcall('ZADD', levelsKey, level, level)
rcall('HSET', job,
  'available_at', serverNow(),
  'reserved_until', 0,
  'reserved_by', '',
  'entry', newEntry)
return {1, newEntry}
