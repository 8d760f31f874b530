--[[
  MARKO RESTORE: puts jobs from QueueLens's trash back where marko keeps
  them. A failed record: its bytes into failed_jobs under its id, and its
  old score into the index (a record that had no index entry gets none);
  it is then a failed job like any other, for marko's queue:retry or a
  forget. A removed job: its hash renamed back to jobs:{id}, and its id into
  its queue's delayed set, at its old score when it was delayed and at now
  otherwise: marko's pop moves every due delayed id into line itself, so
  this needs no knowledge of which end of the ready list marko pushes to
  (layout note §5, "requeue an orphan"). A job is refused, and stays in the
  trash, when its id has a record, an index entry or a job hash again
  meanwhile.

  KEYS[1] {prefix}failed_jobs          hash, id -> JSON
  KEYS[2] {prefix}failed_jobs:index    sorted set, id scored by the second it failed
  KEYS[3] the trash's index            (QUEUELENS_PREFIX trash:{prefix}:index)

  ARGV[1] trash prefix                 for the trash's per-job keys
  ARGV[2] {prefix}                     marko's prefix: its jobs:{id} and queues:{queue}:delayed are built from it
  ARGV[3..] job ids                    a bounded batch

  Returns {id, outcome, queue, id, outcome, queue, …}: queue is the one the
  trash entry names ('' when it is gone); outcome is restored, gone (not in
  the trash: expired, restored already, never there), id-taken or
  unsupported (kept from somewhere this script cannot put it back); or
  {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout
-- @include trash

local recordsKey, indexKey, trashIndexKey = KEYS[1], KEYS[2], KEYS[3]
local trashPrefix, markoPrefix = ARGV[1], ARGV[2]

local wrongKey = firstWrongTypedKey({recordsKey, 'hash', indexKey, 'zset', trashIndexKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local function restoreRecord(id, jobKeyThere, score)
  local record = rcall('HGET', jobKeyThere, id)
  if not record then return 'gone' end
  if not score then return 'unsupported' end
  if rcall('HEXISTS', recordsKey, id) == 1 or rcall('ZSCORE', indexKey, id) then return 'id-taken' end
  rcall('HSET', recordsKey, id, record)
  if score ~= '' then rcall('ZADD', indexKey, score, id) end
  return 'restored'
end

local function restoreJob(id, jobKeyThere, queue, score)
  if not queue or queue == '' then return 'unsupported' end
  local jobKey, delayedKey = markoPrefix .. 'jobs:' .. id, markoPrefix .. 'queues:' .. queue .. ':delayed'
  if rcall('EXISTS', jobKey) == 1 then return 'id-taken' end
  local delayedType = rcall('TYPE', delayedKey).ok
  if delayedType ~= 'none' and delayedType ~= 'zset' then return 'unsupported' end
  if score == nil or score == '' then score = rcall('TIME')[1] end
  rcall('RENAME', jobKeyThere, jobKey)
  rcall('ZADD', delayedKey, score, id)
  return 'restored'
end

local function putBack(id, jobKeyThere, whereKey)
  local from, queue, score = unpack(rcall('HMGET', whereKey, 'from', 'queue', 'score'))
  if from == 'failed' then return restoreRecord(id, jobKeyThere, score) end
  if from == 'ready' or from == 'delayed' or from == 'reserved' then return restoreJob(id, jobKeyThere, queue, score) end
  return 'unsupported'
end

return restoreEach(trashIndexKey, trashPrefix, 3, putBack)
