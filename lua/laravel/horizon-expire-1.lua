--[[
  HORIZON EXPIRE: gives one of Horizon's job hashes that has no expiry the
  expiry Horizon's longest default trim gives a job (trim.failed, 7 days),
  so that it goes as Horizon meant it to. Horizon's reserved() and
  released() write the hash without an expiry; when its pending hash had
  expired before (a backlog older than trim.pending), that write makes a
  hash that never goes (laravel/horizon #124). Only a hash still without
  an expiry and still in the status the doctor saw is touched: one Horizon
  wrote again meanwhile (with its own EXPIREAT) is left to Horizon.

  KEYS[1] {horizon prefix}{job id}   hash, Horizon's record of one job

  ARGV[1] status                     as the doctor read it
  ARGV[2] seconds                    the expiry to give it

  Returns {1} when it was given the expiry, {0} when it has one (or is
  gone, or changed its status) meanwhile.
]]
local rcall = redis.call

local jobKey = KEYS[1]
local status, seconds = ARGV[1], ARGV[2]

if rcall('TYPE', jobKey).ok ~= 'hash' or rcall('TTL', jobKey) ~= -1 or rcall('HGET', jobKey, 'status') ~= status then return {0} end
rcall('EXPIRE', jobKey, seconds)
return {1}
