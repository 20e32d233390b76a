"""python -m gpuprims.plot FILE.json [MORE.json ...] -o FILE.png: draws a benchmark
JSON (the CLI harness's --json, or python -m gpuprims.bench --json) with matplotlib:
one panel per case (or --one-panel), time (or throughput) against n on log axes, one
line per implementation and dtype, so the peers sit side by side. A case measured at
one n becomes a bar chart. Several files are drawn as one: their rows in order, the
title from the first.

  python -m gpuprims.plot py_bench.json -o py_bench.png
  python -m gpuprims.plot sort.json -o sort.png --y throughput --cases sort,argsort
  python -m gpuprims.plot radix.json auto.json -o u32.png --one-panel
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from collections import OrderedDict


def load_rows(path, cases=None):
    with open(path) as f:
        doc = json.load(f)
    rows = [r for r in doc.get("rows", []) if r.get("ok")]
    if cases:
        rows = [r for r in rows if any(r["case"].startswith(c) for c in cases)]
    return doc, rows


def group(rows, one_panel=False):
    """{panel: {line label: [(n, row), ...]}} in the file's order: a panel per case
    with a line per implementation and dtype, or one panel with a line per case too."""
    g = OrderedDict()
    for r in rows:
        if one_panel:
            panel, label = "", "%s %s %s" % (r["impl"], r["case"], r["dtype"])
        else:
            panel, label = r["case"], "%s %s" % (r["impl"], r["dtype"])
        g.setdefault(panel, OrderedDict()).setdefault(label, []).append((r["n"], r))
    return g


def value(r, y):
    if y == "time":
        return r["median_s"] * 1e6
    if y == "gbs":
        return r.get("gbs", 0.0)
    return r.get("elem_per_s", 0.0)


LABELS = {"time": "median time (us)", "throughput": "elements / s", "gbs": "GB/s"}


def draw(doc, rows, out, y="time", title=None, one_panel=False):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    g = group(rows, one_panel)
    if not g:
        raise SystemExit("gpuprims.plot: no successful rows to draw")
    ncase = len(g)
    cols = min(3, ncase)
    nrows = math.ceil(ncase / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(5.2 * cols, 3.8 * nrows), squeeze=False)
    for ax, (case, lines) in zip(axes.flat, g.items()):
        ns = {n for pts in lines.values() for n, _ in pts}
        if len(ns) == 1:  # one size: bars per implementation
            labels = list(lines)
            vals = [value(pts[0][1], y) for pts in lines.values()]
            ax.bar(range(len(vals)), vals, color=["C%d" % i for i in range(len(vals))])
            ax.set_xticks(range(len(vals)))
            ax.set_xticklabels(labels, rotation=20, ha="right", fontsize=8)
            for i, v in enumerate(vals):
                ax.annotate("%.3g" % v, (i, v), ha="center", va="bottom", fontsize=8)
            ax.set_xlabel("n = %d" % next(iter(ns)))
        else:
            for label, pts in lines.items():
                pts.sort(key=lambda p: p[0])
                ax.plot([p[0] for p in pts], [value(p[1], y) for p in pts], marker="o",
                        ms=3, label=label)
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xlabel("n (elements)")
            ax.legend(fontsize=8)
        ax.set_title(case, fontsize=10)
        ax.set_ylabel(LABELS[y])
        ax.grid(True, which="both", alpha=0.3)
    for ax in list(axes.flat)[ncase:]:
        ax.axis("off")
    dev = doc.get("device", {})
    fig.suptitle(title or "%s - %s, %s" % (doc.get("suite", "bench"), dev.get("name", "?"),
                                            doc.get("date", "")), fontsize=11)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m gpuprims.plot", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("json", nargs="+", help="one or more benchmark JSON files")
    p.add_argument("-o", "--out", required=True, help="image to write (.png, .svg)")
    p.add_argument("--y", choices=list(LABELS), default="time")
    p.add_argument("--cases", help="comma-separated case prefixes to keep")
    p.add_argument("--title")
    p.add_argument("--one-panel", action="store_true",
                   help="every case in one panel (e.g. the seed ladder's algorithms)")
    a = p.parse_args(argv)
    cases = a.cases.split(",") if a.cases else None
    doc, rows = load_rows(a.json[0], cases)
    for path in a.json[1:]:
        rows += load_rows(path, cases)[1]
    draw(doc, rows, a.out, a.y, a.title, a.one_panel)
    print("wrote", a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
