--[[
  LARAVEL RESTORE: puts payloads a remove kept in QueueLens's trash
  (lua/laravel/remove-4.lua) back where Laravel's own code would put them,
  their bytes as they were:
    from ready      RPUSH queues:{queue} and a notify token (RPUSH
                    queues:{queue}:notify 1), as Laravel's push script does
                    (Illuminate\Queue\LuaScripts::push): the tail of the line
    from delayed    ZADD queues:{queue}:delayed at its old score, as
                    RedisQueue::laterRaw does (no token: the pop's migrate
                    pushes one when it moves the job into line)
    from reserved   into the ready list with a token, as the pop's migrate
                    does with an expired reservation
                    (LuaScripts::migrateExpiredJobs): its attempts stay
                    counted, and the next pop counts one more
  The per-id keys (the trash's, and the queue's, named by the queue its
  where-hash records) are built from the prefixes in ARGV, for the reason
  lua/includes/layout.lua gives for jobKey: they are read from data, so they
  cannot be declared in KEYS.

  Laravel keeps no index of job ids, and finding one by its id means reading
  payloads (lua/laravel/find-job-3.lua reads up to 2,000 of each structure),
  which a batch of restores should not do per id. What is checked instead
  is cheap and exact: whether these same bytes are in the queue again. That
  is what happens when a removed reservation's worker releases it (a
  release adds the reserved bytes to the delayed set, and a migrate moves
  them to the ready list's tail): such a job is refused as id-taken and
  stays in the trash, rather than run twice. The sets are asked by member
  (ZSCORE); the ready list from its tail, `READY_LOOK_BACK` elements at most
  (LPOS MAXLEN), where a migrate appends. A copy a pop has re-encoded since
  (its attempts counted one more) has other bytes and is not seen.

  KEYS[1] the trash's index            (QUEUELENS_PREFIX trash:{prefix}:index)

  ARGV[1] trash prefix                 for the trash's per-job keys
  ARGV[2] {prefix}                     Laravel's prefix: its queues:{queue} keys are built from it
  ARGV[3..] job ids                    a bounded batch

  Returns {id, outcome, queue, id, outcome, queue, …}: queue is the one the
  trash entry names ('' when it is gone); outcome is restored, gone (not in
  the trash: expired, restored already, never there), id-taken (its bytes
  are in its queue again) or unsupported (kept from somewhere this script
  cannot put it back: no queue or score recorded, or a key of the queue of
  another type); or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout
-- @include trash

local READY_LOOK_BACK = 1000

local trashIndexKey = KEYS[1]
local trashPrefix, laravelPrefix = ARGV[1], ARGV[2]

local wrongKey = firstWrongTypedKey({trashIndexKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local function isBackInQueue(payload, readyKey, delayedKey, reservedKey)
  return rcall('ZSCORE', delayedKey, payload) or rcall('ZSCORE', reservedKey, payload)
    or rcall('LPOS', readyKey, payload, 'RANK', -1, 'MAXLEN', READY_LOOK_BACK)
end

local function restorePayload(payload, from, queue, score)
  if not queue or queue == '' then return 'unsupported' end
  local readyKey = laravelPrefix .. 'queues:' .. queue
  local delayedKey, reservedKey, notifyKey = readyKey .. ':delayed', readyKey .. ':reserved', readyKey .. ':notify'
  if firstWrongTypedKey({readyKey, 'list', delayedKey, 'zset', reservedKey, 'zset', notifyKey, 'list'}) then return 'unsupported' end
  if isBackInQueue(payload, readyKey, delayedKey, reservedKey) then return 'id-taken' end
  if from == 'delayed' then
    if not tonumber(score) then return 'unsupported' end
    rcall('ZADD', delayedKey, score, payload)
  elseif from == 'ready' or from == 'reserved' then
    rcall('RPUSH', readyKey, payload)
    -- Laravel's push and migrate push the token 1.
    rcall('RPUSH', notifyKey, 1)
  else
    return 'unsupported'
  end
  return 'restored'
end

local function putBack(id, jobKeyThere, whereKey)
  local payload = rcall('HGET', jobKeyThere, id)
  if not payload then return 'gone' end
  local from, queue, score = unpack(rcall('HMGET', whereKey, 'from', 'queue', 'score'))
  return restorePayload(payload, from, queue, score)
end

return restoreEach(trashIndexKey, trashPrefix, 3, putBack)
