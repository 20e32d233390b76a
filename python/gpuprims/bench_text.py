"""python -m gpuprims.bench_text RUN.txt -o RUN.json: the text a `gpuprims bench` run
printed (its table, as kept in docs/perf/runs/ by runs that did not ask for --json)
turned into the JSON that --json writes, so that `python -m gpuprims.plot` can draw it.

Only what the text holds comes over: per row impl, case, dtype, n, bytes, samples, the
median time, noise, throughputs, the ratio and its peer, the note ("(time cap)" sets
time_capped); the header's device, date and method line. Rows that failed are kept with
ok = false. The chapter's Tables 6.18 and 6.19 (`bench sort --seed-tables`) become rows
of impl "this machine" and "seed (the chapter)", case "Table 6.1x <what>", times only;
`bench dist`'s table rows of impl "<call>, <p> GPUs" (ratio: its speed-up over one GPU).
`python -m gpuprims.plot` also reads such text files directly.
"""
from __future__ import annotations

import argparse
import json
import re
import sys

_UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
_BYTES = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40}
_SI = {"": 1.0, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
_ROW = re.compile(
    r"^(?P<impl>\S+)\s+(?P<case>.+?)\s+(?P<dtype>[a-z]+\d+)\s+(?P<n>2\^\d+|\d+)\s+"
    r"(?P<bytes>[\d.]+) (?P<bunit>B|KiB|MiB|GiB|TiB)\s+"
    r"(?:(?P<samples>\d+)\s+(?P<time>[\d.]+) (?P<tunit>ns|us|ms|s)\s+(?P<noise>[\d.]+)%\s+"
    r"(?P<eps>[\d.]+)(?P<eunit>[kMGT]?)\s+(?P<gbs>[\d.]+)\s+(?P<pct>[\d.]+)%\s+"
    r"(?:-|(?P<ratio>[\d.]+)x (?P<peer>\S+))\s*(?P<note>.*)"
    r"|(?P<failed>FAILED.*))$")
_HEAD = re.compile(r"^# gpuprims (?P<ver>.+?) -- bench (?P<suite>\S+) -- (?P<date>\S+)")
_DEV = re.compile(r"^# device: (?P<name>.+?), (?P<sms>\d+) SMs, compute capability "
                  r"(?P<cc>[\d.]+), SM clock (?P<clk>\d+) MHz")
_SEED_TABLE = re.compile(r"^(?P<table>Table 6\.\d+): .*\(n = (?P<n>[\d^]+)")
_SEED_ROW = re.compile(r"^\s+(?P<name>CPU qsort|CPU serial bitonic \(Program 6\.17\)|"
                       r"GPU bitonic \(Program 6\.19\))\s+(?P<ours>[\d.]+) ms\s+(?P<seed>[\d.]+)$")
# `gpuprims bench dist`: "sort u32: gp_dist_sort   2   2147483648   33.815 ms   63.51 Gkeys/s   1.29x"
_DIST = re.compile(r"^(?P<case>[a-z][a-z0-9 ]*?): (?P<impl>\S.*?)\s+(?P<gpus>\d+)\s+(?P<n>\d+)\s+"
                   r"(?P<time>[\d.]+) (?P<tunit>ns|us|ms|s)\s+(?P<rate>[\d.]+) (?P<runit>[kMGT]?)keys/s"
                   r"\s+(?P<speedup>[\d.]+)x$")
_PEAK = re.compile(r"^# peak bandwidth: measured read (?P<read>[\d.]+) GB/s, copy "
                   r"(?P<copy>[\d.]+) GB/s, theoretical (?P<theo>[\d.]+) GB/s")


def _n(s):
    return 1 << int(s[2:]) if s.startswith("2^") else int(s)


def parse(text, source=""):
    """The rows and header of a bench run's text, in the --json document's shape."""
    doc = {"suite": "", "command": "(from the text of %s)" % source if source else "",
           "date": "", "gpuprims_version": "", "device": {}, "method": {}, "rows": []}
    table = None  # `bench sort --seed-tables`: the chapter's Tables 6.18 and 6.19
    for line in text.splitlines():
        line = line.rstrip()
        m = _SEED_TABLE.match(line)
        if m:
            table = (m["table"], _n(m["n"]))
            continue
        m = _SEED_ROW.match(line)
        if m and table:
            for impl, ms in (("this machine", m["ours"]), ("seed (the chapter)", m["seed"])):
                doc["rows"].append({"impl": impl, "case": "%s %s" % (table[0], m["name"]),
                                    "dtype": "i32", "n": table[1], "bytes": 4 * table[1],
                                    "elements": table[1], "ok": True,
                                    "median_s": float(ms) * 1e-3, "note": ""})
            continue
        m = _HEAD.match(line)
        if m:
            if not doc["suite"]:
                doc.update(suite=m["suite"], date=m["date"], gpuprims_version=m["ver"])
            continue
        m = _DEV.match(line)
        if m:
            doc["device"].update(name=m["name"], sm_count=int(m["sms"]),
                                 compute_capability=m["cc"], sm_clock_mhz=int(m["clk"]))
            continue
        m = _PEAK.match(line)
        if m:
            doc["device"].update(peak_read_gbs=float(m["read"]), peak_copy_gbs=float(m["copy"]),
                                 theoretical_gbs=float(m["theo"]))
            continue
        if line.startswith("# method: "):
            doc["method"]["text"] = line[len("# method: "):]
            continue
        m = _DIST.match(line)
        if m:
            n, t = int(m["n"]), float(m["time"]) * _UNITS[m["tunit"]]
            dtype = next((w for w in m["case"].split() if re.fullmatch(r"[a-z]\d+", w)), "")
            row = {"impl": "%s, %s GPU%s" % (m["impl"], m["gpus"], "" if m["gpus"] == "1" else "s"),
                   "case": m["case"], "dtype": dtype, "n": n, "elements": n,
                   "bytes": n * int(dtype[1:]) // 8 if dtype else 0, "ok": True,
                   "median_s": t, "elem_per_s": float(m["rate"]) * _SI[m["runit"]],
                   "gpus": int(m["gpus"]), "note": ""}
            row["gbs"] = row["bytes"] / t * 1e-9 if t > 0 else 0.0
            if int(m["gpus"]) > 1:
                row.update(ratio=float(m["speedup"]), ratio_to="one GPU")
            doc["rows"].append(row)
            continue
        m = _ROW.match(line)
        if not m or m["impl"] == "impl":
            continue
        n = _n(m["n"])
        row = {"impl": m["impl"], "case": m["case"], "dtype": m["dtype"], "n": n,
               "bytes": int(round(float(m["bytes"]) * _BYTES[m["bunit"]])), "elements": n}
        if m["failed"]:
            row.update(ok=False, note=m["failed"])
        else:
            note = m["note"] or ""
            row.update(ok=True, samples=int(m["samples"]),
                       median_s=float(m["time"]) * _UNITS[m["tunit"]],
                       noise=float(m["noise"]) / 100.0,
                       elem_per_s=float(m["eps"]) * _SI[m["eunit"]], gbs=float(m["gbs"]),
                       pct_peak=float(m["pct"]), time_capped="(time cap)" in note,
                       note=note.replace("(time cap)", "").strip())
            if m["ratio"]:
                row.update(ratio=float(m["ratio"]), ratio_to=m["peer"])
        doc["rows"].append(row)
    # a dist speed-up is over the same case on one GPU: none without such a row
    one = {r["case"] for r in doc["rows"] if r.get("gpus") == 1}
    for r in doc["rows"]:
        if r.get("gpus", 1) > 1 and r["case"] not in one:
            r.pop("ratio", None)
            r.pop("ratio_to", None)
    return doc


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m gpuprims.bench_text", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("text", help="the output of a gpuprims bench run")
    p.add_argument("-o", "--out", help="JSON to write (default: standard output)")
    a = p.parse_args(argv)
    with open(a.text) as f:
        doc = parse(f.read(), a.text)
    if not doc["rows"]:
        p.error("%s holds no rows of a gpuprims bench table" % a.text)
    s = json.dumps(doc, indent=1)
    if a.out:
        with open(a.out, "w") as f:
            f.write(s + "\n")
        print("wrote %s (%d rows)" % (a.out, len(doc["rows"])))
    else:
        print(s)
    return 0


if __name__ == "__main__":
    sys.exit(main())
