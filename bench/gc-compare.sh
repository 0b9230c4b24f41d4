#!/usr/bin/env bash
# Collector and young-generation settings compared on the large request's latency over HTTP, in one session.
# Starts one jar per configuration (ports PORT, PORT+1, ...), warms each up, then ROUNDS rounds; in each round every
# configuration (in an order rotated by the round) gets one POST /v1/decisions and one POST /v1/validations of the
# large request, one request in flight at a time, so host load drifts hit every configuration alike.
# Per configuration and endpoint: median, p90, p90/median; decide/validate (medians); GC count and time per request
# (jstat over the measured rounds); server CPU per request (/proc/<pid>/stat); peak RSS.
# ORDER=vd posts the validation first in each pair: where a collection falls within the requests moves with it.
# A configuration's flags may include --jar=PATH: that configuration runs that jar (two builds compared alternating).
#   bench/gc-compare.sh    env: PORT (18080) ROUNDS (30) WARM (5) SHAPE (large) ORDER (dv) CONFIGS ("name=flags;...")
source "$(dirname "$0")/common.sh"
PORT="${PORT:-18080}"; ROUNDS="${ROUNDS:-30}"; WARM="${WARM:-5}"; SHAPE="${SHAPE:-large}"; ORDER="${ORDER:-dv}"
HEAP="${HEAP:--Xmx1536m}"   # 75 % of the Deployment's 2 GiB memory limit
CONTAINER="$CONTAINER_GC"
# k8s/deployment.yaml's flags after run-java.sh's: the image's ParallelGC values, the heap committed at its maximum
# (InitialRAMPercentage = MaxRAMPercentage), a fixed 1 GiB young generation with 256 MiB survivor spaces
DEPLOYMENT="$(deployment_flags "$HEAP")"
CONFIGS="${CONFIGS:-deployment=$DEPLOYMENT $HEAP;image-default=$CONTAINER $HEAP;parallel=-XX:+UseParallelGC $HEAP;g1=-XX:+UseG1GC $HEAP;g1-new40=-XX:+UseG1GC -XX:+UnlockExperimentalVMOptions -XX:G1NewSizePercent=40 $HEAP;g1-xmn640=-XX:+UseG1GC -Xmn640m $HEAP}"
BODY="$REQ/$SHAPE.json"; JAR="$ROOT/target/quarkus-app/quarkus-run.jar"
G="$OUT/gc-compare"; mkdir -p "$G"
[[ -f "$JAR" ]] || (cd "$ROOT" && $MVN package -Dmaven.test.skip=true)
[[ -f "$BODY" ]] || "$ROOT/bench/generate.sh" "$SHAPE"

IFS=';' read -r -a CFG <<<"$CONFIGS"
NAMES=(); OPTS=(); PIDS=(); PORTS=()
for i in "${!CFG[@]}"; do NAMES+=("${CFG[$i]%%=*}"); OPTS+=("${CFG[$i]#*=}"); PORTS+=($((PORT + i))); done
stop() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done; }
trap stop EXIT
post() { curl -s -o /dev/null -w '%{http_code} %{time_total}\n' --max-time 300 -H 'Content-Type: application/json' \
  --data-binary @"$BODY" "http://127.0.0.1:$1$2"; }

machine_note | tee "$G/summary.txt"
echo "$SHAPE: $(stat -c %s "$BODY") bytes; $WARM warm-up rounds, $ROUNDS measured rounds, configurations alternating" | tee -a "$G/summary.txt"
for i in "${!NAMES[@]}"; do
  jar="$JAR"; opts=""
  for o in ${OPTS[$i]}; do if [[ "$o" == --jar=* ]]; then jar="${o#--jar=}"; else opts="$opts $o"; fi; done
  # shellcheck disable=SC2086
  java $opts -Dquarkus.http.port="${PORTS[$i]}" -Dquarkus.http.host=127.0.0.1 -jar "$jar" >"$G/server-${NAMES[$i]}.log" 2>&1 &
  PIDS+=($!)
  echo "${NAMES[$i]}: java ${OPTS[$i]}" | tee -a "$G/summary.txt"
done
for i in "${!NAMES[@]}"; do
  for _ in $(seq 1 120); do curl -sf "http://127.0.0.1:${PORTS[$i]}/q/health/ready" >/dev/null 2>&1 && break; sleep 0.5; done
  : >"$G/${NAMES[$i]}-decide.txt"; : >"$G/${NAMES[$i]}-validate.txt"
