--[[
  MARKO RESTORE: puts failed records from QueueLens's trash back where marko
  keeps them: the record's bytes into failed_jobs under its id, and its old
  score into the index (a record that had no index entry gets none). It is
  then a failed job like any other, for marko's queue:retry or a forget. A
  job is refused, and stays in the trash, when its id has a record or an
  index entry again meanwhile.

  KEYS[1] {prefix}failed_jobs          hash, id -> JSON
  KEYS[2] {prefix}failed_jobs:index    sorted set, id scored by the second it failed
  KEYS[3] the trash's index            (QUEUELENS_PREFIX trash:{prefix}:index)

  ARGV[1] trash prefix                 for the trash's per-job keys
  ARGV[2..] failed job ids             a bounded batch

  Returns {id, outcome, id, outcome, …}: outcome is restored, gone (not in
  the trash: expired, restored already, never there), id-taken or
  unsupported (kept from somewhere this script cannot put it back); or
  {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout
-- @include trash

local recordsKey, indexKey, trashIndexKey = KEYS[1], KEYS[2], KEYS[3]
local trashPrefix = ARGV[1]

local wrongKey = firstWrongTypedKey({recordsKey, 'hash', indexKey, 'zset', trashIndexKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local function restore(id)
  local jobKeyThere, whereKey = trashJobKey(trashPrefix, id), trashWhereKey(trashPrefix, id)
  if rcall('TYPE', jobKeyThere).ok ~= 'hash' then return 'gone' end
  local record = rcall('HGET', jobKeyThere, id)
  if not record then return 'gone' end
  local from, score = unpack(rcall('HMGET', whereKey, 'from', 'score'))
  if from ~= 'failed' or not score then return 'unsupported' end
  if rcall('HEXISTS', recordsKey, id) == 1 or rcall('ZSCORE', indexKey, id) then return 'id-taken' end
  rcall('HSET', recordsKey, id, record)
  if score ~= '' then rcall('ZADD', indexKey, score, id) end
  rcall('DEL', jobKeyThere, whereKey)
  rcall('ZREM', trashIndexKey, id)
  return 'restored'
end

local outcomes = {}
for i = 2, #ARGV do
  outcomes[#outcomes + 1] = ARGV[i]
  outcomes[#outcomes + 1] = restore(ARGV[i])
end
return outcomes
