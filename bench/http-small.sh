#!/usr/bin/env bash
# Small-request throughput over HTTP (target 5 of bench/README.md: >= 3,000 decisions/s, 0 errors, p50/p99 reported).
# Starts the jar on 127.0.0.1, warms it up with wrk (the JIT needs some 20,000 small requests before C2 has compiled
# the request path; on a loaded 2-core machine that is a minute or more), then runs wrk once per CONFIGS entry and
# prints per run: decisions/s, p50/p90/p99, non-200 answers, socket errors, the server's CPU per request (from
# /proc/<pid>/stat: user+system of all its threads, so JIT and GC included) and the load average before and after.
# CPU per request is the figure to compare between builds on a shared machine: throughput follows whatever CPU the
# other processes leave.
#   bench/http-small.sh     env: PORT (18080) SHAPE (small) WARM_SECONDS (60) WRK_SECONDS (20)
#                                CONFIGS ("2x16 1x8 2x32": wrk threads x connections) JAVA_OPTS ("")
# Needs wrk (apt-get install -y wrk) and curl; builds the jar (mvn -B -q package -Dmaven.test.skip=true) when missing.
source "$(dirname "$0")/common.sh"
PORT="${PORT:-18080}"; SHAPE="${SHAPE:-small}"; WARM_SECONDS="${WARM_SECONDS:-60}"; WRK_SECONDS="${WRK_SECONDS:-20}"
CONFIGS="${CONFIGS:-2x16 1x8 2x32}"
BODY_FILE="$REQ/$SHAPE.json"
JAR="$ROOT/target/quarkus-app/quarkus-run.jar"
URL="http://127.0.0.1:$PORT/v1/decisions"

command -v curl >/dev/null || { echo "curl is missing: apt-get install -y curl" >&2; exit 1; }
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
[[ -f "$JAR" ]] || (cd "$ROOT" && $MVN package -Dmaven.test.skip=true)
[[ -f "$BODY_FILE" ]] || "$ROOT/bench/generate.sh" "$SHAPE"

PID=""
stop() { if [[ -n "$PID" ]] && kill -0 "$PID" 2>/dev/null; then kill "$PID"; wait "$PID" 2>/dev/null || true; fi; PID=""; }
trap stop EXIT
cpu_ticks() { awk '{print $14 + $15}' "/proc/$PID/stat"; }   # user + system, in clock ticks

# shellcheck disable=SC2086
java ${JAVA_OPTS:-} -Dquarkus.http.port="$PORT" -Dquarkus.http.host=127.0.0.1 -jar "$JAR" >"$OUT/http-small-server.log" 2>&1 &
PID=$!
for _ in $(seq 1 120); do curl -sf "http://127.0.0.1:$PORT/q/health/ready" >/dev/null 2>&1 && break; sleep 0.5; done
curl -sf "http://127.0.0.1:$PORT/q/health/ready" >/dev/null || { echo "server did not start, see $OUT/http-small-server.log" >&2; exit 1; }
code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' --data-binary @"$BODY_FILE" "$URL")
[[ "$code" == 200 ]] || { echo "POST $SHAPE answered $code" >&2; exit 1; }

{ machine_note; echo "$SHAPE: $(stat -c %s "$BODY_FILE") bytes; warm-up ${WARM_SECONDS}s (wrk -t2 -c16), then ${WRK_SECONDS}s per run"; } \
  | tee "$OUT/http-small.txt"
BODY="$BODY_FILE" wrk -t2 -c16 -d"${WARM_SECONDS}s" -s "$ROOT/bench/post.lua" "$URL" >"$OUT/http-small-warmup.txt" 2>&1 || true
HZ=$(getconf CLK_TCK)
for cfg in $CONFIGS; do
  t="${cfg%x*}"; c="${cfg#*x}"
  before="$(uptime | sed 's/.*load average: //')"
  c0=$(cpu_ticks)
  BODY="$BODY_FILE" wrk -t"$t" -c"$c" -d"${WRK_SECONDS}s" --latency -s "$ROOT/bench/post.lua" "$URL" \
    >"$OUT/http-small-wrk-$cfg.txt" 2>&1 || true
  c1=$(cpu_ticks)
  after="$(uptime | sed 's/.*load average: //')"
  awk -v t="$t" -v c="$c" -v cpu=$((c1 - c0)) -v hz="$HZ" -v before="$before" -v after="$after" '
    /^rps/ {r=$2} /^p50_ms/ {p50=$2} /^p90_ms/ {p90=$2} /^p99_ms/ {p99=$2} /^non200/ {n=$2} /^socket_errors/ {s=$2}
    /^requests/ {q=$2}
    END { printf "wrk -t%d -c%d: %.0f decisions/s, %d requests, non-200 %d, socket errors %d, p50 %.2f ms, p90 %.2f ms, p99 %.2f ms; server CPU %.3f ms/request; load %s -> %s\n",
          t, c, r, q, n, s, p50, p90, p99, (q > 0 ? cpu * 1000 / hz / q : 0), before, after }' \
    "$OUT/http-small-wrk-$cfg.txt" | tee -a "$OUT/http-small.txt"
done
