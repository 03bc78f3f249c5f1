#!/usr/bin/env bash
# issue22-table.sh OLD_JAR NEW_JAR [ROUNDS] [OUT]: the workloads of issue 22's table on both jars,
# alternately (the order swapped every round), single thread, the launcher's JVM flags plus
# $HOIST_JVM_OPTS (e.g. -XX:UseAVX=2), and $NEW_JVM_OPTS for the new jar only (flags its launcher
# adds); JSON reports and /usr/bin/time -v into OUT, then a table of
# medians [min–max] (scripts/kernels-side-by-side.py). Build the old jar in a worktree.
set -u
OLD="$1"; NEW="$2"; ROUNDS="${3:-5}"; OUT="${4:-issue22-table}"; mkdir -p "$OUT"
J="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java"
FLAGS=(--add-modules jdk.incubator.vector -XX:+UseParallelGC -XX:MaxRAMPercentage=75 -Xmn256m ${HOIST_JVM_OPTS:-})
LATTIGO13=(--logN 13 --logQ 33,30x5 --logP 35 --n 4096)
BOOT16=(--logN 16 --logQ 60,40x9,39x3,60x8,56x4 --logP 61x5)
run() { # who name args...
  local who=$1 name=$2; shift 2
  local jar="$NEW" extra="${NEW_JVM_OPTS:-}"; [ "$who" = old ] && jar="$OLD" && extra=""
  /usr/bin/time -v "$J" "${FLAGS[@]}" $extra -jar "$jar" "$@" > "$OUT/$name-$who-$i.json" 2> "$OUT/$name-$who-$i.err"
}
for i in $(seq 1 "$ROUNDS"); do
  order="old new"; [ $((i % 2)) = 0 ] && order="new old"
  for who in $order; do
    run "$who" ops ops --preset boot16 --threads 1 --runs 5 --warmup 2 --json
    run "$who" lt13th lt "${LATTIGO13[@]}" --algo th-bsgs --split 16,16,16 --threads 1 --warmup 2 --runs 5 --json
    run "$who" lt13dh lt "${LATTIGO13[@]}" --algo dh-bsgs --split 64,64 --threads 1 --warmup 2 --runs 5 --json
    run "$who" n13th lt --preset n13 --n 4096 --algo th-bsgs --threads 1 --warmup 2 --runs 5 --json
    run "$who" lt16th lt "${BOOT16[@]}" --n 256 --algo th-bsgs --split 4,8,8 --threads 1 --warmup 1 --runs 3 --json
    run "$who" ctos ctos --preset boot16 --depth 4 --algo th-bsgs --objective fewest-keys --threads 1 --runs 3 --json
    run "$who" ctoslat ctos --preset boot16 --depth 4 --objective lattigo --threads 1 --runs 3 --json
  done
done
SBS="$OUT" OLD_LABEL="${OLD_LABEL:-old}" python3 "$(dirname "$0")/kernels-side-by-side.py"
