#!/usr/bin/env python3
"""A/B table of `gpuprims bench` text outputs from a GPU call's run directory.

    scripts/ab_table.py PREFIX BINARY...   (run inside the run directory)

reads PREFIX_BINARY_r1.txt, PREFIX_BINARY_r2.txt, ... for each binary (the names the
runs' command.sh files write; the text is parsed by gpuprims.bench_text) and prints,
per case, the CUB time (the lowest of every file's CUB rows) and each binary's gpuprims
time in every round, with CUB / its best. A peer row whose case is named differently
(e.g. DeviceRadixSort::SortKeys) belongs to the gpuprims row just above it.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from gpuprims.bench_text import parse  # noqa: E402


def _n(n):
    return "2^%d" % (n.bit_length() - 1) if n & (n - 1) == 0 else str(n)


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    pre, binaries = argv[1], argv[2:]
    rows = collections.OrderedDict()
    for b in binaries:
        for r in range(1, 10):
            try:
                text = open("%s_%s_r%d.txt" % (pre, b, r)).read()
            except OSError:
                continue
            ours = None
            for row in parse(text)["rows"]:
                if not row.get("ok"):
                    continue
                impl = row["impl"] if row["impl"] != "gpuprims" else b
                key = (row["case"], row["dtype"], _n(row["n"]))
                if row["impl"] == "gpuprims":
                    ours = key
                elif ours and ours[1:] == key[1:]:
                    key = ours
                rows.setdefault(key, {}).setdefault(impl, []).append(row["median_s"] * 1e6)
    for key, d in rows.items():
        cub = min(d.get("cub", [0]) or [0])
        cols = []
        for b in binaries:
            ts = d.get(b, [])
            ratio = " (%.3fx)" % (cub / min(ts)) if cub and ts else ""
            cols.append("%s: %s%s" % (b, "/".join("%.2f" % x for x in ts), ratio))
        print("%s %s %s | cub %.2f | %s" % (key[0], key[1], key[2], cub, " | ".join(cols)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
