--[[
  HORIZON RETRY: retries failed jobs of Laravel Horizon's failed list as
  Horizon's own retry does, each id re-checked and retried in this one
  atomic step. laravel/horizon src/Jobs/RetryFailedJob.php (commit
  595843ec5530, handle(), preparePayload(), prepareNewTimeout()) and
  src/Repositories/RedisJobRepository.php (commit 01bed43644fa, findFailed()
  and storeRetryReference()) do, per id:

    findFailed: the record {horizon prefix}{id} with status 'failed' (a
      record whose status is another was pushed again under the same uuid
      by `php artisan queue:retry`, and is that live job's record);
    pushRaw(preparePayload(uuid, payload), record.queue): the payload
      json_decode'd and array_merge'd with id = uuid = a new uuid,
      attempts 0, retry_of = the failed id and retryUntil = now +
      ceil(retryUntil - pushedAt) when the payload has a retryUntil (or a
      timeoutAt), else null, pushedAt being now where the payload has none;
      pushed as Illuminate\Queue\RedisQueue::pushRaw pushes (Laravel 8.83,
      /usr/share/php/Illuminate/Queue/RedisQueue.php lines 137-145, and
      LuaScripts::push(), LuaScripts.php lines 32-40): RPUSH of the payload
      onto queues:{queue} and RPUSH of 1 onto queues:{queue}:notify;
    storeRetryReference: {id, status 'pending', retried_at} appended to the
      record's retried_by JSON list (HMSET; HSET here, the same write).

  The new payload is encoded here with cjson, as Laravel's own pop script
  (LuaScripts::pop, lines 53-69) re-encodes every payload it reserves: the
  driver's own way of rewriting a payload inside Redis, not a re-encoding of
  ours. The new uuid comes in ARGV, one per id, so the script stays
  deterministic.

  Beyond Horizon, each id is also refused (answered, nothing written) when
  its record names no queue, holds no payload or no JSON object, when its
  retried_by names a retry still pending (a second tab's retry, or one not
  yet run, would push the job twice), or when the queue's keys are of
  another type. A failed index entry whose record is gone (expired: Horizon
  keeps a record trim.failed minutes) is taken out of the index, as
  Horizon's trim would.

  The queue keys are built from the Laravel prefix in ARGV and the queue the
  record names, and the records from the Horizon prefix in ARGV: like
  Horizon itself, this needs the queues and Horizon's keys on one server.

  Retrying every failed job (skip retried '1'), a record whose retried_by
  names any retry is passed over: Horizon keeps a retried job on its list,
  and the steps of such a run go on past the jobs they looked at.

  cjson holds Redis while it decodes: once `byte budget` payload bytes have
  been decoded, the ids left are answered 'unreached' for the next call.

  KEYS[1] {horizon prefix}failed_jobs  sorted set, id scored by -microtime of the failure

  ARGV[1] horizon prefix               the records are {prefix}{id}
  ARGV[2] laravel prefix               the Redis connection's, before queues:{queue}
  ARGV[3] byte budget                  payload bytes to decode in this call (at least one id is always handled)
  ARGV[4] skip retried                 '1': a record whose retried_by names any retry is answered 'skipped'
                                       (retrying every failed job: Horizon keeps a retried job on its list)
  ARGV[5..] pairs of: failed id, the new uuid

  Returns flat rows of {id, outcome, detail, queue}: outcome 'retried' (detail:
  the new uuid; queue: the queue it went onto, '' for every other outcome), 'not-failed', 'missing', 'refused' (detail: why, in words a page
  shows), 'skipped' or 'unreached'; or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout

local indexKey = KEYS[1]
local horizonPrefix, laravelPrefix, byteBudget = ARGV[1], ARGV[2], tonumber(ARGV[3])
local skipRetried = ARGV[4] == '1'

local wrongKey = firstWrongTypedKey({indexKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local time = rcall('TIME')
local now = tonumber(time[1])
local nowMicro = now + tonumber(time[2]) / 1000000

-- A value PHP's `??` passes over.
local function isNull(value)
  return value == nil or value == cjson.null
end

-- prepareNewTimeout: the new retryUntil, cjson.null for PHP's null, or nil and why when it is no number.
local function newRetryUntil(job)
  local deadline = job.retryUntil
  if isNull(deadline) then deadline = job.timeoutAt end
  -- PHP's `$retryUntil ?`: null, false, 0, '' and '0' are no deadline.
  if isNull(deadline) or deadline == false or deadline == '' or deadline == '0' or deadline == 0 then return cjson.null end
  local seconds = tonumber(deadline)
  if seconds == nil then return nil, 'its payload’s retryUntil is no number' end
  local pushedAt = job.pushedAt
  pushedAt = isNull(pushedAt) and nowMicro or tonumber(pushedAt)
  if pushedAt == nil then return nil, 'its payload’s pushedAt is no number' end
  -- CarbonImmutable::now()->addSeconds(ceil(...))->getTimestamp(): whole seconds.
  return now + math.ceil(seconds - pushedAt)
end

-- The record's retried_by as a list, or nil and why it is none.
local function retriesOf(text)
  -- storeRetryReference: json_decode(hget ?: '[]'); what does not decode starts a new list, as PHP's null does.
  if text == false or text == '' then return {} end
  local ok, retries = pcall(cjson.decode, text)
  if not ok or type(retries) ~= 'table' then return {} end
  local count = 0
  for _ in pairs(retries) do count = count + 1 end
  if count ~= #retries then return nil, 'its record’s retried_by is no list' end
  return retries
end

-- A retry still pending is a reason not to push again: a second tab's retry would run the job twice.
local function pendingRetryOf(retries)
  for _, retry in ipairs(retries) do
    if type(retry) == 'table' and retry.status == 'pending' then return tostring(retry.id) end
  end
  return nil
end

local rows = {}
local spent = 0

local function answer(id, outcome, detail, queue)
  rows[#rows + 1] = id
  rows[#rows + 1] = outcome
  rows[#rows + 1] = detail
  rows[#rows + 1] = queue or ''
end

local function retry(id, uuid)
  if not rcall('ZSCORE', indexKey, id) then return answer(id, 'not-failed', '') end
  local recordKey = horizonPrefix .. id
  local recordType = rcall('TYPE', recordKey).ok
  if recordType == 'none' then
    rcall('ZREM', indexKey, id)
    return answer(id, 'missing', '')
  end
  if recordType ~= 'hash' then return answer(id, 'refused', 'its record is a ' .. recordType .. ', not Horizon’s hash') end
  local record = rcall('HMGET', recordKey, 'status', 'queue', 'payload', 'retried_by')
  local status, queue, payload = record[1], record[2], record[3]
  -- findFailed: a record of another status is the live job's, pushed again under the same uuid.
  if status ~= 'failed' then return answer(id, 'not-failed', '') end
  if not queue or queue == '' then return answer(id, 'refused', 'its record names no queue') end
  if not payload then return answer(id, 'refused', 'its record holds no payload') end
  local retries, why = retriesOf(record[4])
  if retries == nil then return answer(id, 'refused', why) end
  if skipRetried and #retries > 0 then return answer(id, 'skipped', '') end
  local pending = pendingRetryOf(retries)
  if pending then return answer(id, 'refused', 'its retry ' .. pending .. ' has not run yet') end

  local ready = laravelPrefix .. 'queues:' .. queue
  local notify = ready .. ':notify'
  local wrong = firstWrongTypedKey({ready, 'list', notify, 'list'})
  if wrong then return answer(id, 'refused', 'its queue’s key ' .. wrong .. ' is no list') end

  spent = spent + #payload
  local ok, job = pcall(cjson.decode, payload)
  -- A JSON list decodes to a table too; a payload is an object with its job's name.
  if not ok or type(job) ~= 'table' or (job.job == nil and job.displayName == nil) then
    return answer(id, 'refused', 'its payload is no JSON object of a Laravel job')
  end
  local retryUntil, untilProblem = newRetryUntil(job)
  if retryUntil == nil then return answer(id, 'refused', untilProblem) end
  job.id = uuid
  job.uuid = uuid
  job.attempts = 0
  job.retry_of = id
  job.retryUntil = retryUntil

  rcall('RPUSH', ready, cjson.encode(job))
  rcall('RPUSH', notify, 1)
  retries[#retries + 1] = {id = uuid, status = 'pending', retried_at = now}
  rcall('HSET', recordKey, 'retried_by', cjson.encode(retries))
  answer(id, 'retried', uuid, queue)
end

for i = 5, #ARGV - 1, 2 do
  if spent >= byteBudget then
    answer(ARGV[i], 'unreached', '')
  else
    retry(ARGV[i], ARGV[i + 1])
  end
end
return rows
