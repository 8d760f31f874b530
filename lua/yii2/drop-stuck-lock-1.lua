--[[
  YII2 DROP STUCK LOCK: deletes a moving_lock that never expires (a stock
  clear() sets it without expiry and died before deleting it). While it
  stays, stock reserves never move due or expired jobs again and the stock
  remove() spins forever.

  Re-checks that it is still a string without expiry: every live lock has
  one (EX 1), and a key of another type there is somebody else's.

  KEYS[1] <ch>.moving_lock   string

  Returns {1} when deleted, {0} when it expires, is gone or is no string.
]]
local rcall = redis.call

local lockKey = KEYS[1]
if rcall('TYPE', lockKey).ok ~= 'string' or rcall('TTL', lockKey) ~= -1 then return {0} end
rcall('DEL', lockKey)
return {1}
