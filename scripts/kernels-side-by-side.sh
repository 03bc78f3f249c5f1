#!/usr/bin/env bash
# kernels-side-by-side.sh OLD_JAR NEW_JAR [ROUNDS] [OUT]: issue 22's workloads on both jars, alternately
# (order swapped every round), single thread, the launcher's JVM flags; JSON reports and
# /usr/bin/time -v into OUT (default ./kernels-side-by-side), then a table of medians [min–max].
# Build the old jar in a worktree with `mvn -q -o package -DskipTests` (never install from there).
set -u
OLD="$1"; NEW="$2"; ROUNDS="${3:-5}"; OUT="${4:-kernels-side-by-side}"; mkdir -p "$OUT"
J="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java"
FLAGS=(--add-modules jdk.incubator.vector -XX:+UseParallelGC -XX:MaxRAMPercentage=75 -Xmn256m ${HOIST_JVM_OPTS:-})
run() { # who name args...
  local who=$1 name=$2; shift 2
  local jar="$NEW"; [ "$who" = old ] && jar="$OLD"
  /usr/bin/time -v "$J" "${FLAGS[@]}" -jar "$jar" "$@" > "$OUT/$name-$who-$i.json" 2> "$OUT/$name-$who-$i.err"
}
for i in $(seq 1 "$ROUNDS"); do
  order="old new"; [ $((i % 2)) = 0 ] && order="new old"
  for who in $order; do
    run "$who" ops ops --preset n16 --threads 1 --runs 3 --json
    run "$who" lt13th lt --preset n13 --n 4096 --algo th-bsgs --threads 1 --warmup 2 --runs 5 --json
    run "$who" lt13dh lt --preset n13 --n 4096 --algo dh-bsgs --threads 1 --warmup 2 --runs 5 --json
    run "$who" ctos ctos --preset boot16 --depth 4 --algo th-bsgs --objective fewest-keys --threads 1 --runs 3 --json
  done
done
SBS="$OUT" python3 "$(dirname "$0")/kernels-side-by-side.py"