done
K=${#NAMES[@]}; FAIL=0
for r in $(seq 1 $((WARM + ROUNDS))); do
  if (( r == WARM + 1 )); then
    LOAD0="$(uptime | sed 's/.*load average: //')"
    for i in "${!NAMES[@]}"; do
      jstat -gc "${PIDS[$i]}" | tail -1 >"$G/${NAMES[$i]}-gc0.txt"; awk '{print $14 + $15}' "/proc/${PIDS[$i]}/stat" >"$G/${NAMES[$i]}-cpu0.txt"
    done
  fi
  for j in $(seq 0 $((K - 1))); do
    i=$(( (j + r) % K ))
    if [[ "$ORDER" == vd ]]; then
      read -r vc vt < <(post "${PORTS[$i]}" /v1/validations)
      read -r dc dt < <(post "${PORTS[$i]}" /v1/decisions)
    else
      read -r dc dt < <(post "${PORTS[$i]}" /v1/decisions)
      read -r vc vt < <(post "${PORTS[$i]}" /v1/validations)
    fi
    [[ "$dc" == 200 && "$vc" == 200 ]] || { FAIL=$((FAIL + 1)); echo "round $r ${NAMES[$i]}: decide $dc validate $vc" >&2; }
    if (( r > WARM )); then echo "$dt" >>"$G/${NAMES[$i]}-decide.txt"; echo "$vt" >>"$G/${NAMES[$i]}-validate.txt"; fi
  done
done
LOAD1="$(uptime | sed 's/.*load average: //')"
HZ=$(getconf CLK_TCK); HDR="$(jstat -gc "${PIDS[0]}" | head -1)"
printf '%-14s %9s %9s %8s %9s %9s %8s %8s %7s %8s %8s %9s\n' config "dec p50" "dec p90" "p90/p50" "val p50" "val p90" "p90/p50" "dec/val" "GCs/req" "GC ms/req" "CPU ms/req" "peak RSS" | tee -a "$G/summary.txt"
for i in "${!NAMES[@]}"; do
  n="${NAMES[$i]}"
  jstat -gc "${PIDS[$i]}" | tail -1 >"$G/$n-gc1.txt"
  cpu=$(( $(awk '{print $14 + $15}' "/proc/${PIDS[$i]}/stat") - $(cat "$G/$n-cpu0.txt") ))
  rss=$(awk '/VmHWM/ {printf "%.0f", $2/1024}' "/proc/${PIDS[$i]}/status")
  python3 - "$n" "$G/$n-decide.txt" "$G/$n-validate.txt" "$HDR" "$(cat "$G/$n-gc0.txt")" "$(cat "$G/$n-gc1.txt")" "$cpu" "$HZ" "$rss" <<'PY' | tee -a "$G/summary.txt"
import sys, statistics
name, df, vf, hdr, g0, g1, cpu, hz, rss = sys.argv[1:10]
def pct(xs, p):  # nearest rank
    xs = sorted(xs); k = max(0, min(len(xs) - 1, int(round(p / 100 * len(xs) + 0.5)) - 1)); return xs[k]
d = [float(x) * 1000 for x in open(df).read().split()]; v = [float(x) * 1000 for x in open(vf).read().split()]
num = lambda x: float(x) if x not in ('-', '') else 0.0
a = dict(zip(hdr.split(), map(num, g0.split()))); b = dict(zip(hdr.split(), map(num, g1.split())))
n = len(d) + len(v)
gcs = (b['YGC'] - a['YGC'] + b['FGC'] - a['FGC']) / n; gct = (b['GCT'] - a['GCT']) * 1000 / n
dm, dp, vm, vp = statistics.median(d), pct(d, 90), statistics.median(v), pct(v, 90)
print(f"{name:<14} {dm:9.0f} {dp:9.0f} {dp / dm:8.2f} {vm:9.0f} {vp:9.0f} {vp / vm:8.2f} {dm / vm:8.2f} {gcs:7.1f} {gct:9.0f} "
      f"{int(cpu) * 1000 / int(hz) / n:10.0f} {rss:>5} MiB   (full GCs {int(b['FGC'] - a['FGC'])})")
PY
done
echo "load average $LOAD0 -> $LOAD1; failed requests: $FAIL (times in ms; GC, CPU per request over both endpoints)" | tee -a "$G/summary.txt"
(( FAIL == 0 ))
