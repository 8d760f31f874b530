--[[
  MARKO READ FAILED RECORDS: failed jobs' records as the failed list shows
  them: each one's stored length in bytes and at most its first `limit`
  bytes. Reads only. A record carries the job's signed payload, which may be
  megabytes; it crosses the network as `limit` bytes (HGET still copies it
  once inside Redis: a hash field has no ranged read). The FailedJob's
  exception comes after its payload, so for a record cut at `limit` the
  `limit` bytes from its top-level "exception" string on are returned too.

  KEYS[1] {prefix}failed_jobs          hash, id -> JSON

  ARGV[1] limit                        bytes of each record returned at most
  ARGV[2..] failed job ids             a bounded batch

  Returns {found, length, prefix, exception, ...} in the ids' order: found 1,
  or 0 (length 0, '' for both) for an id with no record; exception '' when
  the record was not cut or has no such key; {ErrorCode, key} when the key has
  the wrong type.
]]
local rcall = redis.call
-- @include layout

local recordsKey, limit = KEYS[1], tonumber(ARGV[1])

local wrongKey = firstWrongTypedKey({recordsKey, 'hash'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local reply = {}
for i = 2, #ARGV do
  local record = rcall('HGET', recordsKey, ARGV[i])
  if record then
    local exception = ''
    if #record > limit then
      local _, keyEnd = string.find(record, '"exception"%s*:%s*"')
      if keyEnd then exception = string.sub(record, keyEnd, keyEnd + limit - 1) end
    end
    reply[#reply + 1] = 1
    reply[#reply + 1] = #record
    reply[#reply + 1] = string.sub(record, 1, limit)
    reply[#reply + 1] = exception
  else
    reply[#reply + 1] = 0
    reply[#reply + 1] = 0
    reply[#reply + 1] = ''
    reply[#reply + 1] = ''
  end
end
return reply
