#!/usr/bin/env bash
# Runs the JMH benchmarks and prints a summary with pods/s for the engine.
#   bench/jmh.sh                         # EngineBench (all shapes) + PipelineBench (large)
#   bench/jmh.sh EngineBench -p shape=tas-750x4   # any JMH arguments (regexp, -p, -f, -wi, -i ...)
# NAME=... names the result files (target/bench/NAME.json, .log, -summary.md; default jmh).
# Short runs suited to 2 shared cores: JMH_OPTS (default "-f 1 -wi 2 -i 3", 2 s iterations) comes first;
# set JMH_OPTS="" to give -f/-wi/-i yourself.
source "$(dirname "$0")/common.sh"
CP="$(bench_classpath)"
ARGS=("$@")
[[ ${#ARGS[@]} -eq 0 ]] && ARGS=("EngineBench|PipelineBench")
machine_note | tee "$OUT/jmh-machine.txt"
# shellcheck disable=SC2086
java -cp "$CP" org.openjdk.jmh.Main ${JMH_OPTS--f 1 -wi 2 -i 3} -rf json -rff "$OUT/${NAME:-jmh}.json" "${ARGS[@]}" | tee "$OUT/${NAME:-jmh}.log"
uptime | sed 's/.*load average/after: load average/' | tee -a "$OUT/jmh-machine.txt"
[[ -f "$OUT/${NAME:-jmh}.json" ]] && python3 "$ROOT/bench/jmh_summary.py" "$OUT/${NAME:-jmh}.json" | tee "$OUT/${NAME:-jmh}-summary.md"
