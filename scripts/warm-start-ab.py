#!/usr/bin/env python3
"""warm-start-ab.py ROUNDS 'label|jar|jvm options[|more CLI args]' ... -- CLI ARGS

Runs each configuration ROUNDS times, alternating (the order reversed every round), with the
launcher's JVM flags, and prints keygen's wait for the kernel warm-up, the first evaluation's (ewait), keygen, encode, first and
warm evaluation (ms), their ratio, wall time, peak RSS (MB) and, where the report has it (lt, demo), the bytes
a warm evaluation allocates on the calling thread (KB) per run, then medians [min-max]. A
configuration's fourth field is appended to the CLI args (e.g. `--storage compact`). The command
must print one JSON report (`--json`).
Example, side by side with an older build:
  scripts/warm-start-ab.py 5 'old|/tmp/old/hoist-cli/target/hoist.jar|' 'new|hoist-cli/target/hoist.jar|' \\
      -- lt --preset n13 --n 4096 --algo th-bsgs --threads 1 --warmup 2 --runs 5 --json
"""
import json, os, subprocess, sys, time

import abstats

JAVA = os.path.join(os.environ.get('JAVA_HOME', '/usr/lib/jvm/temurin-25-jdk-amd64'), 'bin', 'java')
# the launcher's flags as of ec11d29 (./hoist); pass its later ones (huge pages since d6306ff, the JIT flags of
# 2026-12-03) in a configuration's third field
BASE = ['--add-modules', 'jdk.incubator.vector', '-XX:+UseParallelGC', '-XX:MaxRAMPercentage=75', '-Xmn256m',
        '-XX:SurvivorRatio=4']


def main():
    rounds = int(sys.argv[1])
    sep = sys.argv.index('--')
    cfgs = [(c.split('|') + ['', ''])[:4] for c in sys.argv[2:sep]]
    args = sys.argv[sep + 1:]
    res = {c[0]: [] for c in cfgs}
    for r in range(rounds):
        for label, jar, opts, more in (cfgs if r % 2 == 0 else cfgs[::-1]):
            t = time.time()
            p = subprocess.run(['/usr/bin/time', '-f', '%M', JAVA] + BASE + opts.split() + ['-jar', jar] + args + more.split(),
                               capture_output=True, text=True)
            wall = time.time() - t
            try:
                report = json.loads(p.stdout)
                m = report['millis']
            except (ValueError, KeyError):
                print(label, 'no JSON report:', p.stdout[:300], p.stderr[-500:])
                continue
            row = dict(wait=m.get('warmupWait', 0), ewait=m.get('evaluateWait', 0), keygen=m.get('keygen', 0),
                       encode=m.get('encode', 0),
                       first=m.get('firstEvaluate', 0), warm=m.get('evaluate', 0), wall=wall * 1000,
                       rss=int(p.stderr.strip().split('\n')[-1]) // 1024)
            row['ratio'] = row['first'] / row['warm'] if row['warm'] else 0
            alloc = report.get('memoryBytes', {}).get('allocatedPerEvaluate')
            if alloc is not None:
                row['allocKB'] = alloc / 1024
            res[label].append(row)
            abstats.print_row(r, label, row, ('ratio',))
    abstats.print_medians(res, ('ratio',))


if __name__ == '__main__':
    main()
