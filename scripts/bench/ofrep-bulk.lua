-- wrk script: POST /ofrep/v1/evaluate/flags (bulk OFREP evaluation) for a random user and device each request.
-- Used by abconsole-bench's serve scenario: wrk -s scripts/bench/ofrep-bulk.lua http://HOST:PORT/ofrep/v1/evaluate/flags
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("id", threads)
end

function init(args)
  math.randomseed(os.time() * 97 + (id or 0))
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  local body = string.format('{"context":{"targetingKey":"user-%d","deviceId":"device-%d","country":"NL"}}',
                             math.random(1, 10000000), math.random(1, 10000000))
  return wrk.format(nil, nil, nil, body)
end
