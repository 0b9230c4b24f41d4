#!/usr/bin/env bash
# Writes the benchmark requests (deterministic, seeded) as JSON files: bench/generate.sh [shape...]
# Shapes: large hetero gang-1000x3 gang-10x5000 tas-750x4 small (all by default), and dra (only when named).
# Output: target/bench-requests/.
source "$(dirname "$0")/common.sh"
CP="$(bench_classpath)"
mkdir -p "$REQ"
SHAPES=()
for s in "$@"; do
  if [[ "$s" == dra ]]; then java -Xmx3g -cp "$CP" dev.muster.bench.DraRequestGenerator "$REQ"; else SHAPES+=("$s"); fi
done
if (( $# == 0 || ${#SHAPES[@]} > 0 )); then java -Xmx3g -cp "$CP" dev.muster.bench.RequestGenerator "$REQ" "${SHAPES[@]}"; fi
