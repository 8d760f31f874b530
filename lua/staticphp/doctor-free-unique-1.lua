--[[
  DOCTOR FREE UNIQUE: deletes u:{key} when the job it names is gone or no
  longer holds that key (its unique_key is another), so the next push with
  the key queues a job instead of collapsing into the wrong one.

  Re-checks that u:{key} still names the id the check saw and that the job
  still does not hold the key.

  KEYS[1] u:{key}

  ARGV[1] prefix                for the job key
  ARGV[2] the unique key        without prefix, as the job's unique_key spells it
  ARGV[3] id                    the value the check saw

  Returns {1} when freed, {0} when the key changed or is rightly held.
]]
local rcall = redis.call
-- @include layout

local ownerKey = KEYS[1]
local prefix, uniqueKey, id = ARGV[1], ARGV[2], ARGV[3]

if rcall('TYPE', ownerKey).ok ~= 'string' or rcall('GET', ownerKey) ~= id then return {0} end
local job = jobKey(prefix, id)
if rcall('TYPE', job).ok == 'hash' and rcall('HGET', job, 'unique_key') == uniqueKey then return {0} end
rcall('DEL', ownerKey)
return {1}
