#!/usr/bin/env bash
# The DRA shape family (dev.muster.bench.ShapeFamily) timed shape by shape, one JVM each, as one markdown table:
#   bench/family.sh [shape...]          (all shapes by default; FamilyBench --list names them)
# env: SEED (1)  ROUNDS (15)  WARM (10)  SCALE (full | small: 500 nodes, gangs of 100)  NODES, GANG (override SCALE)
#      CAP (30: seconds one decision may take before it is stopped and the row says so)
#      BUDGET (30: seconds of rounds per shape; warm-up stops at a third of it)
#      SHAPE_TIMEOUT (300: seconds before a shape's JVM is killed and its row says so)
#      JAVA_OPTS (the Deployment's JVM flags with a 3 GiB heap: deployment_flags -Xmx3g; the in-process JVM holds the
#        generated request besides what the service would. With a heap sized adaptively the engine's times on this
#        machine doubled in the decisions before many young collections)
#      HTTP=1: also over HTTP against the packaged jar, started with the Deployment's JVM flags (gc-compare.sh's
#        DEPLOYMENT): per shape WARM + ROUNDS rounds, decide and validate alternating which goes first, one request
#        in flight; adds HTTP decide / validate medians and p90s, server CPU per decision and per validation
#        (/proc/<pid>/stat, all its threads) and both ratios. The CPU is counted after the rounds, over CPU_BLOCKS (3)
#        rounds of one block per endpoint (which goes first alternating), as many requests per endpoint in all as
#        there were rounds; each block starts on an empty young generation (jcmd GC.run, not counted), so each
#        endpoint pays the young collections its own allocations cause; shown: the medians of the blocks. The
#        last column is the CPU ratio of the alternating rounds' per-request medians, where a collection counts in
#        the request during which eden filled (with two requests alternating, nearly always the decision). PORT (18090).
# Rows and logs also go to target/bench/family/.
source "$(dirname "$0")/common.sh"
SEED="${SEED:-1}"; ROUNDS="${ROUNDS:-15}"; WARM="${WARM:-10}"; SCALE="${SCALE:-full}"
CAP="${CAP:-30}"; BUDGET="${BUDGET:-30}"; CPU_BLOCKS="${CPU_BLOCKS:-3}"; SHAPE_TIMEOUT="${SHAPE_TIMEOUT:-300}"; HTTP="${HTTP:-}"; PORT="${PORT:-18090}"
JAVA_OPTS="${JAVA_OPTS:-$(deployment_flags -Xmx3g) -Xmx3g}"
case "$SCALE" in
  full) NODES="${NODES:-5000}"; GANG="${GANG:-1000}" ;;
  small) NODES="${NODES:-500}"; GANG="${GANG:-100}" ;;
  *) echo "SCALE is full or small" >&2; exit 2 ;;
