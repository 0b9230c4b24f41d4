#!/usr/bin/env bash
# Cluster choices against the packaged jar: five different seeded 1,000-node GPU clusters and a 1,000-pod gang
# (dev.muster.bench.ChoiceClusters), the jar started with the Deployment's JVM flags (gc-compare.sh's "deployment"),
# one request in flight, rounds alternating which side goes first so the host's slow spells hit both alike.
#   limit:   a jar with -Dmuster.limits.max-body-size=1M: a 2 MiB choice, sent with Content-Length and chunked,
#            must be a 413 Status and the jar must stay up (asserted).
#   inline:  a jar without watched clusters: one /v1/cluster-choices with the five snapshots inline vs five
#            sequential /v1/decisions, each on one cluster's snapshot with the workload added and podGroups naming
#            the gang. Then a choice over the default 128 MiB limit (145 MB, five clusters and copies), Content-Length
#            and chunked: a 413 Status, no OutOfMemoryError, and the jar still answers; then the largest choice under
#            the limit (eight clusters, 130 MB) three times: 200 each (asserted).
#   watched: a jar watching the five clusters' files (muster.clusters.cN.source=file): one choice naming the five
#            vs five choices naming one each.
# Per side: wall median and p90 (curl's time_total; the five singles summed per round), the server's CPU per round
# (/proc/<pid>/stat, all its threads: JIT and GC included, 10 ms ticks) and GC pause time (its perf counters), the
# ratio of the medians and the median and p90 of the per-round ratios; all rounds, then the quiet ones (other
# processes below 0.15 of the machine on both sides; the client alone is about 0.1). The last round's answers are
# compared: the choice's decisions on each cluster must be the single request's on that cluster (asserted). Exits
# non-zero on a wrong status or a failed assertion.
#   bench/choice.sh [limit] [inline] [watched]   env: PORT (18100) WARM (15) ROUNDS (20) SEED (1) HEAP (-Xmx1536m)
#                                                     JAVA_OPTS (the Deployment's flags) JFR (a part's name: record it)
source "$(dirname "$0")/common.sh"
PORT="${PORT:-18100}"; WARM="${WARM:-15}"; ROUNDS="${ROUNDS:-20}"; SEED="${SEED:-1}"; JFR="${JFR:-}"
HEAP="${HEAP:--Xmx1536m}"   # 75 % of the Deployment's 2 GiB memory limit
# k8s/deployment.yaml's flags after the image's (run-java.sh's ParallelGC values, then the Deployment's), as gc-compare.sh
DEPLOYMENT="$(deployment_flags "$HEAP") $HEAP -XX:+ExitOnOutOfMemoryError"
JAVA_OPTS="${JAVA_OPTS:-$DEPLOYMENT}"
PARTS=("$@"); (( ${#PARTS[@]} )) || PARTS=(limit inline watched)
JAR="$ROOT/target/quarkus-app/quarkus-run.jar"
D="$REQ/choice-seed$SEED"; C="$OUT/choice"; mkdir -p "$C" "$D"
[[ -f "$JAR" ]] || (cd "$ROOT" && $MVN package -Dmaven.test.skip=true)
if [[ ! -f "$D/done" ]]; then
  java -Xmx3g -cp "$(bench_classpath)" dev.muster.bench.ChoiceClusters "$D" "$SEED" | tee "$D.log"
  touch "$D/done"
fi

SERVER=""; FAIL=0
stop_server() { if [[ -n "$SERVER" ]]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; SERVER=""; fi; }
trap stop_server EXIT
# start_server NAME extra-flags...: the jar on PORT with JAVA_OPTS, waits until ready
start_server() {
  local name="$1"; shift
  local jfr=""; [[ "$JFR" == "$name" ]] && jfr="-XX:StartFlightRecording=filename=$C/$name.jfr,settings=profile,dumponexit=true"
  # shellcheck disable=SC2086
  java $JAVA_OPTS $jfr "$@" -Dquarkus.http.port="$PORT" -Dquarkus.http.host=127.0.0.1 -jar "$JAR" >"$C/server-$name.log" 2>&1 &
  SERVER=$!
  echo "$name: java $JAVA_OPTS $jfr $*" | tee -a "$C/summary.txt"
  for _ in $(seq 1 240); do curl -sf "http://127.0.0.1:$PORT/q/health/ready" >/dev/null 2>&1 && { gc_setup; return 0; }; sleep 0.5; done
  echo "$name: the jar did not become ready (see $C/server-$name.log)" >&2; exit 1
}
ticks() { awk '{print $14 + $15}' "/proc/$SERVER/stat"; }
# GC pause time of the server (young + full collections, ns) from its perf data (what jstat reads): the counters'
# offsets in /tmp/hsperfdata_<user>/<pid> are found once per server, then read with od; 0 when there is no such file.
gc_setup() {
  PERF="/tmp/hsperfdata_$(id -un)/$SERVER"; GC_AT=""
  [[ -f "$PERF" ]] || return 0
  GC_AT="$(python3 - "$PERF" <<'PY'
import struct, sys
data = open(sys.argv[1], 'rb').read()
bo = '<' if data[4] == 1 else '>'
entry, num = struct.unpack(bo + 'ii', data[24:32])
at = {}
for _ in range(num):
    length, name_off, _v, _t, _f, _u, _var, data_off = struct.unpack(bo + 'iiibbbbi', data[entry:entry + 20])
    name = data[entry + name_off:data.index(b'\0', entry + name_off)].decode()
    if name in ('sun.gc.collector.0.time', 'sun.gc.collector.1.time'):
        at[name] = entry + data_off
    entry += length
print(at.get('sun.gc.collector.0.time', ''), at.get('sun.gc.collector.1.time', ''))
PY
)"
}
gcns() {
  local a b; read -r a b <<<"$GC_AT"
  if [[ -n "$b" ]]; then echo $(( $(od -An -t d8 -j "$a" -N 8 "$PERF") + $(od -An -t d8 -j "$b" -N 8 "$PERF") )); else echo 0; fi
}
# post PATH FILE [OUT] [curl args...]: prints "code seconds"
post() {
  local path="$1" file="$2" out="${3:-/dev/null}"; shift 3 || shift $#
  curl -s -o "$out" -w '%{http_code} %{time_total}\n' --max-time 600 -H 'Content-Type: application/json' "$@" \
    --data-binary @"$file" "http://127.0.0.1:$PORT$path" || echo "000 0"
}
expect() { # expect WHAT CODE GOT
  if [[ "$3" != "$2" ]]; then echo "FAIL: $1: $3, expected $2" | tee -a "$C/summary.txt"; FAIL=$((FAIL + 1));
  else echo "ok: $1: $3" | tee -a "$C/summary.txt"; fi
}
alive() { kill -0 "$SERVER" 2>/dev/null && curl -sf -o /dev/null "http://127.0.0.1:$PORT/q/health/ready" && echo up || echo down; }
oom() { grep -c 'OutOfMemoryError' "$C/server-$1.log" || true; }

# /proc/stat's first line: busy ticks of all cores (user nice system irq softirq steal), and all ticks.
host() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9}' /proc/stat; }
# One measured comparison. pair NAME CHOICE_FILE SINGLE_PATH SINGLE_FILE...: WARM + ROUNDS rounds, each one choice and
# the singles in sequence, the order alternating per round. Rows: round, then per side (choice, singles): wall s,
# server CPU ticks, server GC pause ms, and the share of the machine other processes used meanwhile (busy ticks of
# all cores less the server's, over all ticks: 0.5 = one of the two cores busy with something else).
pair() {
  local name="$1" choice="$2" spath="$3"; shift 3
  local singles=("$@") rows="$C/$name-rounds.txt" r code t tt c0 g0 h0 a0 side f k
  : >"$rows"
  for r in $(seq 1 $((WARM + ROUNDS))); do
    local last=""; (( r == WARM + ROUNDS )) && last=1
    local order=(choice singles); (( r % 2 )) || order=(singles choice)
    local -A row=()
    for side in "${order[@]}"; do
      read -r h0 a0 < <(host); c0=$(ticks); g0=$(gcns); t=""
      if [[ "$side" == choice ]]; then
        read -r code t < <(post /v1/cluster-choices "$choice" "${last:+$C/$name-choice.out}")
        [[ "$code" == 200 ]] || { echo "round $r $name choice: $code" >&2; FAIL=$((FAIL + 1)); }
      else
        k=0
        for f in "${singles[@]}"; do
          k=$((k + 1))
          read -r code tt < <(post "$spath" "$f" "${last:+$C/$name-single-c$k.out}")
          [[ "$code" == 200 ]] || { echo "round $r $name single $k: $code" >&2; FAIL=$((FAIL + 1)); }
          t="$t${t:+,}$tt"
        done
      fi
      local cpu=$(( $(ticks) - c0 )) gc=$(( ($(gcns) - g0) / 1000000 )) h1 a1; read -r h1 a1 < <(host)
      row[$side]="$t $cpu $gc $(awk -v b=$((h1 - h0 - cpu)) -v a=$((a1 - a0)) 'BEGIN {printf "%.3f", (a > 0 ? (b < 0 ? 0 : b) / a : 0)}')"
    done
    (( r > WARM )) && echo "$r ${row[choice]} ${row[singles]}" >>"$rows"
    (( r % 5 == 0 )) && echo "  $name round $r/$((WARM + ROUNDS)): choice ${row[choice]}, singles ${row[singles]}" >&2
  done
  python3 - "$name" "$rows" "$(getconf CLK_TCK)" "$C/$name-choice.out" "$C/$name-single-c" "${#singles[@]}" \
      "$spath" <<'PY' | tee -a "$C/summary.txt" || FAIL=$((FAIL + 1))
import json, statistics, sys
name, rows, hz, choice_out, single_out, n, spath = sys.argv[1:8]
hz, n = int(hz), int(n)
def pct(xs, p):  # nearest rank
    xs = sorted(xs); k = max(0, min(len(xs) - 1, int(round(p / 100 * len(xs) + 0.5)) - 1)); return xs[k]
R = [l.split() for l in open(rows) if l.strip()]
wc = [float(r[1]) * 1000 for r in R]; cc = [int(r[2]) * 1000 / hz for r in R]; gc_ = [int(r[3]) for r in R]
oc = [float(r[4]) for r in R]
ws = [sum(map(float, r[5].split(','))) * 1000 for r in R]; cs = [int(r[6]) * 1000 / hz for r in R]
gs = [int(r[7]) for r in R]; os_ = [float(r[8]) for r in R]
def report(idx, label):
    if not idx:
        print(f"  {label}: no rounds"); return
    a = [wc[i] for i in idx]; b = [ws[i] for i in idx]; ca = [cc[i] for i in idx]; cb = [cs[i] for i in idx]
    ga = [gc_[i] for i in idx]; gb = [gs[i] for i in idx]
    ratio = [x / y for x, y in zip(a, b)]
    print(f"  {label}: {len(idx)} rounds   wall ms median / p90   server CPU ms median / p90   GC pause ms median / p90")
    print(f"    one choice of {n}      {statistics.median(a):8.0f} / {pct(a, 90):6.0f}   {statistics.median(ca):8.0f} / {pct(ca, 90):6.0f}"
          f"   {statistics.median(ga):8.0f} / {pct(ga, 90):6.0f}")
    print(f"    {n} singles ({spath}) {statistics.median(b):8.0f} / {pct(b, 90):6.0f}   {statistics.median(cb):8.0f} / {pct(cb, 90):6.0f}"
          f"   {statistics.median(gb):8.0f} / {pct(gb, 90):6.0f}")
    print(f"    choice / singles: wall {statistics.median(a) / statistics.median(b):.2f} (medians), per round median "
          f"{statistics.median(ratio):.2f} p90 {pct(ratio, 90):.2f}; CPU {statistics.median(ca) / statistics.median(cb):.2f}")
print(f"{name}: other processes' share of the machine per round, median {statistics.median(oc + os_):.2f}, "
      f"p90 {pct(oc + os_, 90):.2f} (0.5 = a core)")
report(list(range(len(R))), "all rounds")
report([i for i in range(len(R)) if oc[i] < 0.15 and os_[i] < 0.15], "quiet rounds (others < 0.15 on both sides)")
# the choice's decisions on each cluster are the single request's there
choice = {c['cluster']: c for c in json.load(open(choice_out))['choices']}
bad = []
for k in range(1, n + 1):
    single = json.load(open(f"{single_out}{k}.out"))
    mine = single['choices'][0]['decisions'] if 'choices' in single else single['decisions']
    if choice[f"c{k}"]['decisions'] != mine:
        bad.append(f"c{k}")
ranks = ", ".join(f"{c['cluster']} {c['fit']} {c['score']}" for c in sorted(choice.values(), key=lambda c: c['rank']))
print(f"  ranking: {ranks}")
print(f"  decisions equal to the singles': {'yes' if not bad else 'NO: ' + ', '.join(bad)}")
sys.exit(1 if bad else 0)
PY
}

machine_note | tee "$C/summary.txt"
echo "seed $SEED: $(tail -1 "$D.log" 2>/dev/null); WARM=$WARM ROUNDS=$ROUNDS" | tee -a "$C/summary.txt"
for part in "${PARTS[@]}"; do
  case "$part" in
    limit)
      start_server limit -Dmuster.limits.max-body-size=1M
      read -r code _ < <(post /v1/cluster-choices "$D/choice-2m.json" "$C/limit-413.out")
      expect "2 MiB choice, 1M limit, Content-Length" 413 "$code"
      expect "its body is a Status with code 413" 413 "$(python3 -c "import json; d=json.load(open('$C/limit-413.out')); print(d['code'] if d.get('kind') == 'Status' else 'not a Status')" 2>/dev/null || echo unreadable)"
      read -r code _ < <(post /v1/cluster-choices "$D/choice-2m.json" "$C/limit-413c.out" -H 'Transfer-Encoding: chunked')
      expect "2 MiB choice, 1M limit, chunked" 413 "$code"
      read -r code _ < <(post /v1/cluster-choices "$D/choice-watched-c1.json" /dev/null)
      expect "1.4 MB choice naming a cluster not watched, 1M limit" 413 "$code"
      expect "the jar after them" up "$(alive)"
      expect "OutOfMemoryError in its log" 0 "$(oom limit)"
      stop_server
      ;;
    inline)
      start_server inline
      pair inline "$D/choice-inline.json" /v1/decisions "$D"/decision-c{1..5}.json
      read -r code _ < <(post /v1/cluster-choices "$D/choice-over-limit.json" "$C/over-413.out")
      expect "$(stat -c %s "$D/choice-over-limit.json") byte choice, default 128M limit, Content-Length" 413 "$code"
      read -r code _ < <(post /v1/cluster-choices "$D/choice-over-limit.json" "$C/over-413c.out" -H 'Transfer-Encoding: chunked')
      expect "the same chunked" 413 "$code"
      read -r code _ < <(post /v1/cluster-choices "$D/choice-inline.json")
      expect "the inline choice after them" 200 "$code"
      for _ in 1 2 3; do
        read -r code t < <(post /v1/cluster-choices "$D/choice-under-limit.json")
        expect "$(stat -c %s "$D/choice-under-limit.json") byte choice of 8 clusters, under the limit (${t}s)" 200 "$code"
      done
      expect "the jar after them" up "$(alive)"
      expect "OutOfMemoryError in its log" 0 "$(oom inline)"
      echo "inline jar: peak RSS $(awk '/VmHWM/ {printf "%.0f MiB", $2/1024}' "/proc/$SERVER/status")" | tee -a "$C/summary.txt"
      stop_server
      ;;
    watched)
      views=()
      for i in 1 2 3 4 5; do views+=("-Dmuster.clusters.c$i.source=file" "-Dmuster.clusters.c$i.file=$D/clusters/c$i.json"); done
      start_server watched "${views[@]}"
      for _ in $(seq 1 120); do # until every view has loaded (503 before)
        read -r code _ < <(post /v1/cluster-choices "$D/choice-watched.json"); [[ "$code" == 503 ]] || break; sleep 1
      done
      pair watched "$D/choice-watched.json" /v1/cluster-choices "$D"/choice-watched-c{1..5}.json
      echo "watched jar: peak RSS $(awk '/VmHWM/ {printf "%.0f MiB", $2/1024}' "/proc/$SERVER/status")" | tee -a "$C/summary.txt"
      stop_server
      ;;
    *) echo "unknown part $part (limit, inline, watched)" >&2; exit 2 ;;
  esac
done
echo "load average at the end: $(uptime | sed 's/.*load average: //'); failures: $FAIL" | tee -a "$C/summary.txt"
(( FAIL == 0 ))
