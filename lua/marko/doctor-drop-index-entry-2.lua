--[[
  MARKO DOCTOR DROP INDEX ENTRY: removes a failed index entry whose record is
  gone, only while it still is. Safe while workers run: they only ever add
  failed jobs (record and entry), and a failed job with no record cannot be
  read, listed by marko's queue:failed or retried.

  KEYS[1] {prefix}failed_jobs          hash, id -> JSON
  KEYS[2] {prefix}failed_jobs:index    sorted set

  ARGV[1] failed job id

  Returns {1} when the entry was removed, {0} when there was nothing to do
  (the record is back, or the entry is gone), or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout

local recordsKey, indexKey, id = KEYS[1], KEYS[2], ARGV[1]

local wrongKey = firstWrongTypedKey({recordsKey, 'hash', indexKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

if rcall('HEXISTS', recordsKey, id) == 1 then return {0} end
return {rcall('ZREM', indexKey, id)}
