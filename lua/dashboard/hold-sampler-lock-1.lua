--[[
  HOLD SAMPLER LOCK: one throughput sampler among the dashboard instances
  watching a queue layout. Takes the lock when nobody holds it, extends it
  when the caller's token holds it, and leaves it alone otherwise: only the
  holder ever extends its own lock (a plain SET … NX PX could not tell an
  expired holder from the current one), so two instances never both sample
  and the rates are not counted twice. The alert sender holds its lease
  through it too (lib/dashboard/lease.ts), so one instance sends.

  KEYS[1] the lock                {QUEUELENS_PREFIX}throughput:{prefix}:sampler

  ARGV[1] token                   the instance's own random token
  ARGV[2] ms                      how long the lock lasts from now

  Returns {1} when the caller holds the lock for ARGV[2] ms, {0} when another
  instance does, or {ErrorCode, key} when the key is not a string.
]]
local rcall = redis.call
-- @include layout

local lockKey, token, ms = KEYS[1], ARGV[1], ARGV[2]

local wrongKey = firstWrongTypedKey({lockKey, 'string'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local holder = rcall('GET', lockKey)
if holder == false then
  rcall('SET', lockKey, token, 'PX', ms)
  return {1}
end
if holder == token then
  rcall('PEXPIRE', lockKey, ms)
  return {1}
end
return {0}
