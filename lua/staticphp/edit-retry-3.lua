--[[
  EDIT AND RETRY: replaces a failed job's payload with the operator's edit
  and puts the job back on its own queue (lua/includes/requeue.lua), in one
  script, only while the job is still failed with the very payload the
  operator edited. With a trash (keepSeconds > 0) the job's hash as it
  was, its old payload and error included, is copied into QueueLens's
  trash first (COPY: its bytes never leave Redis), so the original can be
  restored once the retried job is gone (done, or forgotten again).

  KEYS[1] queue:failed
  KEYS[2] queue:queues
  KEYS[3] the trash's index     (QUEUELENS_PREFIX trash:{prefix}:index, scored in ms)

  ARGV[1] prefix                for the keys derived from data
  ARGV[2] trash prefix          for the trash's per-job keys
  ARGV[3] keep seconds          0: keep nothing
  ARGV[4] max entries           the trash's bound; the oldest go first
  ARGV[5] max bytes             the trash's bound in bytes (MEMORY USAGE); the oldest go first
  ARGV[6] who                   the operator, as the audit log names them
  ARGV[7] via                   where it was done (dashboard, cli)
  ARGV[8] job id
  ARGV[9] the payload as the operator read it, byte for byte; '' when the
          caller read none (the CLI's retry --payload): a StaticPHP payload
          is a JSON object or array, never empty
  ARGV[10] the edited payload, stored byte for byte
  ARGV[11] max_attempts         '' keeps the job's own

  Returns {outcome, kept, queue}: outcome is retried, not-failed, changed
  (its payload is no longer the one read) or missing (its hash was gone:
  taken off the failed set); kept is 1 when the original is in the trash;
  queue is the one the job went back to ('' unless retried). Or
  {ErrorCode, key}.
]]
local rcall = redis.call
-- @include server-time
-- @include layout
-- @include trash
-- @include requeue

local failedKey, queuesKey, trashIndexKey = KEYS[1], KEYS[2], KEYS[3]
local prefix, trashPrefix = ARGV[1], ARGV[2]
local keepSeconds, maxEntries, maxBytes = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local id, seen, edited, maxAttempts = ARGV[8], ARGV[9], ARGV[10], ARGV[11]

local wrongKey = firstWrongTypedKey({failedKey, 'zset', queuesKey, 'set', trashIndexKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local failedAt = rcall('ZSCORE', failedKey, id)
if not failedAt then return {'not-failed', 0, ''} end
local job = jobKey(prefix, id)
if seen ~= '' and rcall('TYPE', job).ok == 'hash' and rcall('HGET', job, 'payload') ~= seen then return {'changed', 0, ''} end

local kept = 0
if keepSeconds > 0 and rcall('EXISTS', job) == 1 then
  local now, nowMs = trashNow()
  rcall('DEL', trashWhereKey(trashPrefix, id))
  rcall('COPY', job, trashJobKey(trashPrefix, id), 'REPLACE')
  keepTrashed(trashIndexKey, trashPrefix, id,
    {from = 'failed', queue = rcall('HGET', job, 'queue') or '', level = '', score = failedAt, who = ARGV[6], via = ARGV[7]},
    now, nowMs, keepSeconds)
  boundTrash(trashIndexKey, trashPrefix, nowMs, keepSeconds, maxEntries, maxBytes)
  kept = 1
end
if rcall('EXISTS', job) == 1 then rcall('HSET', job, 'payload', edited) end
-- `detail` is the queue of a requeued job, the wrong-typed key of a refusal.
local outcome, detail = requeueFailed(failedKey, queuesKey, prefix, id, maxAttempts, serverNow())
if outcome == 'wrong-type' then return {ErrorCode.WrongKeyType, detail} end
if outcome == 'requeued' then return {'retried', kept, detail} end
return {outcome, kept, ''}
