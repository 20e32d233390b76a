# A/B table of s7-b: "new" = gpuprims (window fold + untested tiles), "fold" = gpuprims_xsfold (window fold only),
# "old" = gpuprims_xsold (neither); medians of the faster of two rounds; run here: python3 ab.py
import json,sys
def load(f):
    d=json.load(open(f)); out={}
    for r in d['rows']:
        out[(r['impl'],r['dtype'],r['n'])]=r['median_s']
    return out
runs={v:[load(f'sum{v}_r{r}.json') for r in (1,2)] for v in ('','_xsfold','_xsold')}
print(f"{'dtype':5} {'n':>6} | {'new':>8} {'fold':>8} {'old':>8} {'cub':>8} | new/cub  fold/cub old/cub (CUB/ours; each round's own CUB, min..max)")
for dt in ('f32','f64'):
    for e in range(10,31,2):
        n=2**e
        row=[]
        rat=[]
        for v in ('','_xsfold','_xsold'):
            ts=[R[('gpuprims',dt,n)] for R in runs[v]]
            cs=[R[('cub',dt,n)] for R in runs[v]]
            row.append(min(ts)); rat.append((min(c/t for c,t in zip(cs,ts)), max(c/t for c,t in zip(cs,ts))))
        cub=min(R[('cub',dt,n)] for v in runs for R in runs[v])
        print(f"{dt:5} 2^{e:<4} | {row[0]*1e6:8.2f} {row[1]*1e6:8.2f} {row[2]*1e6:8.2f} {cub*1e6:8.2f} | " + "  ".join(f"{a:.3f}-{b:.3f}" for a,b in rat))
