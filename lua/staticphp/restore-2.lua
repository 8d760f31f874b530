--[[
  RESTORE: puts jobs from QueueLens's trash back where the driver keeps them.
  A forgotten failed job returns to queue:failed with its old score and its
  hash renamed back to j:{id}, byte for byte; it is then a failed job like
  any other, to retry or forget. A job is refused, and stays in the trash,
  when j:{id} or its failed set place has been taken meanwhile (the id was
  reused) or when the unique key its hash names is held by another live job.

  KEYS[1] queue:failed
  KEYS[2] the trash's index        (QUEUELENS_PREFIX trash:{prefix}:index)

  ARGV[1] prefix                for the job hashes and unique keys
  ARGV[2] trash prefix          for the trash's per-job keys
  ARGV[3..] job ids             a bounded batch

  Returns {id, outcome, queue, id, outcome, queue, …}: queue is the one the
  trash entry names ('' when it is gone); outcome is restored, gone (not in
  the trash: expired, restored already, never there), id-taken,
  unique-taken or unsupported (kept from somewhere this script cannot put
  it back); or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout
-- @include trash

local failedKey, indexKey = KEYS[1], KEYS[2]
local prefix, trashPrefix = ARGV[1], ARGV[2]

local wrongKey = firstWrongTypedKey({failedKey, 'zset', indexKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local function uniqueKeyHeldByAnother(jobKeyThere, id)
  local uniqueKey = rcall('HGET', jobKeyThere, 'unique_key')
  if not uniqueKey or uniqueKey == '' then return false end
  local holder = redis.pcall('GET', uniqueKeyOf(prefix, uniqueKey))
  -- A key naming a job hash that is gone is free, as push treats it (spec: Uniqueness).
  return type(holder) == 'string' and holder ~= id and rcall('EXISTS', jobKey(prefix, holder)) == 1
end

local function putBack(id, jobKeyThere, whereKey)
  local from, score = unpack(rcall('HMGET', whereKey, 'from', 'score'))
  if from ~= 'failed' or not score then return 'unsupported' end
  local hashKey = jobKey(prefix, id)
  if rcall('EXISTS', hashKey) == 1 or rcall('ZSCORE', failedKey, id) then return 'id-taken' end
  if uniqueKeyHeldByAnother(jobKeyThere, id) then return 'unique-taken' end
  rcall('RENAME', jobKeyThere, hashKey)
  rcall('PERSIST', hashKey)
  rcall('ZADD', failedKey, score, id)
  return 'restored'
end

return restoreEach(indexKey, trashPrefix, 3, putBack)
