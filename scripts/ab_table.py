#!/usr/bin/env python3
"""A/B table of `gpuprims bench` text outputs from a GPU call's run directory.

    scripts/ab_table.py PREFIX BINARY...   (run inside the run directory)

reads PREFIX_BINARY_r1.txt and PREFIX_BINARY_r2.txt for each binary (the names the
runs' command.sh files write) and prints, per case, the CUB time (the lowest of every
file's CUB rows) and each binary's gpuprims time in both rounds, with CUB / its best.
"""
import collections
import re
import sys


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    pre, binaries = argv[1], argv[2:]
    line_re = re.compile(r"(\S+)\s+(.*?)\s+(f32|f64|i32|u32|u64|i64)\s+(\S+)\s+[\d.]+ \S+\s+\d+\s+([\d.]+) (us|ms)")
    rows = collections.OrderedDict()
    for b in binaries:
        for r in (1, 2):
            try:
                text = open("%s_%s_r%d.txt" % (pre, b, r)).read()
            except OSError:
                continue
            for line in text.splitlines():
                m = line_re.match(line)
                if not m or line.startswith(("#", "impl")):
                    continue
                t = float(m.group(5)) * (1000 if m.group(6) == "ms" else 1)
                impl = m.group(1) if m.group(1) != "gpuprims" else b
                rows.setdefault((m.group(2), m.group(3), m.group(4)), {}).setdefault(impl, []).append(t)
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
