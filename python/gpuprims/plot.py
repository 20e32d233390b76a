"""python -m gpuprims.plot FILE.json [MORE.json ...] -o FILE.png: draws a benchmark
JSON (the CLI harness's --json, python -m gpuprims.bench --json, or
bench/numpy_cpu.py --json), or the text table of a `gpuprims bench` run (read by
gpuprims.bench_text), with matplotlib. Harness files: one panel per case (or
--one-panel), time (or throughput) against n on log axes, one line per implementation
and dtype, so the peers sit side by side; a case measured at one n becomes a bar chart.
bench/numpy_cpu.py and bench/cli_files.py files: grouped horizontal bars, gpuprims
beside NumPy per case; `gpuprims bench host` files: a bar per wait mode per case. Several files
are drawn as one: their rows in order, the title from the first; --tags names each
file's rows (before / after, one machine / another).

  python -m gpuprims.plot py_bench.json -o py_bench.png
  python -m gpuprims.plot sort.json -o sort.png --y throughput --cases sort,argsort
  python -m gpuprims.plot radix.json auto.json -o u32.png --one-panel
  python -m gpuprims.plot after.json before.json -o rows.png --x len --y time,ratio \\
      --tags after,before --peers-once
  python -m gpuprims.plot numpy_cpu.json -o cpu.png --y time,ratio

--x picks the horizontal axis: n (the default for harness files); len, the number that
ends the case name (a sweep at one n, e.g. "rows sum len 1024"), one panel per case
prefix; case or note (the row's note up to its first comma, e.g. the offsets kind of a
segmented sort), categories as grouped bars, one bar per implementation (the default for
the other files). --y takes a comma list (one panel per entry); ratio is each gpuprims
row's peer time / gpuprims time (> 1: gpuprims faster; numpy_cpu: the speed-up).
"""
from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import OrderedDict


def _pair_rows(doc, scale, ours, theirs, cpu=None):
    """Per-case rows of gpuprims beside NumPy (bench/numpy_cpu.py: gpuprims_ms,
    numpy_ms, speedup; bench/cli_files.py: gpuprims_s, numpy_s) as the harness's: a
    gpuprims row with the ratio and a NumPy row, wall times."""
    rows = []
    for r in doc.get("rows", []):
        base = {"case": r["case"], "dtype": "", "n": r.get("n", 0), "ok": True,
                "bytes": r.get("bytes", 0), "note": r.get("numpy_call") or r.get("note") or ""}
        for impl, key in (("gpuprims", ours), ("NumPy", theirs)):
            if r.get(key) is None:
                continue
            row = dict(base, impl=impl, median_s=r[key] * scale)
            t = row["median_s"]
            row["elem_per_s"] = row["n"] / t if t > 0 else 0.0
            row["gbs"] = row["bytes"] / t * 1e-9 if t > 0 else 0.0
            if impl == "gpuprims" and r.get("speedup") is not None:
                row["ratio"], row["ratio_to"] = r["speedup"], "NumPy"
            rows.append(row)
    return rows


def _pow2(n):
    return "2^%d" % (n.bit_length() - 1) if n > 0 and n & (n - 1) == 0 else str(n)


def normalize(doc):
    """A numpy_cpu, cli_files or host document in the harness's shape (impl, case,
    dtype, n, median_s, ok); a harness document as it is."""
    rows = doc.get("rows", [])
    if any("gpuprims_ms" in r for r in rows):  # bench/numpy_cpu.py
        m = doc.get("meta", {})
        name = "%s, %s cores" % (m.get("cpu", "CPU"), m.get("nproc", "?"))
        return {"suite": "numpy_cpu", "date": m.get("date", ""), "format": "pairs",
                "device": {"name": name}, "command": m.get("command", ""),
                "rows": _pair_rows(doc, 1e-3, "gpuprims_ms", "numpy_ms")}
    if any("gpuprims_s" in r for r in rows):  # bench/cli_files.py
        return dict(doc, format="pairs", rows=_pair_rows(doc, 1.0, "gpuprims_s", "numpy_s"))
    if any("median_us" in r and "impl" not in r for r in rows):  # gpuprims bench host
        out = []
        for r in rows:
            n = r.get("n", 0)
            case = "%s, n = %s" % (r["case"], _pow2(n)) if n else r["case"]
            wait = r.get("wait", "-")
            out.append({"impl": "wait " + wait if wait != "-" else "runtime", "case": case, "dtype": "",
                        "n": n, "ok": True, "median_s": r["median_us"] * 1e-6,
                        "gbs": r.get("gbs", 0.0), "note": ""})
        return dict(doc, format="pairs", rows=out)
    return doc


