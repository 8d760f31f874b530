--[[
  LARAVEL ALIGN NOTIFY: brings a queue's notify list back to one token per
  ready job, as Laravel's push and migrate keep it (one RPUSH of 1 per job
  put in line, one LPOP per job popped), in the direction the operator saw:
  'add' pushes the missing tokens, 'trim' drops the surplus from the head.
  Both lengths are read again here, and nothing is done unless the list is
  still off in that direction. Bounded: `limit` tokens a call, and how far
  it is still off after it, so a caller repeats it in steps.

  Safe while workers run: a token carries no job. One too many wakes a
  blocking pop (block_for) for nothing, once; one too few is what Laravel
  leaves itself whenever a woken worker's second pop takes another job's
  token. A surplus exists only while no worker is blocked (a blocked
  BLPOP would have taken it), so the trim wakes nobody and strands no one.

  KEYS[1] {prefix}queues:{queue}           list, ready payloads
  KEYS[2] {prefix}queues:{queue}:notify    list, wake-up tokens

  ARGV[1] 'add' or 'trim'
  ARGV[2] limit                            tokens pushed or dropped at most

  Returns {tokens pushed or dropped, how far the lengths are still apart in
  that direction}, or {ErrorCode.WrongKeyType, key}.
]]
local rcall = redis.call
-- @include layout

local readyKey, notifyKey = KEYS[1], KEYS[2]
local direction, limit = ARGV[1], tonumber(ARGV[2])

local wrongKey = firstWrongTypedKey({readyKey, 'list', notifyKey, 'list'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local apart = rcall('LLEN', readyKey) - rcall('LLEN', notifyKey)
if direction == 'trim' then apart = -apart end
if apart <= 0 then return {0, 0} end

local changed = math.min(apart, limit)
if direction == 'add' then
  local tokens = {}
  -- Laravel's push and migrate push the token 1.
  for i = 1, changed do tokens[i] = 1 end
  rcall('RPUSH', notifyKey, unpack(tokens))
else
  rcall('LTRIM', notifyKey, changed, -1)
end
return {changed, apart - changed}
