#!/usr/bin/env bash
# Steadiness under saturating mixed load: valid small decisions alongside invalid and malformed requests, against the
# packaged jar with -Xmx1g. Checks every answer's status against the one its kind must get, counts socket errors,
# samples the server's resident memory every second and compares the second half of the measured run with the first.
# Exits non-zero on any wrong status, any socket error, or RSS second-half mean > RSS_RATIO x first-half mean.
#
# Request kinds (one wrk process per kind, all running at the same time, so the server sees them interleaved;
# wrk's response() hook cannot tell which request an answer belongs to, one kind per process makes that exact):
#   valid          small.json                                              200
#   neg-mincount   small.json with the gang's minCount -1                  422
#   no-node-name   small.json with the first node's metadata.name removed  422
#   truncated      the first half of small.json                            400
#   json-null      the body `null`                                         400
#   wrong-type     small.json sent as text/plain                           415
#
#   bench/load-mixed.sh    env: PORT (18080) WARM_SECONDS (30) SECONDS_RUN (60) JAVA_OPTS ("-Xmx1g")
#                               VALID_CONN (8) BAD_CONN (2: connections per invalid/malformed kind) RSS_RATIO (1.05)
#                               JAR (this build's target/quarkus-app/quarkus-run.jar; another build's to compare)
# Needs wrk and curl (apt-get install -y wrk curl; the script installs wrk with apt-get when it can), python3.
# Builds the jar (mvn -B -q package -Dmaven.test.skip=true) and the small request (bench/generate.sh) when missing.
source "$(dirname "$0")/common.sh"
PORT="${PORT:-18080}"; WARM_SECONDS="${WARM_SECONDS:-30}"; SECONDS_RUN="${SECONDS_RUN:-60}"
JAVA_OPTS="${JAVA_OPTS:--Xmx1g}"; VALID_CONN="${VALID_CONN:-8}"; BAD_CONN="${BAD_CONN:-2}"; RSS_RATIO="${RSS_RATIO:-1.05}"
JAR="${JAR:-$ROOT/target/quarkus-app/quarkus-run.jar}"
URL="http://127.0.0.1:$PORT/v1/decisions"
MIX="$OUT/mixed"; mkdir -p "$MIX"

if ! command -v wrk >/dev/null; then
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then apt-get install -y wrk >&2
  elif command -v sudo >/dev/null && command -v apt-get >/dev/null; then sudo apt-get install -y wrk >&2
  else echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; fi
fi
command -v curl >/dev/null || { echo "curl is missing: apt-get install -y curl" >&2; exit 1; }
[[ -f "$JAR" ]] || (cd "$ROOT" && $MVN package -Dmaven.test.skip=true)
[[ -f "$REQ/small.json" ]] || "$ROOT/bench/generate.sh" small

source "$ROOT/bench/mixed-kinds.sh"   # the request bodies in $MIX, KINDS, run_mix
mixed_bodies

PID=""; SAMPLER=""
stop() {
  [[ -n "$SAMPLER" ]] && kill "$SAMPLER" 2>/dev/null || true
  if [[ -n "$PID" ]] && kill -0 "$PID" 2>/dev/null; then kill "$PID"; wait "$PID" 2>/dev/null || true; fi; PID=""
}
trap stop EXIT
cpu_ticks() { awk '{print $14 + $15}' "/proc/$PID/stat"; }   # user + system of all threads, clock ticks

# shellcheck disable=SC2086
java $JAVA_OPTS -Dquarkus.http.port="$PORT" -Dquarkus.http.host=127.0.0.1 -jar "$JAR" >"$MIX/server.log" 2>&1 &
PID=$!
for _ in $(seq 1 120); do curl -sf "http://127.0.0.1:$PORT/q/health/ready" >/dev/null 2>&1 && break; sleep 0.5; done
curl -sf "http://127.0.0.1:$PORT/q/health/ready" >/dev/null || { echo "server did not start, see $MIX/server.log" >&2; exit 1; }

# each kind once with curl first: a wrong expectation is a setup error, reported before any load
for k in "${KINDS[@]}"; do
  read -r kind expect ctype _ <<<"$k"
  code=$(curl -s -o "$MIX/$kind.answer" -w '%{http_code}' -H "Content-Type: $ctype" --data-binary @"$MIX/$kind.body" "$URL")
  [[ "$code" == "$expect" ]] || { echo "$kind answered $code, expected $expect: $(head -c 400 "$MIX/$kind.answer")" >&2; exit 1; }
