--[[
  YII2 CLEAN LEAKED: deletes an attempts, priorities or ranks entry left for
  a job whose message is gone (a stock worker acknowledging an ng job leaves
  priorities and ranks: stock delete does not know them).

  Re-checks that the message is still gone: a job's entries are written
  only while it has a message.

  KEYS[1] <ch>.messages   hash
  KEYS[2] <ch>.attempts, <ch>.priorities or <ch>.ranks   hash

  ARGV[1] job id

  Returns {1} when the entry was deleted, {0} when there was none or the
  message exists, or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout

local messagesKey, entriesKey = KEYS[1], KEYS[2]
local id = ARGV[1]

local wrongKey = firstWrongTypedKey({messagesKey, 'hash', entriesKey, 'hash'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end
if rcall('HEXISTS', messagesKey, id) == 1 then return {0} end
return {rcall('HDEL', entriesKey, id)}
