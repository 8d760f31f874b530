-- Time comes from the Redis server so that workers on hosts with skewed
-- clocks can neither reorder delayed jobs nor end someone else's claim early.
local function serverNow()
  return tonumber(rcall('TIME')[1])
end

-- Y-m-d H:i:s in UTC, as the PHP driver writes created_at and failed_at.
-- Redis Lua has no os.date, so this is the days-to-civil conversion
-- (Howard Hinnant's algorithm) done by hand.
local function formatUtc(seconds)
  local days = math.floor(seconds / 86400)
  local secondsOfDay = seconds - days * 86400
  local z = days + 719468
  local era = math.floor(z / 146097)
  local dayOfEra = z - era * 146097
  local yearOfEra = math.floor((dayOfEra - math.floor(dayOfEra / 1460) + math.floor(dayOfEra / 36524)
    - math.floor(dayOfEra / 146096)) / 365)
  local dayOfYear = dayOfEra - (365 * yearOfEra + math.floor(yearOfEra / 4) - math.floor(yearOfEra / 100))
  local monthIndex = math.floor((5 * dayOfYear + 2) / 153)
  local day = dayOfYear - math.floor((153 * monthIndex + 2) / 5) + 1
  local month = monthIndex < 10 and monthIndex + 3 or monthIndex - 9
  local year = yearOfEra + era * 400
  if month <= 2 then year = year + 1 end
  return string.format('%04d-%02d-%02d %02d:%02d:%02d', year, month, day,
    math.floor(secondsOfDay / 3600), math.floor(secondsOfDay % 3600 / 60), secondsOfDay % 60)
end