done

{ machine_note; echo "server: java $JAVA_OPTS; warm-up ${WARM_SECONDS}s, then ${SECONDS_RUN}s of the mix" \
  "(valid: $VALID_CONN connections, each other kind: $BAD_CONN)"; } | tee "$MIX/summary.txt"
run_mix "$WARM_SECONDS" warm "$URL"

HZ=$(getconf CLK_TCK)
: >"$MIX/rss.txt"
( while kill -0 "$PID" 2>/dev/null; do awk '/VmRSS/ {print $2}' "/proc/$PID/status" >>"$MIX/rss.txt"; sleep 1; done ) &
SAMPLER=$!
before="$(uptime | sed 's/.*load average: //')"; c0=$(cpu_ticks)
run_mix "$SECONDS_RUN" run "$URL"
c1=$(cpu_ticks); after="$(uptime | sed 's/.*load average: //')"
kill "$SAMPLER" 2>/dev/null || true; wait "$SAMPLER" 2>/dev/null || true; SAMPLER=""

FAIL=0; TOTAL=0
for k in "${KINDS[@]}"; do
  read -r kind expect _ conn <<<"$k"
  f="$MIX/run-$kind.txt"
  grep -q '^requests' "$f" || { echo "$kind: wrk failed: $(head -c 400 "$f")" | tee -a "$MIX/summary.txt"; FAIL=1; continue; }
  awk -v kind="$kind" -v conn="$conn" '
    /^expect/ {e=$2} /^mismatches/ {m=$2} /^mismatch_statuses/ {$1=""; ms=$0} /^rps/ {r=$2} /^requests/ {q=$2}
    /^p50_ms/ {p50=$2} /^p90_ms/ {p90=$2} /^p99_ms/ {p99=$2} /^socket_errors/ {s=$2}
    END { printf "%-13s expect %d  c=%-2d %7.0f req/s %8d requests  wrong statuses %d%s  socket errors %d  p50 %.2f ms p90 %.2f ms p99 %.2f ms\n",
          kind, e, conn, r, q, m, (m > 0 ? " (" ms " )" : ""), s, p50, p90, p99 }' "$f" | tee -a "$MIX/summary.txt"
  m=$(awk '/^mismatches/ {print $2}' "$f"); s=$(awk '/^socket_errors/ {print $2}' "$f"); q=$(awk '/^requests/ {print $2}' "$f")
  TOTAL=$((TOTAL + q)); (( m == 0 && s == 0 )) || FAIL=1
done
awk -v q="$TOTAL" -v cpu=$((c1 - c0)) -v hz="$HZ" -v secs="$SECONDS_RUN" -v before="$before" -v after="$after" 'BEGIN {
  printf "all kinds: %d requests in %ds (%.0f req/s); server CPU %.3f ms/request (all threads, JIT and GC included); load %s -> %s\n",
    q, secs, q / secs, (q > 0 ? cpu * 1000 / hz / q : 0), before, after }' | tee -a "$MIX/summary.txt"
if ! awk -v ratio="$RSS_RATIO" '{v[NR]=$1} END {
    h=int(NR/2); if (h < 2) {print "too few RSS samples"; exit 1}
    for (i=1;i<=h;i++) a+=v[i]; for (i=h+1;i<=2*h;i++) b+=v[i]; a/=h; b/=h
    min=v[1]; max=v[1]; for (i=1;i<=NR;i++) {if (v[i]<min) min=v[i]; if (v[i]>max) max=v[i]}
    printf "RSS: %d samples, first half mean %.1f MiB, second half mean %.1f MiB, ratio %.3f (limit %.2f); min %.1f max %.1f MiB\n",
      NR, a/1024, b/1024, b/a, ratio, min/1024, max/1024
    exit (b > ratio * a) }' "$MIX/rss.txt" | tee -a "$MIX/summary.txt"; then
  FAIL=1
fi
grep -E -c ' (ERROR|SEVERE) ' "$MIX/server.log" | sed 's/^/server log ERROR lines: /' | tee -a "$MIX/summary.txt" || true
if (( FAIL )); then echo "FAILED: see $MIX/" | tee -a "$MIX/summary.txt"; exit 1; fi
echo "OK: every answer had its kind's status, no socket errors, RSS flat" | tee -a "$MIX/summary.txt"
