--[[
  MARKO FORGET FAILED: takes failed jobs out of marko's keys, each record
  together with its index entry, as marko's own
  RedisFailedJobRepository::delete() does. With a trash (keepSeconds > 0)
  the record's bytes are kept in QueueLens's trash (lua/includes/trash.lua)
  with its index score, in this same script, so a forget can be undone; with
  none it is deleted. Workers only ever add failed records, so this is safe
  while they run. Either half alone counts as the job (a record with no index
  entry, an index entry with no record): both are gone afterwards, and only
  a record is kept.

  KEYS[1] {prefix}failed_jobs          hash, id -> JSON
  KEYS[2] {prefix}failed_jobs:index    sorted set, id scored by the second it failed
  KEYS[3] the trash's index            (QUEUELENS_PREFIX trash:{prefix}:index, scored in ms)

  ARGV[1] trash prefix                 for the trash's per-job keys
  ARGV[2] keep seconds                 0: keep nothing, delete as marko does
  ARGV[3] max entries                  the trash's bound; the oldest go first
  ARGV[4] max bytes                    the trash's bound in bytes (MEMORY USAGE); the oldest go first
  ARGV[5] who                          the operator, as the audit log names them
  ARGV[6] via                          where it was done (dashboard, cli)
  ARGV[7..] failed job ids             a bounded batch

  Returns {number of failed jobs forgotten, number of them kept in the trash}, or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout
-- @include trash

local recordsKey, indexKey, trashIndexKey = KEYS[1], KEYS[2], KEYS[3]
local trashPrefix = ARGV[1]
local keepSeconds, maxEntries, maxBytes = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local who, via = ARGV[5], ARGV[6]

local wrongKey = firstWrongTypedKey({recordsKey, 'hash', indexKey, 'zset', trashIndexKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local now, nowMs = trashNow()
local forgotten, kept = 0, 0
for i = 7, #ARGV do
  local id = ARGV[i]
  local record = rcall('HGET', recordsKey, id)
  local failedAt = rcall('ZSCORE', indexKey, id)
  if record or failedAt then
    rcall('HDEL', recordsKey, id)
    rcall('ZREM', indexKey, id)
    forgotten = forgotten + 1
    if record and keepSeconds > 0 then
      trashRecord(trashIndexKey, trashPrefix, id, record,
        {from = 'failed', queue = '', level = '', score = failedAt or '', who = who, via = via}, now, nowMs, keepSeconds)
      kept = kept + 1
    end
  end
end
if keepSeconds > 0 then boundTrash(trashIndexKey, trashPrefix, nowMs, keepSeconds, maxEntries, maxBytes) end
return {forgotten, kept}
