--[[
  MARKO READ FAILED QUEUES: how many of a window of failed jobs each queue
  has, read only. The failed index holds only ids; the queue is inside each
  record's JSON, so it is decoded here rather than every record crossing the
  network. Not with cjson: a record carries the signed job and the trace,
  often tens of KiB, and decoding 250 of them would hold Redis for tens of
  ms. The top-level "queue" string is matched in the record's first 64 KiB
  instead (FailedJob's queue comes before its payload; inside a JSON string
  a quote is escaped, so no other "queue": matches). A queue name with an
  escaped character in it is not read and counts under ''.

  KEYS[1] {prefix}failed_jobs          hash, id -> JSON of the failed job
  KEYS[2] {prefix}failed_jobs:index    sorted set, id scored by the second it failed

  ARGV[1] start                        rank in the index, newest first
  ARGV[2] count                        ids looked at, at most
  ARGV[3] byteBudget                   record bytes read, about at most: the
                                       call stops after the record that
                                       passes it (a record's copy into the
                                       script is what a call costs, about
                                       1.5 ms a MiB)

  Returns {ids looked at (fewer than count when the budget or the index
  ran out), records missing, queue, count, queue, count, ...};
  a record whose queue cannot be read counts under ''. {ErrorCode, key} when
  a key has the wrong type.
]]
local rcall = redis.call
-- @include layout

local recordsKey, indexKey = KEYS[1], KEYS[2]
local start, count, byteBudget = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local READ_LIMIT = 65536

local wrongKey = firstWrongTypedKey({recordsKey, 'hash', indexKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local function queueOf(record)
  if #record > READ_LIMIT then record = string.sub(record, 1, READ_LIMIT) end
  return string.match(record, '^%s*{.-"queue"%s*:%s*"([^"\\]*)"') or ''
end

local ids = rcall('ZREVRANGE', indexKey, start, start + count - 1)
local counts, order, missing, looked, bytes = {}, {}, 0, 0, 0
for _, id in ipairs(ids) do
  if bytes >= byteBudget then break end
  looked = looked + 1
  local record = rcall('HGET', recordsKey, id)
  if record then
    bytes = bytes + #record
    local queue = queueOf(record)
    if not counts[queue] then
      counts[queue] = 0
      order[#order + 1] = queue
    end
    counts[queue] = counts[queue] + 1
  else
    missing = missing + 1
  end
end

local reply = {looked, missing}
for _, queue in ipairs(order) do
  reply[#reply + 1] = queue
  reply[#reply + 1] = counts[queue]
end
return reply
