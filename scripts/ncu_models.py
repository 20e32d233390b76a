#!/usr/bin/env python3
"""Formatter for scripts/ncu_models.sh (python3 standard library only).

  ncu_models.py gen-npy FILE N     write N float32 values (i % 97 + 1) as a .npy file
  ncu_models.py table DIR          markdown: model figures beside ncu's, per kernel

The models count one block's reduction statements (gpuprims model ... --json); ncu
counts whole kernels (the load or grid-stride loop, loop overhead, index math, every
block). So the table puts like beside like where it can: per-block figures (ncu total /
grid size) beside the model's per-block figures, and the model's active lanes per
issued instruction for the tree alone and for every modelled statement beside the
measured ratio for the whole kernel. docs/models.md explains the gaps.
"""
import csv
import glob
import io
import json
import os
import struct
import sys


def gen_npy(path, n):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % n
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + " " * pad + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        chunk = 1 << 16
        for start in range(0, n, chunk):
            m = min(chunk, n - start)
            f.write(struct.pack("<%df" % m, *[float((start + i) % 97 + 1) for i in range(m)]))


def num(s):
    s = (s or "").replace(",", "").strip()
    try:
        return float(s)
    except ValueError:
        return None


def read_ncu(path):
    """{kernel name: {metric: value}} for the first launch of each kernel in an ncu CSV."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [l for l in f if l.startswith('"')]
    out, seen_id = {}, {}
    for row in csv.DictReader(io.StringIO("".join(lines))):
        name = row.get("Kernel Name", "?")
        short = name.split("(")[0].split("<")[0].strip()
        kid = row.get("ID")
        if short in seen_id and seen_id[short] != kid:
            continue  # a later launch of the same kernel
        seen_id[short] = kid
        out.setdefault(short, {})[row.get("Metric Name")] = num(row.get("Metric Value"))
    return out


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def fmt(x, nd=2):
    if x is None:
        return "n/a"
    if abs(x - round(x)) < 1e-9:
        return "%d" % round(x)
    return ("%." + str(nd) + "f") % x


def kernel_rows(div, banks, kernel_index):
    """Model figures for one kernel of the description (two-phase has 2)."""
    steps = [s for s in div["steps"] if s["kernel"] == kernel_index]
    tree = [s for s in steps if s["in_table"]]
    def ratio(rows):
        w = sum(s["active_warps"] for s in rows)
        return sum(s["active_threads"] for s in rows) / w if w else None
    acc = [a for a in banks["accesses"] if a["kernel"] == kernel_index]
    return {
        "lanes_tree": ratio(tree),
        "lanes_all": ratio(steps),
        "passes_tree": sum(s["issue_passes"] for s in tree),
        "mixed_all": sum(s["mixed_warps"] for s in steps),
        "ld_conf": sum(a["conflicts"] for a in acc if not a["store"]),
        "st_conf": sum(a["conflicts"] for a in acc if a["store"]),
        "ld_req": sum(a["warps"] for a in acc if not a["store"]),
        "st_req": sum(a["warps"] for a in acc if a["store"]),
    }


def measured(m):
    g = m.get("launch__grid_size") or None
    def per_block(key):
        v = m.get(key)
        return v / g if (v is not None and g) else None
    inst, thr = m.get("smsp__inst_executed.sum"), m.get("smsp__sass_thread_inst_executed.sum")
    pon = m.get("smsp__sass_thread_inst_executed_pred_on.sum")
    return {
        "grid": g,
        "lanes": thr / inst if (inst and thr is not None) else None,
        "lanes_on": pon / inst if (inst and pon is not None) else None,
        "div": per_block("smsp__sass_branch_targets_threads_divergent.sum"),
        "ld_conf": per_block("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
        "st_conf": per_block("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
        "ld_req": per_block("smsp__inst_executed_op_shared_ld.sum"),
        "st_req": per_block("smsp__inst_executed_op_shared_st.sum"),
    }


def table(d):
    print("| kernel | grid | lanes/inst: model tree | model all stmts | measured kernel | measured, predicate on "
          "| divergent branches / block: model | measured "
          "| shared ld req / block: model | measured | ld bank conflicts / block: model | measured "
          "| st req: model | measured | st conflicts: model | measured |")
    print("|" + "---|" * 16)
    specs = [("interleaved", "gp_reduce_interleaved_kernel", 0),
             ("sequential", "gp_reduce_sequential_kernel", 0),
             ("two-phase-1", "gp_reduce_two_phase1_kernel", 0),
             ("two-phase-2", "gp_reduce_two_phase2_kernel", 1),
             ("warp-atomic", "gp_reduce_warp_atomic_kernel", 0)]
    rows = []
    for label, kname, kidx in specs:
        csvp = os.path.join(d, "ncu_%s.csv" % label)
        div, banks = load(os.path.join(d, "div_%s.json" % label)), load(os.path.join(d, "banks_%s.json" % label))
        if not (os.path.exists(csvp) and div and banks):
            continue
        ncu = read_ncu(csvp)
        m = next((v for k, v in ncu.items() if kname in k), None)
        rows.append((label, kernel_rows(div, banks, kidx), measured(m or {})))
    # probe kernels: reduce1 (strided interleaved)
    probes = sorted(glob.glob(os.path.join(d, "ncu_probe_*.csv")))
    div, banks = load(os.path.join(d, "div_interleaved-strided.json")), load(os.path.join(d, "banks_interleaved-strided.json"))
    if probes and div and banks:
        ncu = read_ncu(probes[0])
        m = next((v for k, v in ncu.items() if "probe_interleaved_strided" in k), None)
        rows.append(("interleaved-strided (probe)", kernel_rows(div, banks, 0), measured(m or {})))
    for label, mo, me in rows:
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            label, fmt(me["grid"]), fmt(mo["lanes_tree"]), fmt(mo["lanes_all"]), fmt(me["lanes"]),
            fmt(me["lanes_on"]),
            fmt(mo["mixed_all"]), fmt(me["div"]), fmt(mo["ld_req"]), fmt(me["ld_req"]),
            fmt(mo["ld_conf"]), fmt(me["ld_conf"]), fmt(mo["st_req"]), fmt(me["st_req"]),
            fmt(mo["st_conf"]), fmt(me["st_conf"])))
    if probes:
        print()
        print("| a[tid*S] (probe_stride, 256 threads) | model degree warp 0 | model ld conflicts / block "
              "| measured ld conflicts / block |")
        print("|---|---|---|---|")
        for p in probes:
            s = os.path.basename(p)[len("ncu_probe_"):-len(".csv")]
            sj = load(os.path.join(d, "stride_%s.json" % s))
            m = next((v for k, v in read_ncu(p).items() if "probe_stride" in k), None)
            me = measured(m or {})
            print("| S = %s | %s | %s | %s |" % (s, sj["degree_warp0"] if sj else "n/a",
                                               sj["conflicts"] if sj else "n/a", fmt(me["ld_conf"])))


def main(argv):
    if len(argv) == 4 and argv[1] == "gen-npy":
        gen_npy(argv[2], int(argv[3]))
        return 0
    if len(argv) == 3 and argv[1] == "table":
        table(argv[2])
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
