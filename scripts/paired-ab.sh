#!/usr/bin/env bash
# paired-ab.sh JAR_A JAR_B OP [PRESET] [ROUNDS]: one operation (rescale, mulRelin, rotate, hoisted8,
# decompose, innerProduct, add, ntt-first, ntt-second, lt) of two builds' hoist.jar in one JVM, calls alternated, single
# thread; medians, spread and the paired ratio B/A. For machines too noisy for separate processes
# (JMH errors of ±50 %): a slow drift hits both sides alike. $HOIST_JVM_OPTS adds JVM flags
# (e.g. -XX:UseAVX=2). Example: scripts/paired-ab.sh old.jar hoist-cli/target/hoist.jar rescale boot16 200
# For lt (two copies of a 1 GB transform) the copy loaded second ran up to 15 % slower on an AMD host: run it
# in both orders, or alternate processes instead (docs/benchmarks.md, thirty-first session).
set -eu
J="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin"
W="$(mktemp -d)"; trap 'rm -rf "$W"' EXIT
D="$(dirname "$0")"
"$J/javac" -nowarn -d "$W" -cp "$2" --add-modules jdk.incubator.vector "$D/PairedOp.java" 2>/dev/null
"$J/javac" -nowarn -d "$W/driver" "$D/PairedAB.java"
"$J/java" --add-modules jdk.incubator.vector -XX:+UseParallelGC -Xmn256m ${HOIST_JVM_OPTS:-} \
  -cp "$W/driver" PairedAB "$W" "$1" "$2" "$3" "${4:-boot16}" "${5:-100}" 2> >(grep -v 'WARNING: Using incubator' >&2)
