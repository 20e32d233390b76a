"""The A/B probes' text (probe_topk_rows_ab.py, probe_topk_rows_k.py) as harness JSON
files for `python -m gpuprims.plot`, one per build: OUT_PREFIX_<build>.json, each with
the build's rows as impl "gpuprims" and torch's beside them.
  python3 probe_to_json.py probe_topk.txt OUT_PREFIX "title" """
import json
import re
import sys

src, prefix, title = sys.argv[1], sys.argv[2], sys.argv[3]
pair = re.compile(r"(\S+)\s+([0-9.]+)(?: \([0-9.]+x\))?")
builds = {}
for line in open(src):
    if not re.search(r"\s(ok|MISMATCH)\s*$", line):
        continue
    label, rest = line[:40].strip(), line[40:]
    rest = rest[:rest.index("torch/")]
    times = dict((m.group(1), float(m.group(2))) for m in pair.finditer(rest))
    torch_us = times.pop("torch")
    for b, us in times.items():
        rows = builds.setdefault(b, [])
        rows.append({"impl": "gpuprims", "case": label, "dtype": "", "n": 0, "ok": True,
                     "median_s": us * 1e-6})
        rows.append({"impl": "torch", "case": label, "dtype": "", "n": 0, "ok": True,
                     "median_s": torch_us * 1e-6})
for b, rows in builds.items():
    with open("%s_%s.json" % (prefix, b), "w") as f:
        json.dump({"suite": "probe", "title": title, "rows": rows}, f, indent=1)
    print("wrote %s_%s.json (%d rows)" % (prefix, b, len(rows)))
