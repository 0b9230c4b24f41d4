#!/usr/bin/env python3
"""Summary for bench/alloc.sh: bytes allocated per request from jdk.ThreadAllocationStatistics (two values per thread:
start and end of the recording), GC count and time from two jstat -gc lines, top allocation sites (first dev.muster
frame) and classes from jdk.ObjectAllocationSample weights."""
import json
import re
import statistics
import sys
from collections import defaultdict

ep, n, tas_file, oas_file, header, g0, g1, times_file = sys.argv[1:9]
n = int(n)

# jdk.ThreadAllocationStatistics (jfr print --json: exact bytes): one value per thread at the start and one at the end
per_thread = defaultdict(list)
for e in json.load(open(tas_file))["recording"]["events"]:
    v = e["values"]
    per_thread[(v["thread"] or {}).get("javaThreadId")].append(int(v["allocated"]))
total = sum(max(v) - min(v) for v in per_thread.values() if len(v) >= 2)

cols = header.split()
a = dict(zip(cols, g0.split()))
b = dict(zip(cols, g1.split()))
def d(k, f=float):
    return f(b[k]) - f(a[k]) if k in a and k in b else float("nan")
times = [float(x) * 1000 for x in open(times_file).read().split()]

# jdk.ObjectAllocationSample: weight = N unit, objectClass = X, stackTrace = [ frames ]
sites, classes, wsum, sampled = defaultdict(float), defaultdict(float), 0.0, set()
for block in open(oas_file).read().split("jdk.ObjectAllocationSample")[1:]:
    w = re.search(r"weight = ([\d.,]+) (bytes|kB|MB|GB)", block)
    if not w:
        continue
    weight = float(w.group(1).replace(",", "")) * {"bytes": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9}[w.group(2)]
    t = re.search(r'eventThread = "([^"]*)"', block)
    if (t.group(1) if t else "?") not in sampled:  # a thread's first sample weighs what it allocated before the window
        sampled.add(t.group(1) if t else "?")
        continue
    wsum += weight
    c = re.search(r"objectClass = (\S+)", block)
    classes[c.group(1) if c else "?"] += weight
    frame = next((f.strip() for f in re.findall(r"^\s+(dev\.muster\.[^\n]*?)\s+line:", block, re.M)), None)
    if frame is None:
        frames = re.findall(r"^\s+([a-z][\w.$]*\.[\w$<>]+\([^)]*\))\s+line:", block, re.M)
        frame = "(no dev.muster frame) " + (frames[0] if frames else "?")
    sites[re.sub(r"\s+line:.*", "", frame)] += weight

print(f"/v1/{ep}: {n} requests, median {statistics.median(times):.0f} ms; allocated {total / n / 1e6:.0f} MB per request "
      f"(ThreadAllocationStatistics, {len(per_thread)} threads; the allocation samples' weights estimate {wsum / n / 1e6:.0f} MB); "
      f"young GCs {d('YGC', int)} ({d('YGCT'):.3f} s), full GCs {d('FGC', int)} ({d('FGCT'):.3f} s), "
      f"GC time {d('GCT') * 1000 / n:.0f} ms per request")
print("  allocation sites by sample weight (first dev.muster frame; indicative: a large array's bytes can land on a later sample of its thread):")
for s, w in sorted(sites.items(), key=lambda kv: -kv[1])[:8]:
    print(f"    {100 * w / wsum:5.1f}%  {s}")
print("  top classes:", ", ".join(f"{c} {100 * w / wsum:.0f}%" for c, w in sorted(classes.items(), key=lambda kv: -kv[1])[:6]))
