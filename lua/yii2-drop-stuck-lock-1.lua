--[[
  YII2 DROP STUCK LOCK: deletes a moving_lock that never expires (a stock
  clear() sets it without expiry and died before deleting it). While it
  stays, stock reserves never move due or expired jobs again and the stock
  remove() spins forever.

  Re-checks that it still has no expiry: every live lock has one (EX 1).

  KEYS[1] <ch>.moving_lock   string

  Returns {1} when deleted, {0} when it expires or is gone.
]]
local rcall = redis.call

local lockKey = KEYS[1]
if rcall('TTL', lockKey) ~= -1 then return {0} end
rcall('DEL', lockKey)
return {1}
