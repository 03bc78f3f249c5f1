#!/usr/bin/env bash
# side-by-side.sh OLD_LAUNCHER NEW_LAUNCHER [ROUNDS]: the two versions alternately — demo and ops n14
# (default threads), then lt n13 16·16·16 on one thread with 2 warm-up and 7 timed runs per process —
# JSON reports into ./side-by-side/, then a summary of medians and [min, max] (scripts/side-by-side.py).
set -u
OLD="$1"; NEW="$2"; ROUNDS="${3:-6}"; OUT=side-by-side; mkdir -p "$OUT"
for i in $(seq 1 "$ROUNDS"); do
  for who in old new; do
    H="$NEW"; [ "$who" = old ] && H="$OLD"
    "$H" demo --json 2>/dev/null | tail -1 > "$OUT/demo-$who-$i.json"
    "$H" ops --preset n14 --json 2>/dev/null | tail -1 > "$OUT/ops-$who-$i.json"
    "$H" lt --preset n13 --split 16,16,16 --warmup 2 --runs 7 --threads 1 --json 2>/dev/null | tail -1 > "$OUT/lt-$who-$i.json"
  done
done
python3 "$(dirname "$0")/side-by-side.py" "$OUT"
