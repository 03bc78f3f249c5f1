"""Medians and [min, max] of the side-by-side reports: side-by-side.py DIR."""
import glob
import json
import statistics as st
import sys

d = sys.argv[1] if len(sys.argv) > 1 else "side-by-side"


def load(kind, who):
    out = []
    for f in sorted(glob.glob(f"{d}/{kind}-{who}-*.json")):
        try:
            out.append(json.load(open(f)))
        except ValueError:
            pass
    return out


for who in ["old", "new"]:
    demo, ops, lt = load("demo", who), load("ops", who), load("lt", who)
    rows = [
        ("lt n13 warm evaluate ms (1 thread)", [r for x in lt for r in x["millis"]["evaluateRuns"]]),
        ("demo warm evaluate ms", [x["millis"]["evaluate"] for x in demo]),
        ("demo first evaluate ms", [x["millis"]["firstEvaluate"] for x in demo]),
        ("demo encode ms", [x["millis"]["encode"] for x in demo]),
        ("demo allocated per warm evaluate MB", [x["memoryBytes"]["allocatedPerEvaluate"] / 1e6 for x in demo]),
        ("demo worst-slot bits", [x["precision"]["minBits"] for x in demo]),
        ("ops n14 rotate ms", [x["ops"]["rotate"]["micros"] / 1e3 for x in ops]),
        ("ops n14 mulRelin ms", [x["ops"]["mulRelin"]["micros"] / 1e3 for x in ops]),
        ("ops n14 rescale ms", [x["ops"]["rescale"]["micros"] / 1e3 for x in ops]),
    ]
    print(who)
    for name, xs in rows:
        if xs:
            print(f"  {name:38s} median {st.median(xs):9.2f}  [{min(xs):.2f}, {max(xs):.2f}]  n={len(xs)}")
    print("  counts match:", all(x["countsMatch"] for x in demo + lt))
