#!/usr/bin/env bash
# End to end against the built jar, on 127.0.0.1 only, bounded in time:
#   1. the tokenizing floor of the large request (in-process, same file, same run);
#   2. ROUNDS alternating POSTs of the large request to /v1/decisions and /v1/validations (after WARM rounds),
#      medians and the ratios decide/validate and validate/floor (targets: <= 1.3 and <= 1.5);
#   3. wrk against /v1/decisions with the small request, after a WRK_WARM-second wrk warm-up (the JIT has not compiled
#      the small-request path after the large rounds): decisions/s, errors, p50/p90/p99, wrk threads and connections,
#      the load average (bench/http-small.sh measures several wrk settings and the server CPU per request);
#   4. peak RSS (VmHWM) of the server.
# Done twice: default heap, then -Xmx1g (target 6: the large request decided with 1 GiB without error).
#   bench/e2e.sh            env: PORT (18080) ROUNDS (10) WARM (3) WRK_SECONDS (20) WRK_CONN (16) WRK_THREADS (2)
#                                WRK_WARM (30) HEAPS ("default -Xmx1g")
# Needs wrk (apt-get install -y wrk) and curl; builds the jar (mvn -B -q package -Dmaven.test.skip=true) when missing.
source "$(dirname "$0")/common.sh"
PORT="${PORT:-18080}"; ROUNDS="${ROUNDS:-10}"; WARM="${WARM:-3}"
WRK_SECONDS="${WRK_SECONDS:-20}"; WRK_CONN="${WRK_CONN:-16}"; WRK_THREADS="${WRK_THREADS:-2}"
WRK_WARM="${WRK_WARM:-30}"; HEAPS="${HEAPS:-default -Xmx1g}"
LARGE="$REQ/large.json"; SMALL="$REQ/small.json"
JAR="$ROOT/target/quarkus-app/quarkus-run.jar"
BASE="http://127.0.0.1:$PORT"

command -v curl >/dev/null || { echo "curl is missing: apt-get install -y curl" >&2; exit 1; }
HAVE_WRK=1; command -v wrk >/dev/null || { HAVE_WRK=0; echo "wrk is missing (apt-get install -y wrk): skipping the load test" >&2; }
# the jar first, skipping test compilation: a plain package would recompile target/test-classes without src/bench
[[ -f "$JAR" ]] || (cd "$ROOT" && $MVN package -Dmaven.test.skip=true)
[[ -f "$LARGE" && -f "$SMALL" ]] || "$ROOT/bench/generate.sh" large small
CP="$(bench_classpath)"

PID=""
stop() { if [[ -n "$PID" ]] && kill -0 "$PID" 2>/dev/null; then kill "$PID"; wait "$PID" 2>/dev/null || true; fi; PID=""; }
trap stop EXIT

post() { # endpoint file -> "code seconds"
  curl -s -o /dev/null -w '%{http_code} %{time_total}\n' --max-time 300 -H 'Content-Type: application/json' \
    --data-binary @"$2" "$BASE$1"
}

machine_note | tee "$OUT/e2e.txt"
echo "large: $(stat -c %s "$LARGE") bytes, small: $(stat -c %s "$SMALL") bytes" | tee -a "$OUT/e2e.txt"
FLOOR=$(java -Xmx2g -cp "$CP" dev.muster.bench.Floor "$LARGE" "$ROUNDS" 5 | awk '/floor_ms/ {print $2}')
echo "tokenize floor (in-process, median of $ROUNDS): ${FLOOR} ms" | tee -a "$OUT/e2e.txt"

