-- wrk script: POST the request file named by the BODY environment variable to the URL given to wrk,
-- and count non-200 answers (wrk counts only socket errors and non-2xx/3xx on its own).
local f = assert(io.open(os.getenv("BODY"), "rb"))
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "application/json"

local non200 = 0
function response(status, headers, body)
  if status ~= 200 then non200 = non200 + 1 end
end

function done(summary, latency, requests)
  io.write(string.format("non200 %d\n", non200))
  io.write(string.format("p50_ms %.2f\np90_ms %.2f\np99_ms %.2f\n", latency:percentile(50) / 1000,
    latency:percentile(90) / 1000, latency:percentile(99) / 1000))
  io.write(string.format("requests %d\nduration_s %.2f\nrps %.1f\n", summary.requests, summary.duration / 1e6,
    summary.requests / (summary.duration / 1e6)))
  local e = summary.errors
  io.write(string.format("socket_errors %d\n", e.connect + e.read + e.write + e.timeout))
end
