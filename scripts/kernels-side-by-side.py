# Summary of scripts/kernels-side-by-side.sh: medians [min–max] per metric and version, new/old ratio.
import json, glob, re, statistics as st, collections, sys
import os; D=os.environ.get('SBS','kernels-side-by-side')
def load(f):
    try:
        lines=[l for l in open(f) if l.strip().startswith('{')]
        return json.loads(lines[-1]) if lines else None
    except Exception as e: return None
def rss(f):
    try:
        m=re.search(r'Maximum resident set size \(kbytes\): (\d+)', open(f).read()); return int(m.group(1))/1e6 if m else None
    except: return None
vals=collections.defaultdict(lambda: collections.defaultdict(list))
for f in sorted(glob.glob(D+'/*.json')):
    name, who, i = re.match(r'.*/(\w+)-(old|new)-(\d+)\.json', f).groups()
    d=load(f)
    if d is None: continue
    r=rss(f[:-5]+'.err')
    if r: vals[name+'.peakRssGB'][who].append(r)
    if name=='ops':
        o=d['ops']
        for k in ['rotate','mulRelin','rescale','rotateHoisted8','decompose','modDown','innerProduct']:
            vals['ops.'+k+'.ms'][who].append(o[k]['micros']/1000)
        vals['ops.hoisted8/8rotate'][who].append(o['rotateHoisted8']['micros']/(8*o['rotate']['micros']))
        if 'rotateHoisted8Each' in o:  # handed out one at a time, as the plain rotations are (no promotions)
            vals['ops.hoisted8Each/8rotate'][who].append(o['rotateHoisted8Each']['micros']/(8*o['rotate']['micros']))
    else:
        m=d['millis']
        vals[name+'.evaluate.ms'][who].append(m['evaluate'])
        vals[name+'.first/warm'][who].append(m['firstEvaluate']/m['evaluate'])
        if 'encode' in m: vals[name+'.encode.ms'][who].append(m['encode'])
        k=d.get('rotationKeys'); 
        if k is not None: vals[name+'.keys'][who].append(k)
def fmt(x):
    if not x: return '—'
    md=st.median(x)
    p = (lambda v: '%.0f'%v) if md>=100 else (lambda v: '%.2f'%v if md < 10 else '%.1f'%v)
    return '%s [%s–%s] n=%d'%(p(md),p(min(x)),p(max(x)),len(x))
print('| metric | %s | new | new/old |' % os.environ.get('OLD_LABEL', 'old')); print('|---|---|---|---|')
for k in sorted(vals):
    o,n=vals[k]['old'],vals[k]['new']
    ratio = '%.2f'%(st.median(n)/st.median(o)) if o and n else ''
    print('| %s | %s | %s | %s |'%(k,fmt(o),fmt(n),ratio))