def load_doc(path):
    """A benchmark JSON, or the text table a `gpuprims bench` run printed."""
    with open(path) as f:
        text = f.read()
    if text.lstrip().startswith("{"):
        return json.loads(text)
    from gpuprims.bench_text import parse
    doc = parse(text, path)
    if not doc["rows"]:
        raise SystemExit("%s is neither a benchmark JSON nor a gpuprims bench table" % path)
    return doc


def load_rows(path, cases=None, tag=None, dtypes=None, notes=None):
    doc = normalize(load_doc(path))
    rows = [r for r in doc.get("rows", []) if r.get("ok")]
    if cases:
        rows = [r for r in rows if any(r["case"].startswith(c) for c in cases)]
    if dtypes:
        rows = [r for r in rows if r.get("dtype") in dtypes]
    if notes:
        rows = [r for r in rows if any((r.get("note") or "").startswith(c) for c in notes)]
    if tag:
        rows = [dict(r, tag=tag) for r in rows]
    return doc, rows


def peers_once(rows):
    """Drops a peer's row (any impl but gpuprims) when an earlier row already measured
    the same peer, case, dtype, n and note: one peer line beside several tagged runs."""
    seen, out = set(), []
    for r in rows:
        if r["impl"] != "gpuprims":
            key = (r["impl"], r["case"], r.get("dtype"), r["n"], r.get("note") or "")
            if key in seen:
                continue
            seen.add(key)
        out.append(r)
    return [dict(r, tag=None) if r["impl"] != "gpuprims" else r for r in out]


_LEN = re.compile(r"^(.*?)\s*(\d+)\s*$")


def xkey(r, x):
    """(panel part, x value) of a row under --x: n, len, case or note."""
    if x == "len":
        m = _LEN.match(r["case"])
        return (m.group(1), int(m.group(2))) if m else (r["case"], r["n"])
    if x == "case":
        return "", r["case"]
    if x == "note":
        return "", (r.get("note") or "").split(",")[0]
    return r["case"], r["n"]


def label_of(r, extra=""):
    parts = [r.get("tag") or "", r["impl"], extra, r.get("dtype") or ""]
    return " ".join(p for p in parts if p)


def group(rows, one_panel=False, x="n"):
    """{panel: {line label: [(x, row), ...]}} in the file's order: a panel per case
    with a line per implementation and dtype, or one panel with a line per case too."""
    g = OrderedDict()
    for r in rows:
        panel, xv = xkey(r, x)
        if x in ("case", "note"):
            label = label_of(r)
        elif one_panel:
            panel, label = "", label_of(r, panel)
        else:
            label = label_of(r)
        g.setdefault(panel, OrderedDict()).setdefault(label, []).append((xv, r))
    return g


def value(r, y):
    if y == "time":
        return r["median_s"] * 1e6
    if y == "time_ms":
        return r["median_s"] * 1e3
    if y == "gbs":
        return r.get("gbs", 0.0)
    if y == "ratio":
        return r.get("ratio")
    return r.get("elem_per_s", 0.0)


LABELS = {"time": "median time (us)", "time_ms": "median time (ms)", "throughput": "elements / s", "gbs": "GB/s",
          "ratio": "peer time / gpuprims time"}
XLABELS = {"n": "n (elements)", "len": "length", "case": "", "note": ""}


def _ratio_label(rows):
    peers = sorted({r.get("ratio_to") for r in rows if r.get("ratio_to")})
    return "%s time / gpuprims time" % "/".join(peers) if peers else LABELS["ratio"]


def _log_if_wide(vals):
    pos = [v for v in vals if v and v > 0]
    return bool(pos) and max(pos) / min(pos) > 30


def _num(v):
    return "%.0f" % v if abs(v) >= 1000 else "%.3g" % v


