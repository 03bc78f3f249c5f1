#!/usr/bin/env python3
"""bootstrap-ab.py ROUNDS 'label|jar|jvm options[|more CLI args]' ... -- CLI ARGS

Bootstrap reports of several builds side by side: each configuration runs ROUNDS times as a separate process,
alternating (the order reversed every round), with the launcher's flags for `bootstrap` as of the forty-second
session (`./hoist`: ParallelGC, a 512 MB young generation, the CompileThresholdScaling lines); a configuration's third
field adds JVM options (e.g. -XX:UseAVX=2), a fourth CLI arguments (e.g. --key-storage seeded). Prints per run and
then as medians [min-max]: keygen's wait for the kernel warm-up, keygen, encoding, a bootstrap, its first run,
ModRaise, EvalMod, CoeffsToSlots, SlotsToCoeffs (ms), the whole process (wall), the young collections and their pauses
over the whole process (from -Xlog:gc), peak RSS (GB, /usr/bin/time), the worst slot (bits) and, where the report has
it, what a warm bootstrap allocates (MB). The command must print one JSON report (`--json`). Example:
  scripts/bootstrap-ab.py 3 'old|/tmp/old.jar|' 'new|hoist-cli/target/hoist.jar|' \\
      -- bootstrap --preset boot16 --runs 3 --json
"""
import json, os, re, subprocess, sys, tempfile, time

import abstats

JAVA = os.path.join(os.environ.get('JAVA_HOME', '/usr/lib/jvm/temurin-25-jdk-amd64'), 'bin', 'java')
FLAGS = ['--add-modules', 'jdk.incubator.vector', '-XX:+UseParallelGC', '-XX:MaxRAMPercentage=75', '-Xmn512m',
         '-XX:SurvivorRatio=4', '-XX:CompileCommand=quiet']
FLAGS += [f'-XX:CompileCommand=CompileThresholdScaling,{c}::*,0.1' for c in
          ('io.hoist.ring.Vector*', 'io.hoist.ring.Fma*', 'io.hoist.ring.Fused*', 'io.hoist.ring.MulModKernels',
           'io.hoist.ring.ConstantTimeNttVector', 'io.hoist.ckks.SpecialFft')]
if 2 <= (os.cpu_count() or 4) <= 3:
    FLAGS.append('-XX:CICompilerCount=3')

rounds = int(sys.argv[1])
sep = sys.argv.index('--')
cfgs = [(c.split('|') + ['', ''])[:4] for c in sys.argv[2:sep]]
args = sys.argv[sep + 1:]
res = {c[0]: [] for c in cfgs}
work = tempfile.mkdtemp()
for r in range(rounds):
    for label, jar, opts, more in (cfgs if r % 2 == 0 else cfgs[::-1]):
        gc = os.path.join(work, f'gc-{label}-{r}.log')
        t = time.time()
        p = subprocess.run(['/usr/bin/time', '-f', '%M', JAVA] + FLAGS + opts.split() + [f'-Xlog:gc:file={gc}', '-jar', jar]
                           + args + more.split(), capture_output=True, text=True)
        try:
            d = json.loads(p.stdout)
        except ValueError:
            print(label, 'no JSON:', p.stdout[:300], p.stderr[-800:])
            continue
        m = d['millis']
        pauses = [float(x) for x in re.findall(r'Pause.* ([0-9.]+)ms', open(gc).read())]
        row = dict(wait=m.get('warmupWait', 0), keygen=m.get('keygen', 0), encode=m.get('encode', 0),
                   total=m['total'], first=m.get('first', 0), modRaise=m.get('modRaise', 0), evalMod=m['evalMod'],
                   ctos=m['ctos'], stoc=m['stoc'],
                   wall=(time.time() - t) * 1000, gcN=len(pauses), gcMs=sum(pauses),
                   rss=int(p.stderr.strip().split('\n')[-1]) / 1024 / 1024, minBits=d['precision']['minBits'],
                   allocMB=d['memoryBytes'].get('allocatedWarm', -1) / 1e6)
        res[label].append(row)
        abstats.print_row(r, label, row, ('rss', 'minBits'))
abstats.print_medians(res, ('rss', 'minBits'))
