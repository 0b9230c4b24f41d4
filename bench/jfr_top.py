#!/usr/bin/env python3
"""Aggregates `jfr print --events jdk.ExecutionSample --stack-depth 64` output.

usage: jfr_top.py <jfr-print.txt> [--within METHOD_SUBSTRING] [--without METHOD_SUBSTRING] [--top N]
Prints, over the samples whose stack contains METHOD_SUBSTRING (default DecisionEngine.decide):
  self      - top frame (where the CPU was),
  self-app  - first dev.muster frame from the top (which of our methods, including the JDK code it called),
  inclusive - every method on the stack, once per sample.
Shares are of the filtered samples.
"""
import re
import sys
from collections import Counter

args = sys.argv[1:]
path = args[0]
within = "DecisionEngine.decide"
top = 25
if "--within" in args:
    within = args[args.index("--within") + 1]
without = None
if "--without" in args:
    without = args[args.index("--without") + 1]
if "--top" in args:
    top = int(args[args.index("--top") + 1])

frame_re = re.compile(r"^\s+([\w$.<>/]+)\(.*\)\s+line:")
samples = []
cur = None
for line in open(path, errors="replace"):
    if line.startswith("jdk.ExecutionSample"):
        cur = []
    elif cur is not None and line.strip() == "]":
        samples.append(cur)
        cur = None
    elif cur is not None:
        m = frame_re.match(line)
        if m:
            cur.append(m.group(1))

def short(f):
    parts = f.split(".")
    return ".".join(parts[-2:]) if len(parts) >= 2 else f

sel = [s for s in samples if any(within in f for f in s) and not (without and any(without in f for f in s))]
n = len(sel)
print(f"samples: {len(samples)} total, {n} within {within}")
if not n:
    sys.exit(0)
self_c, app_c, incl_c = Counter(), Counter(), Counter()
for s in sel:
    self_c[short(s[0])] += 1
    app = next((f for f in s if f.startswith("dev.muster.")), s[0])
    app_c[short(app)] += 1
    for f in set(short(x) for x in s):
        incl_c[f] += 1
for title, c in (("self (top frame)", self_c), ("self-app (first dev.muster frame)", app_c),
                 ("inclusive", incl_c)):
    print(f"\n### {title}\n| share | samples | method |\n| ---: | ---: | --- |")
    for k, v in c.most_common(top):
        print(f"| {100.0 * v / n:5.1f}% | {v} | `{k}` |")
