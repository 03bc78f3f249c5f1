#!/usr/bin/env bash
# bit-identity.sh OLD_JAR NEW_JAR: the same deterministic program (scripts/BitId.java: fixed seeds, n13,
# one thread) against two builds' hoist.jar — output digests, traffic and counts of every algorithm,
# storage and schedule, then the demo's configuration, then the small cases on primes below 2^31, then
# bootstrapping at n12 twice and EvalMod with an arcsine — and a diff of the two outputs.
set -eu
J="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin"
W="$(mktemp -d)"; trap 'rm -rf "$W"' EXIT
for v in old new; do
  jar="$1"; [ "$v" = new ] && jar="$2"
  mkdir -p "$W/$v"; cp "$(dirname "$0")/BitId.java" "$W/$v/"
  # builds before the lt rooms (2026-12-01) have Plan, Storage, Schedule in io.hoist.lt
  unzip -l "$jar" | grep -q 'io/hoist/lt/plan/Plan.class' \
    || sed -i '/^import io.hoist.lt.plan.\*;/d; /^import io.hoist.lt.schedule.\*;/d' "$W/$v/BitId.java"
  "$J/javac" -nowarn -d "$W/$v" -cp "$jar" --add-modules jdk.incubator.vector "$W/$v/BitId.java" 2>/dev/null
  for arg in "" demo words boot; do
    "$J/java" -Xmx6g -Dhoist.insecure.testSeeds=true --add-modules jdk.incubator.vector -cp "$jar:$W/$v" BitId $arg 2>/dev/null >> "$W/$v.txt"
  done
done
cat "$W/new.txt"
diff "$W/old.txt" "$W/new.txt" && echo "bit-identical: $(wc -l < "$W/new.txt") cases"
