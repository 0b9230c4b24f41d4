#!/usr/bin/env bash
# The saturating mixed load (bench/load-mixed.sh's kinds and connections) against two builds at once, loaded in turn:
# both servers are up the whole time, and short slots of the mix alternate between them (the order swapped from pair
# to pair), so a slow spell of the host falls on both builds alike. A figure from one server taken minutes after
# another's moves by 10-20 % on a shared 2-core machine; the paired ratio of neighbouring slots does not.
# Prints per slot and build the valid decisions per second and the server CPU per request (all kinds, all threads),
# then each build's median and p10/p90, and the median of the per-pair ratios (this build / the other).
#
#   OTHER=/path/to/other/quarkus-app/quarkus-run.jar bench/mixed-pairs.sh
#   OTHER=target/quarkus-app/quarkus-run.jar OTHER_OPTS=-Dmuster.log.decisions=false bench/mixed-pairs.sh
#     env: JAR (this build's), OTHER (required; this build's jar again to compare a setting: OTHER_OPTS),
#          THIS_OPTS and OTHER_OPTS (JVM options of one server only), PAIRS (30), SLOT (4 s),
#          WARM_SECONDS (40 per build), JAVA_OPTS ("-Xmx1g"), VALID_CONN (8), BAD_CONN (2),
#          PORT (18082; the other build PORT+1). BAD_CONN=0: the valid request alone.
# An older build may answer a kind with another status (a request it refused differently then): that is printed
# before the run and does not stop it; the throughput compared is the valid decisions'.
source "$(dirname "$0")/common.sh"
PORT="${PORT:-18082}"; WARM_SECONDS="${WARM_SECONDS:-40}"; PAIRS="${PAIRS:-30}"; SLOT="${SLOT:-4}"
JAVA_OPTS="${JAVA_OPTS:--Xmx1g}"; VALID_CONN="${VALID_CONN:-8}"; BAD_CONN="${BAD_CONN:-2}"
JAR="${JAR:-$ROOT/target/quarkus-app/quarkus-run.jar}"; OTHER="${OTHER:?OTHER=the quarkus-run.jar of the build to compare with}"
MIX="$OUT/mixed-pairs"; mkdir -p "$MIX"
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
[[ -f "$JAR" ]] || (cd "$ROOT" && $MVN package -Dmaven.test.skip=true)
[[ -f "$REQ/small.json" ]] || "$ROOT/bench/generate.sh" small
source "$ROOT/bench/mixed-kinds.sh"
mixed_bodies

PIDS=()
# both servers told to stop before either is waited for (each takes its shutdown delay)
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done' EXIT
# shellcheck disable=SC2086
java $JAVA_OPTS ${THIS_OPTS:-} -Dquarkus.http.port="$PORT" -Dquarkus.http.host=127.0.0.1 -jar "$JAR" >"$MIX/this.log" 2>&1 &
PIDS+=($!)
# shellcheck disable=SC2086
java $JAVA_OPTS ${OTHER_OPTS:-} -Dquarkus.http.port=$((PORT + 1)) -Dquarkus.http.host=127.0.0.1 -jar "$OTHER" >"$MIX/other.log" 2>&1 &
PIDS+=($!)
NAMES=(this other)
for i in 0 1; do
  p=$((PORT + i))
  for _ in $(seq 1 240); do curl -sf "http://127.0.0.1:$p/q/health/ready" >/dev/null 2>&1 && break; sleep 0.5; done
  curl -sf "http://127.0.0.1:$p/q/health/ready" >/dev/null || { echo "${NAMES[$i]} did not start, see $MIX" >&2; exit 1; }
  for k in "${KINDS[@]}"; do
    read -r kind expect ctype _ <<<"$k"
    code=$(curl -s -o /dev/null -w '%{http_code}' -H "Content-Type: $ctype" --data-binary @"$MIX/$kind.body" \
      "http://127.0.0.1:$p/v1/decisions")
    if [[ "$code" != "$expect" ]]; then
      [[ $i == 0 ]] && { echo "this build answered $kind with $code, expected $expect" >&2; exit 1; }
      echo "note: the other build answers $kind with $code (this build: $expect)"
    fi
  done
done
machine_note
echo "this: $JAR ${THIS_OPTS:-}; other: $OTHER ${OTHER_OPTS:-}; java $JAVA_OPTS; warm-up ${WARM_SECONDS}s each, then $PAIRS pairs of ${SLOT}s slots"
HALF=$((WARM_SECONDS / 2))
for _ in 1 2; do for i in 0 1; do run_mix "$HALF" warm "http://127.0.0.1:$((PORT + i))/v1/decisions"; done; done

HZ=$(getconf CLK_TCK)
slot() { # build index -> "valid_per_s cpu_ms_per_request"
  local i="$1" c0 c1 valid all
  c0=$(awk '{print $14 + $15}' "/proc/${PIDS[$i]}/stat")
  run_mix "$SLOT" "slot$i" "http://127.0.0.1:$((PORT + i))/v1/decisions"
  c1=$(awk '{print $14 + $15}' "/proc/${PIDS[$i]}/stat")
  valid=$(awk '/^requests/ {print $2}' "$MIX/slot$i-valid.txt")
  all=$(cat "$MIX"/slot"$i"-*.txt | awk '/^requests/ {s += $2} END {print s + 0}')
  awk -v v="$valid" -v a="$all" -v c=$((c1 - c0)) -v hz="$HZ" -v s="$SLOT" \
    'BEGIN {printf "%.1f %.4f\n", v / s, (a > 0 ? c * 1000 / hz / a : 0)}'
}
for n in $(seq 1 "$PAIRS"); do
  if (( n % 2 )); then a=$(slot 0); b=$(slot 1); else b=$(slot 1); a=$(slot 0); fi
  echo "pair $n this $a other $b"
done | tee "$MIX/pairs.txt"
python3 - "$MIX/pairs.txt" <<'PY' | tee "$MIX/summary.txt"
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1]) if l.startswith('pair')]
tv = [float(r[3]) for r in rows]; tc = [float(r[4]) for r in rows]
ov = [float(r[6]) for r in rows]; oc = [float(r[7]) for r in rows]
q = lambda v, x: sorted(v)[min(len(v) - 1, int(len(v) * x))]
for name, v, c in (('this ', tv, tc), ('other', ov, oc)):
    print(f'{name}: valid/s median {st.median(v):,.0f} (p10 {q(v, .1):,.0f}, p90 {q(v, .9):,.0f}); '
          f'server CPU ms/request median {st.median(c):.3f} (p90 {q(c, .9):.3f})')
rv = [a / b for a, b in zip(tv, ov)]; rc = [a / b for a, b in zip(tc, oc)]
print(f'this / other, per pair: valid/s median {st.median(rv):.3f} (p25 {q(rv, .25):.3f}, p75 {q(rv, .75):.3f}), '
      f'ahead in {sum(r > 1 for r in rv)} of {len(rv)}; CPU/request median {st.median(rc):.3f} '
      f'(p25 {q(rc, .25):.3f}, p75 {q(rc, .75):.3f})')
PY
