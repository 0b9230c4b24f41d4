-- wrk script for bench/load-mixed.sh: one request kind per wrk process. POSTs the file named by BODY with the
-- Content-Type named by CTYPE (default application/json) and counts answers whose status is not EXPECT, by status.
-- KIND names the kind in the output. wrk runs one Lua state per thread; done() sums them through the thread table.
local f = assert(io.open(os.getenv("BODY"), "rb"))
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = os.getenv("CTYPE") or "application/json"
local expect = tonumber(os.getenv("EXPECT") or "200")

local threads = {}
function setup(thread)
  table.insert(threads, thread)
end

mismatches = 0
seen = {}
function response(status, headers, body)
  if status ~= expect then
    mismatches = mismatches + 1
    seen[status] = (seen[status] or 0) + 1
  end
end

function done(summary, latency, requests)
  local total, by = 0, {}
  for _, t in ipairs(threads) do
    total = total + t:get("mismatches")
    for s, n in pairs(t:get("seen")) do by[s] = (by[s] or 0) + n end
  end
  local detail = ""
  for s, n in pairs(by) do detail = detail .. string.format(" %d:%d", s, n) end
  io.write(string.format("kind %s\nexpect %d\nmismatches %d\nmismatch_statuses%s\n", os.getenv("KIND") or "?",
    expect, total, detail))
  io.write(string.format("p50_ms %.2f\np90_ms %.2f\np99_ms %.2f\nmax_ms %.2f\n", latency:percentile(50) / 1000,
    latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
  io.write(string.format("requests %d\nduration_s %.2f\nrps %.1f\n", summary.requests, summary.duration / 1e6,
    summary.requests / (summary.duration / 1e6)))
  local e = summary.errors
  io.write(string.format("socket_errors %d\nconnect %d\nread %d\nwrite %d\ntimeout %d\n",
    e.connect + e.read + e.write + e.timeout, e.connect, e.read, e.write, e.timeout))
end