def _plain_ticks(axis, vals):
    """Log-axis ticks as plain numbers (4000, 1.05), not 4 x 10^3; minor ticks
    labelled only when the values span less than a decade."""
    from matplotlib.ticker import FuncFormatter, NullFormatter
    f = FuncFormatter(lambda v, _: "%g" % v)
    axis.set_major_formatter(f)
    pos = [v for v in vals if v and v > 0]
    narrow = bool(pos) and max(pos) / min(pos) < 10
    axis.set_minor_formatter(f if narrow else NullFormatter())


def _bars(ax, lines, y, color):
    """Grouped horizontal bars: a category per row of the axis (file order, top to
    bottom), a bar per line label."""
    cats = []
    for pts in lines.values():
        for c, _ in pts:
            if c not in cats:
                cats.append(c)
    labels = list(lines)
    h = 0.8 / max(1, len(labels))
    allv = []
    for i, label in enumerate(labels):
        pos = {c: value(r, y) for c, r in lines[label]}
        ys = [k + (i - (len(labels) - 1) / 2) * h for k, c in enumerate(cats) if c in pos]
        vs = [pos[c] for c in cats if c in pos]
        if y == "ratio":  # from parity: left of 1 is slower, right of it faster
            ax.barh(ys, [v - 1 for v in vs], left=1, height=h, color=color(label), label=label)
        else:
            ax.barh(ys, vs, height=h, color=color(label), label=label)
        for yy, v in zip(ys, vs):
            left = y == "ratio" and v < 1  # the label outside the bar's end
            ax.annotate(_num(v), (v, yy), xytext=(-2 if left else 2, 0),
                        textcoords="offset points", va="center",
                        ha="right" if left else "left", fontsize=6)
        allv += vs
    ax.set_yticks(range(len(cats)))
    ax.set_yticklabels(cats, fontsize=7)
    ax.invert_yaxis()
    if _log_if_wide(allv):
        ax.set_xscale("log")
        _plain_ticks(ax.xaxis, allv)
    if y == "ratio":
        ax.axvline(1.0, color="k", lw=0.8, ls="--")
    if ax.get_xscale() == "log":
        ax.set_xlim(min(allv + [1.0] if y == "ratio" else allv) / 1.5, max(allv) * 3)
    else:
        ax.set_xlim(0, max(allv) * 1.15)
    if len(labels) > 1:
        ax.legend(fontsize=7, loc="best")
    ax.grid(True, axis="x", which="both", alpha=0.3)
    return len(cats) * max(1, len(labels))


