--[[
  READ COUNTS: stats() columns of a batch of queues. Reads only, and bounded
  by the caller's batch: per queue its levels, two counts of its delayed set,
  and the length and pending summary of each level's stream. One call does
  the work of a few hundred single commands, whose encoding, decoding and
  promises cost the client more than Redis spends on them.

  The stream keys are derived from data (levels from q:{queue}:levels), so
  every key is built from the prefix, which is why the layout needs one
  server or a hash-tagged prefix.

  KEYS[1] queue:queues          not read: it routes the call, in a cluster, to
                                the node holding the prefix's slot

  ARGV[1] prefix
  ARGV[2] group                 the consumer group whose pending lists are the reserved jobs
  ARGV[3..] queue names

  Returns one reply per queue, in order:
    {pending, delayed, reserved}   pending counts due delayed jobs too; a
                                   reserved entry is one in the group's pending list
    {error}                        the first reply Redis refused (a key of
                                   the wrong type), as its error text
]]
local rcall = redis.call
-- @include layout
-- @include server-time

local prefix, group = ARGV[1], ARGV[2]
local now = serverNow()

local function countsOf(queue)
  local levels = redis.pcall('ZRANGE', levelsKeyOf(prefix, queue), 0, -1)
  if levels.err then return {levels.err} end
  local delayedKey = prefix .. 'q:' .. queue .. ':delayed'
  local due = redis.pcall('ZCOUNT', delayedKey, '-inf', now)
  if type(due) == 'table' then return {due.err} end
  local delayed = redis.pcall('ZCARD', delayedKey)
  if type(delayed) == 'table' then return {delayed.err} end
  local pending, reserved = due, 0
  for _, level in ipairs(levels) do
    local stream = streamKey(prefix, queue, level)
    local length = redis.pcall('XLEN', stream)
    if type(length) == 'table' then return {length.err} end
    local summary = redis.pcall('XPENDING', stream, group)
    local held = 0
    if summary.err then
      -- A stream pushed to but never reserved from has no group yet: nobody holds anything.
      if string.sub(summary.err, 1, 7) ~= 'NOGROUP' then return {summary.err} end
    else
      held = summary[1]
    end
    pending = pending + math.max(0, length - held)
    reserved = reserved + held
  end
  return {pending, delayed - due, reserved}
end

local replies = {}
for i = 3, #ARGV do replies[#replies + 1] = countsOf(ARGV[i]) end
return replies
