#!/usr/bin/env bash
# Server CPU of a decision against a validation of the same body, in blocks: the jar (and, with OTHER, a second jar
# beside it, the two alternating which goes first) started with the Deployment's JVM flags, WARM decide/validate pairs
# each, then ROUNDS rounds of one block of BLOCK decisions and one of BLOCK validations per server. Each block starts on
# an empty young generation (jcmd GC.run, not counted) after one request of its own (not counted), so it pays for the
# collections its own requests cause; CPU from /proc/<pid>/stat (every thread: request, helper, GC, JIT; 10 ms ticks).
# Prints per server the CPU per request of each block, the medians and their ratio, and each round's ratio: steadier
# than family.sh's one block per endpoint (a shape's ratio there moves by about ±0.1 from run to run).
#   bench/blocks.sh BODY.json     env: JAR (the packaged jar) OTHER (a second jar) ROUNDS (6) BLOCK (8) WARM (40)
#                                 HEAP (-Xmx1536m) PORT (18150, OTHER on the next)
#                                 OTHER_FLAGS (JVM flags added to the second server's; without OTHER, the second
#                                 server runs JAR: two flag sets compared on one build)
# A family request: java -cp "$(source bench/common.sh; bench_classpath)" dev.muster.bench.FamilyBench
#   --write target/bench/family --write-only plain-pods   (writes target/bench/family/plain-pods-1.json)
source "$(dirname "$0")/common.sh"
BODY="${1:?usage: bench/blocks.sh BODY.json}"
[[ -f "$BODY" ]] || { echo "no such file: $BODY (family.sh deletes its requests after each shape; write one with FamilyBench --write)" >&2; exit 2; }
ROUNDS="${ROUNDS:-6}"; BLOCK="${BLOCK:-8}"; WARM="${WARM:-40}"; HEAP="${HEAP:--Xmx1536m}"; PORT="${PORT:-18150}"
JAR="${JAR:-$ROOT/target/quarkus-app/quarkus-run.jar}"; OTHER_FLAGS="${OTHER_FLAGS:-}"
OTHER="${OTHER:-}"; [[ -n "$OTHER_FLAGS" && -z "$OTHER" ]] && OTHER="$JAR"
DEPLOYMENT="$(deployment_flags "$HEAP") $HEAP"
[[ -f "$JAR" ]] || (cd "$ROOT" && $MVN package -Dmaven.test.skip=true) >&2
T="$OUT/blocks"; mkdir -p "$T"
PORTS=("$PORT"); JARS=("$JAR"); FLAGS=("")
[[ -n "$OTHER" ]] && { PORTS+=("$((PORT + 1))"); JARS+=("$OTHER"); FLAGS+=("$OTHER_FLAGS"); }
PIDS=()
for i in "${!PORTS[@]}"; do
  # shellcheck disable=SC2086
  java $DEPLOYMENT ${FLAGS[$i]} -Dquarkus.http.port="${PORTS[$i]}" -Dquarkus.http.host=127.0.0.1 -jar "${JARS[$i]}" \
    >"$T/server-${PORTS[$i]}.log" 2>&1 &
  PIDS+=("$!")
done
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true' EXIT
for p in "${PORTS[@]}"; do
  for _ in $(seq 1 240); do curl -sf "http://127.0.0.1:$p/q/health/ready" >/dev/null 2>&1 && break; sleep 0.5; done
done
post() { curl -s -o /dev/null -w '%{http_code}\n' --max-time 300 -H 'Content-Type: application/json' \
  --data-binary @"$BODY" "http://127.0.0.1:$1$2"; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
machine_note
echo "body $BODY; ${#PORTS[@]} server(s): ${JARS[*]}${OTHER_FLAGS:+ (the second with $OTHER_FLAGS)}; $WARM warm-up pairs, $ROUNDS rounds of $BLOCK-request blocks"
for _ in $(seq 1 "$WARM"); do
  for p in "${PORTS[@]}"; do post "$p" /v1/decisions >/dev/null; post "$p" /v1/validations >/dev/null; done
done
HZ=$(getconf CLK_TCK); ROWS="$T/rows.txt"; : >"$ROWS"; bad=0
for r in $(seq 1 "$ROUNDS"); do
  order=("${!PORTS[@]}"); (( r % 2 == 0 && ${#PORTS[@]} == 2 )) && order=(1 0)
  for i in "${order[@]}"; do
    for path in /v1/decisions /v1/validations; do
      post "${PORTS[$i]}" "$path" >/dev/null
      jcmd "${PIDS[$i]}" GC.run >/dev/null 2>&1 || true
      c0=$(ticks "${PIDS[$i]}")
      for _ in $(seq 1 "$BLOCK"); do [[ "$(post "${PORTS[$i]}" "$path")" == 200 ]] || bad=$((bad + 1)); done
      c1=$(ticks "${PIDS[$i]}")
      echo "$i $path $(( (c1 - c0) * 1000 / HZ / BLOCK ))" >>"$ROWS"
    done
  done
done
(( bad == 0 )) || echo "$bad requests were not answered 200" >&2
LABELS=("${JARS[0]}"); [[ -n "$OTHER" ]] && LABELS+=("${JARS[1]}${OTHER_FLAGS:+ $OTHER_FLAGS}")
python3 - "$ROWS" "${LABELS[@]}" <<'PY'
import sys, statistics
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
for i, jar in enumerate(sys.argv[2:]):
    d = [int(r[2]) for r in rows if r[0] == str(i) and r[1] == "/v1/decisions"]
    v = [int(r[2]) for r in rows if r[0] == str(i) and r[1] == "/v1/validations"]
    if not d or not v:
        continue
    per = sorted(a / b for a, b in zip(d, v))
    print(f"{jar}: decision CPU ms per request, median {statistics.median(d):.0f} ({sorted(d)}); validation "
          f"{statistics.median(v):.0f} ({sorted(v)}); ratio of medians {statistics.median(d) / statistics.median(v):.2f};"
          f" per round {[round(x, 2) for x in per]}")
PY