for HEAP in $HEAPS; do
  JOPTS=(); [[ "$HEAP" != default ]] && JOPTS=("$HEAP")
  echo "== heap: $HEAP" | tee -a "$OUT/e2e.txt"
  java "${JOPTS[@]}" -Dquarkus.http.port="$PORT" -Dquarkus.http.host=127.0.0.1 -jar "$JAR" >"$OUT/server-$HEAP.log" 2>&1 &
  PID=$!
  for _ in $(seq 1 120); do curl -sf "$BASE/q/health/ready" >/dev/null 2>&1 && break; sleep 0.5; done
  curl -sf "$BASE/q/health/ready" >/dev/null || { echo "server did not start, see $OUT/server-$HEAP.log" >&2; exit 1; }
  : >"$OUT/decide-$HEAP.txt"; : >"$OUT/validate-$HEAP.txt"; FAIL=0
  for i in $(seq 1 $((WARM + ROUNDS))); do
    read -r dc dt < <(post /v1/decisions "$LARGE")
    read -r vc vt < <(post /v1/validations "$LARGE")
    [[ "$dc" == 200 && "$vc" == 200 ]] || { FAIL=$((FAIL + 1)); echo "round $i: decide $dc validate $vc" >&2; }
    if (( i > WARM )); then echo "$dt" >>"$OUT/decide-$HEAP.txt"; echo "$vt" >>"$OUT/validate-$HEAP.txt"; fi
  done
  D=$(median <"$OUT/decide-$HEAP.txt"); V=$(median <"$OUT/validate-$HEAP.txt")
  awk -v d="$D" -v v="$V" -v f="$FLOOR" -v n="$ROUNDS" -v fail="$FAIL" 'BEGIN {
    printf "large, %d alternating rounds: decide median %.0f ms, validate median %.0f ms, non-200: %d\n", n, d*1000, v*1000, fail
    printf "ratio decide/validate %.2f (target <= 1.3); validate/floor %.2f (target <= 1.5)\n", d/v, (v*1000)/f }' \
    | tee -a "$OUT/e2e.txt"
  echo "decide rounds (s): $(paste -sd' ' "$OUT/decide-$HEAP.txt")" >>"$OUT/e2e.txt"
  echo "validate rounds (s): $(paste -sd' ' "$OUT/validate-$HEAP.txt")" >>"$OUT/e2e.txt"
  if (( HAVE_WRK )) && [[ "$HEAP" == default || -n "${WRK_ALL_HEAPS:-}" ]]; then
    BODY="$SMALL" wrk -t"$WRK_THREADS" -c"$WRK_CONN" -d"${WRK_WARM}s" -s "$ROOT/bench/post.lua" "$BASE/v1/decisions" \
      >/dev/null 2>&1 || true
    LOAD="$(uptime | sed 's/.*load average: //')"
    BODY="$SMALL" wrk -t"$WRK_THREADS" -c"$WRK_CONN" -d"${WRK_SECONDS}s" --latency -s "$ROOT/bench/post.lua" "$BASE/v1/decisions" \
      >"$OUT/wrk-$HEAP.txt" 2>&1 || true
    awk '/^rps/ {r=$2} /^p50_ms/ {p50=$2} /^p90_ms/ {p90=$2} /^p99_ms/ {p99=$2} /^non200/ {n=$2} /^socket_errors/ {s=$2} /^requests/ {q=$2}
      END { printf "wrk small (-t%d -c%d, %ds after a %ds warm-up; load %s): %.0f decisions/s, %d requests, non-200 %d, socket errors %d, p50 %.2f ms, p90 %.2f ms, p99 %.2f ms\n", t, c, d, w, load, r, q, n, s, p50, p90, p99 }' \
      t="$WRK_THREADS" c="$WRK_CONN" d="$WRK_SECONDS" w="$WRK_WARM" load="$LOAD" "$OUT/wrk-$HEAP.txt" | tee -a "$OUT/e2e.txt"
  fi
  echo "peak RSS (VmHWM): $(awk '/VmHWM/ {printf "%.0f MiB", $2/1024}' /proc/$PID/status)" | tee -a "$OUT/e2e.txt"
  stop
done
uptime | sed 's/.*load average/after: load average/' | tee -a "$OUT/e2e.txt"
