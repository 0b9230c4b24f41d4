#!/usr/bin/env bash
# Where a request's server CPU goes, by thread kind: the request and event-loop threads, the compile-ahead helper,
# parallel evaluation, the GC threads, the JIT compilers. Starts the jar with the Deployment's JVM flags (as
# family.sh), posts WARM decide/validate pairs, then per endpoint N requests one at a time, and prints the CPU per
# request of each thread kind (/proc/<pid>/task/*/stat deltas, 10 ms ticks, summed over the N requests).
# Shows, for instance, that the JIT compilers still take tens of milliseconds per decision after a few warm-up rounds.
#   bench/threads.sh BODY.json     env: N (15) WARM (40) ENDPOINTS ("/v1/decisions /v1/validations") PORT (18125)
#                                  JAR (the packaged jar) HEAP (-Xmx1536m)
# A family request: java -cp "$(source bench/common.sh; bench_classpath)" dev.muster.bench.FamilyBench
#   --write target/bench/family --write-only generated   (writes target/bench/family/generated-1.json)
source "$(dirname "$0")/common.sh"
BODY="${1:?usage: bench/threads.sh BODY.json}"
[[ -f "$BODY" ]] || { echo "no such file: $BODY (family.sh deletes its requests after each shape; write one with FamilyBench --write)" >&2; exit 2; }
N="${N:-15}"; WARM="${WARM:-40}"; ENDPOINTS="${ENDPOINTS:-/v1/decisions /v1/validations}"; PORT="${PORT:-18125}"
JAR="${JAR:-$ROOT/target/quarkus-app/quarkus-run.jar}"; HEAP="${HEAP:--Xmx1536m}"
DEPLOYMENT="$(deployment_flags "$HEAP") $HEAP"
[[ -f "$JAR" ]] || (cd "$ROOT" && $MVN package -Dmaven.test.skip=true) >&2
T="$OUT/threads"; mkdir -p "$T"
# shellcheck disable=SC2086
java $DEPLOYMENT -Dquarkus.http.port="$PORT" -Dquarkus.http.host=127.0.0.1 -jar "$JAR" >"$T/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 1 240); do curl -sf "http://127.0.0.1:$PORT/q/health/ready" >/dev/null 2>&1 && break; sleep 0.5; done
post() { curl -s -o /dev/null -w '%{http_code}\n' --max-time 300 -H 'Content-Type: application/json' \
  --data-binary @"$BODY" "http://127.0.0.1:$PORT$1"; }
# thread id, kind (its name without a trailing number), user+system ticks. The fields are counted after the name's
# closing parenthesis: a name may hold spaces ("GC Thread#0"), which would shift them.
threads() { for t in /proc/"$SERVER"/task/*; do
  echo "$(basename "$t") $(tr ' ' '_' <"$t/comm" | sed 's/[0-9]*$//') $(sed 's/^.*) //' "$t/stat" | awk '{print $12 + $13}')"
  done | sort; }
machine_note
echo "body $BODY, $WARM warm-up pairs, $N requests per endpoint"
for _ in $(seq 1 "$WARM"); do post /v1/decisions >/dev/null; post /v1/validations >/dev/null; done
HZ=$(getconf CLK_TCK)
for path in $ENDPOINTS; do
  threads >"$T/before"; bad=0
  for _ in $(seq 1 "$N"); do [[ "$(post "$path")" == 200 ]] || bad=$((bad + 1)); done
  threads >"$T/after"
  echo; echo "| $path ($bad not 200) | CPU ms per request |"; echo "| --- | ---: |"
  join "$T/before" "$T/after" | awk -v n="$N" -v hz="$HZ" '
    { d = $5 - $3; if (d > 0) { a[$2] += d; t += d } }
    END { for (k in a) printf "| %s | %.1f |\n", k, a[k] * 1000 / hz / n; printf "| total | %.1f |\n", t * 1000 / hz / n }' \
    | sort -t'|' -k3 -g -r
done
