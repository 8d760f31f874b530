--[[
  FORGET: takes failed jobs out of the driver's keys: each id leaves
  queue:failed and its hash leaves j:{id}. With a trash (keepSeconds > 0) the
  hash is moved whole into QueueLens's trash (lua/includes/trash.lua) with
  its failed set score, in this same script, so a forget can be undone; with
  none it is deleted. An id that is not in the failed set at this moment is
  left alone, so forgetting can never touch a live job.

  KEYS[1] queue:failed
  KEYS[2] the trash's index        (QUEUELENS_PREFIX trash:{prefix}:index, scored in ms)

  ARGV[1] prefix                for the job hashes
  ARGV[2] trash prefix          for the trash's per-job keys
  ARGV[3] keep seconds          0: keep nothing, delete as the driver does
  ARGV[4] max entries           the trash's bound; the oldest go first
  ARGV[5] max bytes             the trash's bound in bytes (MEMORY USAGE); the oldest go first
  ARGV[6] who                   the operator, as the audit log names them
  ARGV[7] via                   where it was done (dashboard, cli)
  ARGV[8..] job ids             a bounded batch

  Returns {number of jobs forgotten, number of them kept in the trash}, or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout
-- @include trash

local failedKey, indexKey = KEYS[1], KEYS[2]
local prefix, trashPrefix = ARGV[1], ARGV[2]
local keepSeconds, maxEntries, maxBytes = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local who, via = ARGV[6], ARGV[7]

local wrongKey = firstWrongTypedKey({failedKey, 'zset', indexKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local now, nowMs = trashNow()
local forgotten, kept = 0, 0
for i = 8, #ARGV do
  local id = ARGV[i]
  local failedAt = rcall('ZSCORE', failedKey, id)
  if failedAt then
    rcall('ZREM', failedKey, id)
    forgotten = forgotten + 1
    -- A key of another type under j:{id} is not a job; it stays for the doctor.
    local hashKey = jobKey(prefix, id)
    if rcall('TYPE', hashKey).ok == 'hash' then
      if keepSeconds > 0 then
        local queue = rcall('HGET', hashKey, 'queue') or ''
        trashJob(indexKey, trashPrefix, hashKey, id,
          {from = 'failed', queue = queue, level = '', score = failedAt, who = who, via = via}, now, nowMs, keepSeconds)
        kept = kept + 1
      else
        rcall('DEL', hashKey)
      end
    end
  end
end
if keepSeconds > 0 then boundTrash(indexKey, trashPrefix, nowMs, keepSeconds, maxEntries, maxBytes) end
return {forgotten, kept}