def draw(doc, rows, out, y="time", title=None, one_panel=False, x="n", cols=None,
         xlabel=None, dpi=110):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ys = y.split(",") if isinstance(y, str) else list(y)
    for yy in ys:
        if yy not in LABELS or yy == "time_ms":
            raise SystemExit("gpuprims.plot: unknown --y %r" % yy)
    panels = []
    for yy in ys:
        if yy == "time" and rows and min(r["median_s"] for r in rows) >= 1e-3:
            yy = "time_ms"  # every time at least a millisecond
        use = [r for r in rows if r.get("ratio") is not None] if yy == "ratio" else rows
        for case, lines in group(use, one_panel, x).items():
            panels.append((yy, case, lines))
    if not panels:
        raise SystemExit("gpuprims.plot: no successful rows to draw")
    npanel = len(panels)
    colors = OrderedDict()  # a label keeps its colour in every panel

    def color(label):
        return colors.setdefault(label, "C%d" % (len(colors) % 10))

    categorical = x in ("case", "note")
    cols = cols or min(3 if not categorical else 2, npanel)
    nrows = math.ceil(npanel / cols)
    if categorical:
        bars = max(sum(len(p) for p in lines.values()) for _, _, lines in panels)
        size = (6.5 * cols, nrows * max(2.8, 1.2 + 0.15 * bars))
    else:
        size = (5.2 * cols, 3.8 * nrows)
    dev = doc.get("device", {})
    title = title or "%s - %s, %s" % (doc.get("suite", "bench"), dev.get("name", "?"),
                                      doc.get("date", ""))
    size = (max(size[0], 0.085 * len(title) + 0.5), size[1])  # room for the title
    fig, axes = plt.subplots(nrows, cols, figsize=size, squeeze=False)
    for ax, (yy, case, lines) in zip(axes.flat, panels):
        ylab = _ratio_label(rows) if yy == "ratio" else LABELS[yy]
        ptitle = case if len(ys) == 1 and yy != "ratio" else " - ".join(p for p in (case, ylab) if p)
        if categorical:
            _bars(ax, lines, yy, color)
            ax.set_xlabel(ylab)
        else:
            ns = {n for pts in lines.values() for n, _ in pts}
            if len(ns) == 1:  # one size: bars per implementation
                labels = list(lines)
                vals = [value(pts[0][1], yy) for pts in lines.values()]
                ax.bar(range(len(vals)), vals, color=[color(lb) for lb in labels])
                ax.set_xticks(range(len(vals)))
                ax.set_xticklabels(labels, rotation=20, ha="right", fontsize=8)
                for i, v in enumerate(vals):
                    ax.annotate(_num(v), (i, v), ha="center", va="bottom", fontsize=8)
                ax.set_xlabel("%s = %d" % ("n" if x == "n" else "x", next(iter(ns))))
            else:
                for label, pts in lines.items():
                    pts.sort(key=lambda p: p[0])
                    ax.plot([p[0] for p in pts], [value(p[1], yy) for p in pts], marker="o",
                            ms=3, label=label, color=color(label))
                ax.set_xscale("log", base=2)
                vals = [value(r, yy) for pts in lines.values() for _, r in pts]
                if yy != "ratio" or _log_if_wide(vals):
                    ax.set_yscale("log")
                    _plain_ticks(ax.yaxis, vals)
                if yy == "ratio":
                    ax.axhline(1.0, color="k", lw=0.8, ls="--")
                ax.set_xlabel(xlabel or XLABELS[x])
                ax.legend(fontsize=7)
            ax.set_ylabel(ylab)
            ax.grid(True, which="both", alpha=0.3)
        ax.set_title(ptitle, fontsize=10)
    for ax in list(axes.flat)[npanel:]:
        ax.axis("off")
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    fig.savefig(out, dpi=dpi)
    plt.close(fig)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m gpuprims.plot", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("json", nargs="+", help="one or more benchmark JSON files (or bench "
                   "text tables)")
    p.add_argument("-o", "--out", required=True, help="image to write (.png, .svg)")
    p.add_argument("--y", default="time",
                   help="comma list of time|throughput|gbs|ratio (a panel each); time is "
                   "drawn in ms when every time is at least 1 ms")
    p.add_argument("--x", choices=list(XLABELS),
                   help="horizontal axis (default: n; case for numpy_cpu files)")
    p.add_argument("--xlabel", help="the horizontal axis' label (line panels)")
    p.add_argument("--cases", help="comma-separated case prefixes to keep")
    p.add_argument("--dtypes", help="comma-separated dtypes to keep")
    p.add_argument("--notes", help="comma-separated note prefixes to keep")
    p.add_argument("--tags", help="comma-separated names, one per file, put before "
                   "each of its rows' labels")
    p.add_argument("--peers-once", action="store_true",
                   help="each peer measurement from the first file that has it, untagged")
    p.add_argument("--cols", type=int, help="panels per row of the figure")
    p.add_argument("--dpi", type=int, default=110)
    p.add_argument("--title")
    p.add_argument("--one-panel", action="store_true",
                   help="every case in one panel (e.g. the seed ladder's algorithms)")
    a = p.parse_args(argv)
    split = lambda s: s.split(",") if s else None  # noqa: E731
    cases, dtypes, notes, tags = split(a.cases), split(a.dtypes), split(a.notes), split(a.tags)
    if tags and len(tags) != len(a.json):
        p.error("--tags needs one name per JSON file (%d files, %d tags)"
                % (len(a.json), len(tags)))
    doc, rows = None, []
    for i, path in enumerate(a.json):
        d, r = load_rows(path, cases, tags[i] if tags else None, dtypes, notes)
        doc = doc or d
        rows += r
    if a.peers_once:
        rows = peers_once(rows)
    x = a.x or ("case" if doc.get("format") == "pairs" else "n")
    draw(doc, rows, a.out, a.y, a.title, a.one_panel, x, a.cols, a.xlabel, a.dpi)
    print("wrote", a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
