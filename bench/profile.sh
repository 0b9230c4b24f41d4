#!/usr/bin/env bash
# Profiles the engine with JFR on a shape: bench/profile.sh [shape] [rounds] [stage]
# (defaults: large 8 decide). Runs dev.muster.bench.Probe under a JFR recording (settings=profile, ~10 ms
# sampling... 20 ms for Java by default in 'profile'), then prints hot methods over the samples inside
# DecisionEngine.decide (or the stage's method) as self, first-app-frame and inclusive shares.
source "$(dirname "$0")/common.sh"
SHAPE="${1:-large}"; ROUNDS="${2:-8}"; STAGE="${3:-decide}"
CP="$(bench_classpath)"
JFR="$OUT/profile-$SHAPE-$STAGE.jfr"
machine_note | tee "$OUT/profile-$SHAPE-$STAGE.md"
# DebugNonSafepoints: without it, JFR puts a sample of inlined code on the nearest safepoint's line, which can be
# another method's (making a plain pod's group of one showed as the PodGroup constructor's first line)
java -Xmx3g -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints \
  -XX:StartFlightRecording=filename="$JFR",settings=profile,dumponexit=true \
  -cp "$CP" dev.muster.bench.Probe "$SHAPE" "$ROUNDS" "$STAGE" | tee -a "$OUT/profile-$SHAPE-$STAGE.md"
jfr print --events jdk.ExecutionSample --stack-depth 64 "$JFR" >"$OUT/profile-$SHAPE-$STAGE.txt"
case "$STAGE" in
  decide) WITHIN=DecisionEngine.decide ;; tokenize) WITHIN=Fixture.tokenize ;; decode) WITHIN=KubeCodec.readJson ;;
  validate) WITHIN=RequestValidator.validate ;; compile) WITHIN=KubeMapper.toDecisionRequest ;;
  encode) WITHIN=Fixture.encode ;; helper) WITHIN=CompileAhead ;; compiled|warmed|fresh) WITHIN=DecisionEngine.decide ;; *) WITHIN=Probe.main ;;
esac
python3 "$ROOT/bench/jfr_top.py" "$OUT/profile-$SHAPE-$STAGE.txt" --within "$WITHIN" --top "${TOP:-25}" \
  | tee -a "$OUT/profile-$SHAPE-$STAGE.md"
