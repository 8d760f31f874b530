--[[
  HORIZON RESTORE: puts failed jobs a forget kept in QueueLens's trash
  (lua/laravel/horizon-forget-failed-2.lua) back where Laravel Horizon keeps
  them: the job hash renamed back to {horizon prefix}{id}, its bytes as they
  were, with the expiry Horizon had given it (or none, where it had none),
  and the id into the failed_jobs index at its old score. Horizon then lists
  it as before, and `php artisan queue:retry` or a forget can take it.

  Refused, and left in the trash: an id whose job hash or failed index
  entry is back (Horizon wrote the id again: a queue:retry of the same
  uuid), as id-taken; a record whose Horizon expiry has passed meanwhile,
  as gone (Horizon would have dropped it by now, and a hash put back past
  it would never expire); one kept without a score, as unsupported.

  KEYS[1] {horizon prefix}failed_jobs  sorted set, id scored by -microtime of the failure
  KEYS[2] the trash's index            (QUEUELENS_PREFIX trash:{horizon prefix}:index)

  ARGV[1] trash prefix                 for the trash's per-job keys
  ARGV[2] horizon prefix               the job hashes are {prefix}{id}
  ARGV[3..] job ids                    a bounded batch

  Returns {id, outcome, queue, id, outcome, queue, …}: queue is the one the
  trash entry names ('' when it is gone); outcome is restored, gone (not in
  the trash, or past Horizon's expiry), id-taken or unsupported; or
  {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout
-- @include trash

local indexKey, trashIndexKey = KEYS[1], KEYS[2]
local trashPrefix, horizonPrefix = ARGV[1], ARGV[2]

local wrongKey = firstWrongTypedKey({indexKey, 'zset', trashIndexKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local _, nowMs = trashNow()

local function putBack(id, jobKeyThere, whereKey)
  local from, score, expireAt = unpack(rcall('HMGET', whereKey, 'from', 'score', 'expireAt'))
  if from ~= 'failed' or not tonumber(score) then return 'unsupported' end
  local jobKey = horizonPrefix .. id
  if rcall('EXISTS', jobKey) == 1 or rcall('ZSCORE', indexKey, id) then return 'id-taken' end
  if expireAt and tonumber(expireAt) <= nowMs then return 'gone' end
  rcall('RENAME', jobKeyThere, jobKey)
  if expireAt then rcall('PEXPIREAT', jobKey, expireAt) else rcall('PERSIST', jobKey) end
  rcall('ZADD', indexKey, score, id)
  return 'restored'
end

return restoreEach(trashIndexKey, trashPrefix, 3, putBack)
