--[[
  HORIZON FORGET FAILED: takes failed jobs out of Laravel Horizon's failed
  list as Horizon's own delete does (Laravel\Horizon\Repositories\
  RedisJobRepository::deleteFailed, behind horizon:forget and
  horizon:forget-all-failed-jobs): the id leaves the failed_jobs index and
  its job hash {horizon prefix}{id} goes. Like Horizon's delete it leaves
  recent_failed_jobs and the failed:{tag} sets alone: Horizon reads them
  through the job hash and skips an id whose hash is gone.

  Each id is re-checked here: one no longer in the failed index (forgotten
  or trimmed meanwhile) is left alone and not counted. Its hash goes only
  while its status is still failed: `php artisan queue:retry` pushes the
  same uuid again, and Horizon then writes the retried job's pending,
  reserved or completed state into this same hash, which is the live job's
  record, not the failure's; only its index entry goes then. A key of
  another type is not Horizon's and is left alone.

  With a trash (keepSeconds > 0) the hash is renamed into QueueLens's trash
  whole (lua/includes/trash.lua trashJob: its bytes are never read into Lua
  and written back), with its index score and the moment Horizon would have
  expired it (`expireAt`, unix ms; Horizon sets an EXPIREAT trim.failed
  minutes after the failure), so that lua/laravel/horizon-restore-2.lua can
  put both back as they were; with none it is deleted. The job hashes are
  built from the Horizon prefix in ARGV, for the reason lua/includes/layout.lua
  gives for jobKey: one server, as Horizon itself needs.

  KEYS[1] {horizon prefix}failed_jobs  sorted set, id scored by -microtime of the failure
  KEYS[2] the trash's index            (QUEUELENS_PREFIX trash:{horizon prefix}:index, scored in ms)

  ARGV[1] horizon prefix               the job hashes are {prefix}{id}
  ARGV[2] trash prefix                 for the trash's per-job keys
  ARGV[3] keep seconds                 0: keep nothing, delete as Horizon does
  ARGV[4] max entries                  the trash's bound; the oldest go first
  ARGV[5] max bytes                    the trash's bound in bytes (MEMORY USAGE); the oldest go first
  ARGV[6] who                          the operator, as the audit log names them
  ARGV[7] via                          where it was done (dashboard, cli)
  ARGV[8..] failed job ids             a bounded batch

  Returns {number forgotten, number of them kept in the trash}, or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout
-- @include trash

local indexKey, trashIndexKey = KEYS[1], KEYS[2]
local horizonPrefix, trashPrefix = ARGV[1], ARGV[2]
local keepSeconds, maxEntries, maxBytes = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local who, via = ARGV[6], ARGV[7]

local wrongKey = firstWrongTypedKey({indexKey, 'zset', trashIndexKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local now, nowMs = trashNow()
local forgotten, kept = 0, 0

local function takeRecord(id, score)
  local jobKey = horizonPrefix .. id
  if rcall('TYPE', jobKey).ok ~= 'hash' or rcall('HGET', jobKey, 'status') ~= 'failed' then return end
  if keepSeconds <= 0 then
    rcall('DEL', jobKey)
    return
  end
  local ttl = rcall('PTTL', jobKey)
  local queue = rcall('HGET', jobKey, 'queue') or ''
  trashJob(trashIndexKey, trashPrefix, jobKey, id,
    {from = 'failed', queue = queue, level = '', score = score, who = who, via = via}, now, nowMs, keepSeconds)
  if ttl > 0 then rcall('HSET', trashWhereKey(trashPrefix, id), 'expireAt', string.format('%d', nowMs + ttl)) end
  kept = kept + 1
end

for i = 8, #ARGV do
  local id = ARGV[i]
  local score = rcall('ZSCORE', indexKey, id)
  if score then
    rcall('ZREM', indexKey, id)
    forgotten = forgotten + 1
    takeRecord(id, score)
  end
end
if keepSeconds > 0 then boundTrash(trashIndexKey, trashPrefix, nowMs, keepSeconds, maxEntries, maxBytes) end
return {forgotten, kept}