esac
F="$OUT/family"; mkdir -p "$F"
CP="$(bench_classpath)"
# shellcheck disable=SC2206
JOPTS=($JAVA_OPTS)
bench() { java "${JOPTS[@]}" -cp "$CP" dev.muster.bench.FamilyBench --seed "$SEED" --nodes "$NODES" --gang "$GANG" "$@"; }
if (( $# > 0 )); then SHAPES=("$@"); else mapfile -t SHAPES < <(bench --list); fi

SERVER=""
stop() { if [[ -n "$SERVER" ]]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi; }
trap stop EXIT
if [[ -n "$HTTP" ]]; then
  JAR="$ROOT/target/quarkus-app/quarkus-run.jar"
  [[ -f "$JAR" ]] || (cd "$ROOT" && $MVN package -Dmaven.test.skip=true) >&2
  HEAP="-Xmx1536m"
  DEPLOYMENT="$(deployment_flags "$HEAP") $HEAP"
  # shellcheck disable=SC2086
  java $DEPLOYMENT -Dquarkus.http.port="$PORT" -Dquarkus.http.host=127.0.0.1 -jar "$JAR" >"$F/server.log" 2>&1 &
  SERVER=$!
  for _ in $(seq 1 240); do curl -sf "http://127.0.0.1:$PORT/q/health/ready" >/dev/null 2>&1 && break; sleep 0.5; done
  HZ=$(getconf CLK_TCK)
fi
post() { curl -s -o /dev/null -w '%{http_code} %{time_total}\n' --max-time "$SHAPE_TIMEOUT" \
  -H 'Content-Type: application/json' --data-binary @"$1" "http://127.0.0.1:$PORT$2"; }
ticks() { awk '{print $14 + $15}' "/proc/$SERVER/stat"; }
# One shape over HTTP: prints "decide median | validate median | server CPU per decision | decide/validate".
http_shape() {
  local s="$1" body="$F/$1-$SEED.json" r dc dt vc vt c0 c1 c2 c3 bad=0
  : >"$F/$s-http.txt"
  bench --write "$F" --write-only "$s" 2>>"$F/$s.log"
  local start=$SECONDS
  for r in $(seq 1 $((WARM + ROUNDS))); do
    if (( r % 2 )); then
      c0=$(ticks); read -r dc dt < <(post "$body" /v1/decisions); c1=$(ticks)
      c2=$(ticks); read -r vc vt < <(post "$body" /v1/validations); c3=$(ticks)
    else
      c2=$(ticks); read -r vc vt < <(post "$body" /v1/validations); c3=$(ticks)
      c0=$(ticks); read -r dc dt < <(post "$body" /v1/decisions); c1=$(ticks)
    fi
    [[ "$dc" == 200 && "$vc" == 200 ]] || bad=$((bad + 1))
    (( r > WARM )) && echo "$dt $vt $((c1 - c0)) $((c3 - c2))" >>"$F/$s-http.txt"
    (( SECONDS - start > 3 * BUDGET )) && break
  done
  # CPU per request: CPU_BLOCKS rounds of one block per endpoint (the endpoint that goes first alternating), each
  # block after one request of the same that is not counted and a collection (not counted either) that empties the
  # young generation, so that each block pays for the collections its own requests cause, not for what the one before
  # left in eden; as many requests in all per endpoint as there were rounds
  local n m k path blocks=""
  n=$(wc -l <"$F/$s-http.txt"); (( n > 0 )) || n=1
  m=$(( (n + CPU_BLOCKS - 1) / CPU_BLOCKS ))
  for k in $(seq 1 "$CPU_BLOCKS"); do
    local order=(/v1/decisions /v1/validations); (( k % 2 == 0 )) && order=(/v1/validations /v1/decisions)
    for path in "${order[@]}"; do
      read -r vc vt < <(post "$body" "$path")
      jcmd "$SERVER" GC.run >/dev/null 2>&1 || true
      c0=$(ticks)
      for _ in $(seq 1 "$m"); do read -r vc vt < <(post "$body" "$path"); [[ "$vc" == 200 ]] || bad=$((bad + 1)); done
      c1=$(ticks)
      blocks="$blocks ${path#/v1/}:$((c1 - c0))"
    done
  done
  rm -f "$body"
  python3 - "$F/$s-http.txt" "$HZ" "$bad" "$m" $blocks <<'PY'
import sys, statistics
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
hz, bad, n = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])  # n: requests per CPU block
if not rows:
    print(" | | | | | | "); sys.exit()
def p90(xs):
    xs = sorted(xs); return xs[min(len(xs) - 1, max(0, -(-len(xs) * 9 // 10) - 1))]
ds = [float(r[0]) * 1000 for r in rows]; vs = [float(r[1]) * 1000 for r in rows]
d = statistics.median(ds); v = statistics.median(vs)
# per request in each block; the medians of the blocks of each endpoint
blk = [b.split(":") for b in sys.argv[5:]]
c = statistics.median(int(t) * 1000 / hz / n for e, t in blk if e == "decisions")
cv = statistics.median(int(t) * 1000 / hz / n for e, t in blk if e == "validations")
# per request in the alternating rounds (a young collection counts where eden filled): shown beside, for comparison
ca = statistics.median(int(r[2]) * 1000 / hz for r in rows); cva = statistics.median(int(r[3]) * 1000 / hz for r in rows)
note = f" ({bad} not 200)" if bad else ""
print(f"{d:.0f} / {p90(ds):.0f}{note} | {v:.0f} / {p90(vs):.0f} | {c:.0f} / {cv:.0f} | {d / v:.2f} | {c / cv:.2f}"
      f" | {ca / cva:.2f}")
PY
}

{
  machine_note
  echo "seed $SEED, $NODES nodes, gang $GANG; $WARM warm-up + $ROUNDS rounds, decide and validate alternating; cap ${CAP} s per decision, budget ${BUDGET} s per shape; JVM: $JAVA_OPTS"
  echo
  if [[ -n "$HTTP" ]]; then
    bench --header-only | sed -e '1s/$/ HTTP decide median \/ p90 ms | HTTP validate median \/ p90 ms | server CPU ms decide \/ validate | HTTP decide \/ validate | CPU decide \/ validate | CPU alternating |/' \
      -e '2s/$/ ---: | ---: | ---: | ---: | ---: | ---: |/'
  else
    bench --header-only
  fi
} | tee "$F/table.md"
for s in "${SHAPES[@]}"; do
  set +e
  row="$(timeout "$SHAPE_TIMEOUT" java "${JOPTS[@]}" -cp "$CP" dev.muster.bench.FamilyBench --seed "$SEED" \
    --nodes "$NODES" --gang "$GANG" --rounds "$ROUNDS" --warm "$WARM" --cap "$CAP" --budget "$BUDGET" --no-header \
    "$s" 2>"$F/$s.log")"
  rc=$?
  set -e
  if (( rc == 124 )); then row="| $s | | | | timed out after $SHAPE_TIMEOUT s (the JVM was stopped) | | | | | | |"
  elif [[ -z "$row" ]]; then row="| $s | | | | failed (exit $rc; see $F/$s.log) | | | | | | |"; fi
  if [[ -n "$HTTP" ]]; then
    if [[ "$s" == extender ]]; then row="$row | | | | | |"; else row="$row $(http_shape "$s") |"; fi
  fi
  echo "$row" | tee -a "$F/table.md"
done
