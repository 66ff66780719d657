-- wrk script for scripts/wrk-sends: each request a direct message under a fresh client id
-- (PUT /v1/conversations/RECIPIENT/messages/ID), over wrk's keep-alive connections.
-- Reads CHIRP_TOKEN and CHIRP_RECIPIENT from the environment.
local token = os.getenv("CHIRP_TOKEN")
local recipient = os.getenv("CHIRP_RECIPIENT")
local counter = 0
local prefix

function setup(thread)
  thread:set("prefix", string.format("w%d%d", os.time(), math.random(1, 1000000)))
end

function init(args)
  prefix = prefix or string.format("w%d", math.random(1, 1000000000))
  wrk.headers["Authorization"] = "Bearer " .. token
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  counter = counter + 1
  local id = prefix .. "-" .. counter
  return wrk.format("PUT", "/v1/conversations/" .. recipient .. "/messages/" .. id, nil, '{"text":"wrk ' .. id .. '"}')
end

local failures = 0
function response(status, headers, body)
  if status ~= 201 then failures = failures + 1 end
end

function done(summary, latency, requests)
  io.write(string.format("requests %d, non-2xx or errors %d; latency p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, max %.2f ms\n",
    summary.requests, summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency:percentile(99.9) / 1000, latency.max / 1000))
end
