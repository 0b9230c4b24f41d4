#!/usr/bin/env python3
"""Markdown table of a JMH JSON result (-rf json): score ± error (ms/op), and pods/s for EngineBench."""
import json
import sys

PENDING = {"large": 1000, "hetero": 1000, "gang-1000x3": 3000, "gang-10x5000": 50000, "tas-750x4": 3000, "small": 8}

rows = json.load(open(sys.argv[1]))
print("| benchmark | shape | ms/op (avg ± 99.9% err) | raw iterations (ms) | pods/s |")
print("| --- | --- | --- | --- | --- |")
for r in rows:
    name = r["benchmark"].rsplit(".", 2)
    bench = name[-2] + "." + name[-1]
    shape = r.get("params", {}).get("shape", "")
    m = r["primaryMetric"]
    raw = [x for fork in m.get("rawData", []) for x in fork]
    err = m.get("scoreError")
    err = "n/a" if err is None or err != err else f"{err:,.1f}"
    pods = ""
    if bench.endswith(".decide"):
        pods = f"{PENDING.get(shape, 0) / (m['score'] / 1000):,.0f}" if m["score"] > 0 else ""
    print(f"| {bench} | {shape} | {m['score']:,.1f} ± {err} | {', '.join(f'{x:,.1f}' for x in raw)} | {pods} |")
