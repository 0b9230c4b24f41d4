#!/usr/bin/env bash
# Bytes allocated per request on the large request, against the jar, for /v1/decisions and /v1/validations.
# Starts the jar with the container's heap and GC flags (CONTAINER_OPTS below: what the image's run-java.sh generates
# plus k8s/deployment.yaml's JAVA_OPTS_APPEND, with the heap of a 2 GiB memory limit written out), warms it up, then
# for each endpoint: starts a JFR recording (jcmd JFR.start, settings=profile), sends N requests one after the other,
# stops it. jdk.ThreadAllocationStatistics is written at the start and the end of the recording: the sum over threads
# of (end - start) is what the JVM allocated during the N requests. Also prints the GC count and time over the window
# (jstat) and the top allocation sites from jdk.ObjectAllocationSample (weights: bytes since the thread's previous
# sample, so their sum estimates the same total).
#   bench/alloc.sh     env: PORT (18080) N (5) WARM (5) SHAPE (large) BODY (a request file instead of SHAPE's, such as
#                      a family request: target/bench/family/plain-pods-1.json) JAVA_OPTS (CONTAINER_OPTS)
source "$(dirname "$0")/common.sh"
PORT="${PORT:-18080}"; N="${N:-5}"; WARM="${WARM:-5}"; SHAPE="${SHAPE:-large}"
# run-java.sh (ubi9 openjdk-17-runtime) defaults, then the Deployment's JAVA_OPTS_APPEND; 75 % of 2 GiB = 1536m
CONTAINER_OPTS="$CONTAINER_GC -XX:+ExitOnOutOfMemoryError -Xmx1536m"
JAVA_OPTS="${JAVA_OPTS:-$CONTAINER_OPTS}"
JAR="$ROOT/target/quarkus-app/quarkus-run.jar"; BASE="http://127.0.0.1:$PORT"
A="$OUT/alloc"; mkdir -p "$A"
[[ -f "$JAR" ]] || (cd "$ROOT" && $MVN package -Dmaven.test.skip=true)
if [[ -z "${BODY:-}" ]]; then
  BODY="$REQ/$SHAPE.json"
  [[ -f "$BODY" ]] || "$ROOT/bench/generate.sh" "$SHAPE"
fi
[[ -f "$BODY" ]] || { echo "no such file: $BODY" >&2; exit 2; }

PID=""
stop() { if [[ -n "$PID" ]] && kill -0 "$PID" 2>/dev/null; then kill "$PID"; wait "$PID" 2>/dev/null || true; fi; PID=""; }
trap stop EXIT
post() { curl -s -o /dev/null -w '%{http_code} %{time_total}\n' --max-time 300 -H 'Content-Type: application/json' \
  --data-binary @"$BODY" "$BASE$1"; }
gc() { jstat -gc "$PID" | awk 'NR==2 {print $(NF-4), $(NF-3), $(NF-2), $(NF-1), $NF}'; }  # YGC YGCT FGC FGCT ... GCT

# shellcheck disable=SC2086
java $JAVA_OPTS -Dquarkus.http.port="$PORT" -Dquarkus.http.host=127.0.0.1 -jar "$JAR" >"$A/server.log" 2>&1 &
PID=$!
for _ in $(seq 1 120); do curl -sf "$BASE/q/health/ready" >/dev/null 2>&1 && break; sleep 0.5; done
{ machine_note; echo "server: java $JAVA_OPTS; $(basename "$BODY"): $(stat -c %s "$BODY") bytes; $WARM warm-up rounds, $N requests per endpoint"; } | tee "$A/summary.txt"
for _ in $(seq 1 "$WARM"); do post /v1/decisions >/dev/null; post /v1/validations >/dev/null; done
for ep in decisions validations; do
  jcmd "$PID" JFR.start name="alloc-$ep" settings=profile >/dev/null
  g0=$(jstat -gc "$PID" | tail -1)
  : >"$A/$ep-times.txt"
  for _ in $(seq 1 "$N"); do read -r code t < <(post "/v1/$ep"); [[ "$code" == 200 ]] || echo "$ep answered $code" >&2; echo "$t" >>"$A/$ep-times.txt"; done
  g1=$(jstat -gc "$PID" | tail -1)
  jcmd "$PID" JFR.stop name="alloc-$ep" filename="$A/$ep.jfr" >/dev/null
  jfr print --json --events jdk.ThreadAllocationStatistics "$A/$ep.jfr" >"$A/$ep-tas.json"
  jfr print --events jdk.ObjectAllocationSample --stack-depth 12 "$A/$ep.jfr" >"$A/$ep-oas.txt"
  hdr=$(jstat -gc "$PID" | head -1)
  python3 "$ROOT/bench/alloc_summary.py" "$ep" "$N" "$A/$ep-tas.json" "$A/$ep-oas.txt" "$hdr" "$g0" "$g1" "$A/$ep-times.txt" \
    | tee -a "$A/summary.txt"
done
echo "peak RSS (VmHWM): $(awk '/VmHWM/ {printf "%.0f MiB", $2/1024}' /proc/$PID/status)" | tee -a "$A/summary.txt"
