--[[
  MARKO READ FAILED CHECK: whether the failed records and the failed index
  name the same ids and each record is a JSON object, a page at a time, in
  one snapshot. Read only. A record over 64 KiB is not decoded here (its
  payload may be megabytes, and decoding it would hold Redis): it is
  reported as unchecked.

  KEYS[1] {prefix}failed_jobs          hash, id -> JSON
  KEYS[2] {prefix}failed_jobs:index    sorted set, id scored by the second it failed

  ARGV[1] source                       'index' (a ZRANGE page) or 'records' (an HSCAN step)
  ARGV[2] offset or cursor
  ARGV[3] count

  Returns {next offset or cursor, id, has record, in index, record is JSON
  (1, 0, or -1 when absent or unchecked), ...}, or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout

local recordsKey, indexKey = KEYS[1], KEYS[2]
local source, position, count = ARGV[1], ARGV[2], tonumber(ARGV[3])
local DECODE_LIMIT = 65536

local wrongKey = firstWrongTypedKey({recordsKey, 'hash', indexKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local function isJsonObject(record)
  if not record then return -1 end
  if #record > DECODE_LIMIT then return -1 end
  local ok, decoded = pcall(cjson.decode, record)
  return (ok and type(decoded) == 'table') and 1 or 0
end

local reply = {}
if source == 'index' then
  local start = tonumber(position)
  local ids = rcall('ZRANGE', indexKey, start, start + count - 1)
  reply[1] = tostring(start + #ids)
  for _, id in ipairs(ids) do
    local record = rcall('HGET', recordsKey, id)
    reply[#reply + 1] = id
    reply[#reply + 1] = record and 1 or 0
    reply[#reply + 1] = 1
    reply[#reply + 1] = isJsonObject(record)
  end
else
  local scanned = rcall('HSCAN', recordsKey, position, 'COUNT', count)
  reply[1] = scanned[1]
  local flat = scanned[2]
  for i = 1, #flat, 2 do
    reply[#reply + 1] = flat[i]
    reply[#reply + 1] = 1
    reply[#reply + 1] = rcall('ZSCORE', indexKey, flat[i]) and 1 or 0
    reply[#reply + 1] = isJsonObject(flat[i + 1])
  end
end
return reply
