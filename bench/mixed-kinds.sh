# The saturating mix of bench/load-mixed.sh and bench/mixed-pairs.sh (sourced, after common.sh): the request kinds,
# their bodies derived from small.json, and one run of the mix against a URL.
#   needs: MIX (a directory), REQ/small.json, VALID_CONN, BAD_CONN

# kind expected-status content-type connections
KINDS=("valid 200 application/json $VALID_CONN" "neg-mincount 422 application/json $BAD_CONN"
       "no-node-name 422 application/json $BAD_CONN" "truncated 400 application/json $BAD_CONN"
       "json-null 400 application/json $BAD_CONN" "wrong-type 415 text/plain $BAD_CONN")

mixed_bodies() { # writes $MIX/<kind>.body
  python3 - "$REQ/small.json" "$MIX" <<'PY'
import json, sys, copy
src, out = sys.argv[1], sys.argv[2]
raw = open(src, 'rb').read()
doc = json.loads(raw)
neg = copy.deepcopy(doc); neg['snapshot']['podGroups'][0]['spec']['schedulingPolicy']['gang']['minCount'] = -1
nameless = copy.deepcopy(doc); del nameless['snapshot']['nodes'][0]['metadata']['name']
files = {'valid': raw, 'neg-mincount': json.dumps(neg).encode(), 'no-node-name': json.dumps(nameless).encode(),
         'truncated': raw[: len(raw) // 2], 'json-null': b'null', 'wrong-type': raw}
for k, v in files.items():
    open(f'{out}/{k}.body', 'wb').write(v)
PY
}

run_mix() { # seconds label url -> one wrk per kind, in parallel; results in $MIX/<label>-<kind>.txt
  local secs="$1" label="$2" url="$3" pids=()
  for k in "${KINDS[@]}"; do
    read -r kind expect ctype conn <<<"$k"
    (( conn > 0 )) || continue   # BAD_CONN=0: the valid request alone
    KIND="$kind" EXPECT="$expect" CTYPE="$ctype" BODY="$MIX/$kind.body" \
      wrk -t1 -c"$conn" -d"${secs}s" --timeout 10s --latency -s "$ROOT/bench/mixed.lua" "$url" \
      >"$MIX/$label-$kind.txt" 2>&1 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p" || true; done
}
