-- wrk script for scripts/wrk-pairs: 50 users in 25 pairs, each sending only to its partner, a
-- direct message per request under a fresh client id
-- (PUT /v1/conversations/PARTNER/messages/ID), over wrk's keep-alive connections.
-- Reads CHIRP_PAIRS from the environment: "name:token" of every user, comma-separated, user
-- 2k's partner being user 2k+1. wrk's request() does not say which connection asks, so each
-- thread takes the users in turn (round-robin over its connections' requests): with -t2
-- thread 1 sends as users 0, 2, 4, … to their partners and thread 2 as 1, 3, 5, …, so every
-- user sends and every conversation carries both directions. CHIRP_RUN tells runs apart in
-- the client ids (the warm-up's and the measured run's); CHIRP_THREADS is wrk's -t.
local users = {}
for name, token in string.gmatch(os.getenv("CHIRP_PAIRS"), "([^:,]+):([^,]+)") do
  users[#users + 1] = { name = name, token = token }
end
local run = os.getenv("CHIRP_RUN") or "0"
local count = tonumber(os.getenv("CHIRP_THREADS") or "1")
local threads = {}
local counter = 0
local mine = {}
-- Globals, so that setup() and done() in wrk's main Lua state reach each thread's own.
id = 0
failures = 0

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function init(args)
  -- This thread's senders: users id, id + count, id + 2 count, …, each with its partner
  -- (the other of its pair) and the headers of its token.
  for index = id + 1, #users, count do
    local partner = users[index % 2 == 1 and index + 1 or index - 1]
    mine[#mine + 1] = {
      path = "/v1/conversations/" .. partner.name .. "/messages/",
      headers = { ["Authorization"] = "Bearer " .. users[index].token, ["Content-Type"] = "application/json" },
    }
  end
end

function request()
  counter = counter + 1
  local sender = mine[(counter - 1) % #mine + 1]
  local key = string.format("p%s-%d-%d", run, id, counter)
  return wrk.format("PUT", sender.path .. key, sender.headers, '{"text":"pairs ' .. key .. '"}')
end

function response(status, headers, body)
  if status ~= 201 then failures = failures + 1 end
end

function done(summary, latency, requests)
  local failed = 0
  for _, t in ipairs(threads) do failed = failed + t:get("failures") end
  local errors = summary.errors
  io.write(string.format(
    "pairs requests %d seconds %.3f not201 %d errors %d p50 %.3f p90 %.3f p99 %.3f p99.9 %.3f max %.3f\n",
    summary.requests, summary.duration / 1e6, failed,
    errors.connect + errors.read + errors.write + errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    latency:percentile(99.9) / 1000, latency.max / 1000))
end
