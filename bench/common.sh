# Sourced by the bench scripts: paths, and the bench classpath (built on first use).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${BENCH_OUT:-$ROOT/target/bench}"          # results and logs; never committed (target/)
REQ="${BENCH_REQUESTS:-$ROOT/target/bench-requests}"  # generated request files (~90 MB for large)
MVN="${MVN:-mvn -B -q}"
mkdir -p "$OUT"

# Compiles main + test + src/bench/java (profile bench) and writes the test classpath once.
bench_classpath() {
  if [[ ! -f "$ROOT/target/test-classes/META-INF/BenchmarkList" || -n "${BENCH_REBUILD:-}" ]]; then
    (cd "$ROOT" && $MVN -Pbench test-compile) >&2
  fi
  if [[ ! -f "$ROOT/target/bench.cp" || "$ROOT/pom.xml" -nt "$ROOT/target/bench.cp" ]]; then
    (cd "$ROOT" && $MVN -Pbench dependency:build-classpath -Dmdep.includeScope=test \
        -Dmdep.outputFile=target/bench.cp) >&2
  fi
  echo "$ROOT/target/test-classes:$ROOT/target/classes:$(cat "$ROOT/target/bench.cp")"
}

median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) {print "nan"} else if (NR%2) {print a[(NR+1)/2]} else {print (a[NR/2]+a[NR/2+1])/2}}'; }

# The JVM flags the service runs with. CONTAINER_GC: run-java.sh's ParallelGC choice and heap-shrinking options in the
# image (docker/Dockerfile.jvm). deployment_flags HEAP (-Xmx...): k8s/deployment.yaml's flags after those: the heap
# committed at its maximum and touched at start, a fixed 1 GiB young generation with 256 MiB survivor spaces, adaptive
# sizing off (the -Xmx itself is left to the caller).
CONTAINER_GC="-XX:+UseParallelGC -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=20 -XX:GCTimeRatio=4 -XX:AdaptiveSizePolicyWeight=90"
deployment_flags() {
  echo "$CONTAINER_GC -XX:MinHeapFreeRatio=0 -XX:MaxHeapFreeRatio=100 -XX:GCTimeRatio=99 -XX:AdaptiveSizePolicyWeight=10 -Xms${1#-Xmx} -XX:+AlwaysPreTouch -Xmn1g -XX:SurvivorRatio=2 -XX:-UseAdaptiveSizePolicy"
}

machine_note() {
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)  cores: $(nproc)  $(uptime | sed 's/.*load average/load average/')"
  echo "java: $(java -version 2>&1 | head -1)"
}
