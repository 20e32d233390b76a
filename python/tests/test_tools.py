"""python -m gpuprims.bench and python -m gpuprims.plot: the bench's overhead suite
runs anywhere and writes the harness's JSON; the plot draws line panels (several n)
and bar panels (one n) from such a file."""
import json

import pytest

from gpuprims import bench, plot


def test_bench_overhead_writes_harness_json(tmp_path):
    out = tmp_path / "b.json"
    assert bench.main(["--suites", "overhead", "--quick", "--peers", "", "--json",
                       str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc["suite"] == "python" and doc["method"]["timer"].startswith("cuda events")
    rows = {r["impl"]: r for r in doc["rows"] if r["case"] == "overhead numpy cpu"}
    assert set(rows) == {"gpuprims.sum", "ctypes gp_reduce",
                         "ctypes floor (gp_backend_of)", "binding overhead"}
    assert all(r["ok"] and r["median_s"] > 0 for r in rows.values())


def test_plot_draws_lines_and_bars(tmp_path):
    pytest.importorskip("matplotlib")
    rows = []
    for impl, scale in (("gpuprims", 1.0), ("torch", 2.0)):
        for n in (1 << 11, 1 << 16, 1 << 20):
            t = scale * (5e-6 + n * 1e-10)
            rows.append({"impl": impl, "case": "sort", "dtype": "i32", "n": n, "ok": True,
                         "median_s": t, "elem_per_s": n / t, "gbs": 4 * n / t * 1e-9})
        rows.append({"impl": impl, "case": "rows 16384x1024", "dtype": "f32",
                     "n": 1 << 24, "ok": True, "median_s": scale * 3e-4,
                     "elem_per_s": 1.0, "gbs": 1.0})
    rows.append({"impl": "cupy", "case": "sort", "dtype": "i32", "n": 1 << 11,
                 "ok": False, "error": "skipped"})
    src = tmp_path / "r.json"
    src.write_text(json.dumps({"suite": "t", "device": {"name": "test"}, "rows": rows}))
    png = tmp_path / "r.png"
    assert plot.main([str(src), "-o", str(png), "--y", "throughput"]) == 0
    assert png.stat().st_size > 10_000 and png.read_bytes()[:4] == b"\x89PNG"
    doc, kept = plot.load_rows(str(src), ["rows"])
    assert [r["case"] for r in kept] == ["rows 16384x1024"] * 2
    assert list(plot.group(kept)) == ["rows 16384x1024"]
    one = plot.group(kept, one_panel=True)
    assert list(one[""]) == ["gpuprims rows 16384x1024 f32", "torch rows 16384x1024 f32"]
    assert plot.main([str(src), "-o", str(png), "--one-panel"]) == 0
    other = tmp_path / "s.json"  # a second file: its rows join the first's
    other.write_text(json.dumps({"suite": "u", "rows": [dict(rows[0], impl="cub")]}))
    assert plot.main([str(src), str(other), "-o", str(png), "--one-panel"]) == 0
