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


def test_bench_timer_takes_turns():
    """Timer.measure: the implementations of a case alternate sample by sample (the
    first of a turn moving round), each stops at its noise target, and the time cap
    still gives every one its minimum of samples."""
    import types
    order = []
    t = bench.Timer.__new__(bench.Timer)  # no GPU: sync and sample replaced
    t.sync = lambda: None
    t.sample = lambda fn: fn()

    def impl(name, values):
        it = iter(values)
        return lambda: (order.append(name), next(it))[1]

    args = types.SimpleNamespace(warmup=0, min_samples=3, max_samples=6, noise=0.01,
                                 max_time=60.0)
    xs = t.measure({"a": impl("a", [1.0] * 10), "b": impl("b", [1.0, 2.0] * 5)}, args)
    assert order[:6] == ["a", "b", "b", "a", "a", "b"]
    assert xs["a"] == [1.0] * 3  # steady: stops at min_samples
    assert len(xs["b"]) == 6  # noisy: runs to max_samples
    order.clear()
    args.max_time, args.max_samples = 0.0, 100
    xs = t.measure({"a": impl("a", [1.0, 3.0] * 50), "b": impl("b", [2.0, 5.0] * 50)}, args)
    assert len(xs["a"]) == len(xs["b"]) == 3  # capped, each with its minimum


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


def test_plot_numpy_cpu_host_and_sweeps(tmp_path):
    """bench/numpy_cpu.py's and bench host's JSON as grouped bars (time and the
    speed-up), a sweep along the case's trailing number, tagged files, peers once."""
    pytest.importorskip("matplotlib")
    cpu = {"meta": {"date": "2026-12-01", "cpu": "test", "nproc": 2},
           "rows": [{"case": "sort u32 n=16", "n": 16, "bytes": 64, "gpuprims_ms": 2.0,
                     "numpy_ms": 3.0, "numpy_call": "np.sort", "speedup": 1.5},
                    {"case": "reduce sum f32 n=16", "n": 16, "bytes": 64, "gpuprims_ms": 4.0,
                     "numpy_ms": 1.0, "numpy_call": "np.sum", "speedup": 0.25}]}
    src = tmp_path / "cpu.json"
    src.write_text(json.dumps(cpu))
    doc, rows = plot.load_rows(str(src), tag="after")
    assert doc["format"] == "pairs" and doc["device"]["name"] == "test, 2 cores"
    assert [(r["impl"], r["median_s"], r.get("ratio")) for r in rows[:2]] == [
        ("gpuprims", 2e-3, 1.5), ("NumPy", 3e-3, None)]
    g = plot.group(rows, x="case")
    assert list(g[""]) == ["after gpuprims", "after NumPy"]
    png = tmp_path / "cpu.png"
    assert plot.main([str(src), str(src), "-o", str(png), "--y", "time,ratio",
                      "--tags", "a,b"]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"

    host = {"suite": "host", "rows": [
        {"case": "reduce f32 sum, host result", "wait": "sync", "n": 1024, "median_us": 12.0},
        {"case": "reduce f32 sum, host result", "wait": "spin", "n": 1024, "median_us": 20.0},
        {"case": "cudaMemcpy H2D pinned", "wait": "-", "n": 1 << 30, "median_us": 1e4,
         "gbs": 55.0}]}
    hsrc = tmp_path / "host.json"
    hsrc.write_text(json.dumps(host))
    _, hrows = plot.load_rows(str(hsrc))
    assert [r["impl"] for r in hrows] == ["wait sync", "wait spin", "runtime"]
    assert hrows[0]["case"] == "reduce f32 sum, host result, n = 2^10"
    assert plot.main([str(hsrc), "-o", str(png)]) == 0

    sweep = []
    for run, scale in (("new", 1.0), ("old", 2.0)):
        rs = []
        for length in (1, 32, 1024):
            rs.append({"impl": "gpuprims", "case": "rows sum len %d" % length, "dtype": "f32",
                       "n": 1 << 20, "ok": True, "median_s": scale * 1e-4, "ratio": 3.0 / scale,
                       "ratio_to": "cub"})
            rs.append({"impl": "cub", "case": "rows sum len %d" % length, "dtype": "f32",
                       "n": 1 << 20, "ok": True, "median_s": 3e-4})
        p = tmp_path / ("%s.json" % run)
        p.write_text(json.dumps({"suite": "reduce", "rows": rs}))
        sweep.append(str(p))
    assert plot.xkey(rs[0], "len") == ("rows sum len", 1)
    rows = plot.load_rows(sweep[0], tag="new")[1] + plot.load_rows(sweep[1], tag="old")[1]
    once = plot.peers_once(rows)
    assert [r["impl"] for r in once].count("cub") == 3
    assert list(plot.group(once, x="len")["rows sum len"]) == ["new gpuprims f32", "cub f32",
                                                               "old gpuprims f32"]
    assert plot.main(sweep + ["-o", str(png), "--x", "len", "--y", "time,ratio", "--tags",
                              "new,old", "--peers-once"]) == 0


_BENCH_TEXT = """\
# gpuprims 0.1.0 (cuda + cpu) -- bench reduce -- 2026-11-29T16:13:41Z
# device: NVIDIA H200, 132 SMs, compute capability 9.0, SM clock 1980 MHz
# peak bandwidth: measured read 4378.2 GB/s, copy 4030.1 GB/s, theoretical 4814.3 GB/s (read = 91% of it)
# method: L2 flushed before each sample, 2 warm-up run(s)
impl      case                             dtype        n      bytes samples    GPU time   noise    elem/s      GB/s  %peak ratio          note
gpuprims  reduce sum auto                  f32       2^18   1.00 MiB    3004     6.18 us   3.29%    42.45G     169.8   3.9% 1.155x cub      (time cap)
cub       reduce sum                       f32       2^18   1.00 MiB    3000     7.14 us  26.00%    36.70G     146.8   3.4% -               (time cap)
gpuprims  reduce sum two-phase 64 blocks   f32       2^24  64.00 MiB      10   408.64 us   0.25%    41.06G     164.2   3.7% -              removes per-block partials (4.3)
gpuprims  reduce sum interleaved           f32       2^28   1.00 GiB      10    2.604 ms   0.01%   103.10G     412.4   9.4% -              baseline (4.1)
gpuprims  sort_segments_offsets            u32       2^24 128.00 MiB FAILED: the run failed (see above)
"""


def test_bench_text_reads_a_bench_table(tmp_path):
    """A kept text table becomes the --json document; plot reads the text directly."""
    from gpuprims import bench_text
    doc = bench_text.parse(_BENCH_TEXT, "run.txt")
    assert doc["suite"] == "reduce" and doc["date"] == "2026-11-29T16:13:41Z"
    assert doc["device"]["name"] == "NVIDIA H200" and doc["device"]["sm_count"] == 132
    assert doc["device"]["peak_read_gbs"] == 4378.2
    rows = doc["rows"]
    assert [r["impl"] for r in rows] == ["gpuprims", "cub", "gpuprims", "gpuprims", "gpuprims"]
    first = rows[0]
    assert first["case"] == "reduce sum auto" and first["n"] == 1 << 18
    assert first["bytes"] == 1 << 20 and first["samples"] == 3004
    assert first["median_s"] == pytest.approx(6.18e-6) and first["noise"] == pytest.approx(0.0329)
    assert first["elem_per_s"] == pytest.approx(42.45e9) and first["gbs"] == 169.8
    assert first["ratio"] == 1.155 and first["ratio_to"] == "cub" and first["time_capped"]
    assert "ratio" not in rows[1] and rows[1]["note"] == ""
    assert rows[2]["case"] == "reduce sum two-phase 64 blocks" and not rows[2]["time_capped"]
    assert rows[2]["note"] == "removes per-block partials (4.3)"
    assert rows[3]["median_s"] == pytest.approx(2.604e-3) and rows[3]["bytes"] == 1 << 30
    assert rows[4]["ok"] is False and rows[4]["note"].startswith("FAILED")
    src = tmp_path / "run.txt"
    src.write_text(_BENCH_TEXT)
    out = tmp_path / "run.json"
    assert bench_text.main([str(src), "-o", str(out)]) == 0
    assert json.loads(out.read_text())["rows"] == rows
    _, kept = plot.load_rows(str(src), ["reduce sum"])
    assert len(kept) == 4  # the failed row is dropped, as plot drops any not ok
    empty = tmp_path / "empty.txt"
    empty.write_text("no table here\n")
    with pytest.raises(SystemExit):
        bench_text.main([str(empty)])
    with pytest.raises(SystemExit):
        plot.load_rows(str(empty))


def test_plot_draws_a_bench_text_table(tmp_path):
    pytest.importorskip("matplotlib")
    src = tmp_path / "run.txt"
    src.write_text(_BENCH_TEXT)
    png = tmp_path / "run.png"
    assert plot.main([str(src), "-o", str(png), "--one-panel", "--y", "gbs"]) == 0
    assert png.stat().st_size > 0


def test_bench_text_reads_the_seed_tables():
    from gpuprims import bench_text
    text = """Table 6.18: small list (n = 2048 int32)
                                       this machine      seed (ms)
  CPU qsort                               0.1587 ms          0.116
  GPU bitonic (Program 6.19)              0.0192 ms          0.128

Table 6.19: large list (n = 2^21 = 2,097,152 int32)
  CPU serial bitonic (Program 6.17)     751.3659 ms       3710.000
"""
    rows = bench_text.parse(text)["rows"]
    assert [(r["impl"], r["case"], r["n"]) for r in rows] == [
        ("this machine", "Table 6.18 CPU qsort", 2048),
        ("seed (the chapter)", "Table 6.18 CPU qsort", 2048),
        ("this machine", "Table 6.18 GPU bitonic (Program 6.19)", 2048),
        ("seed (the chapter)", "Table 6.18 GPU bitonic (Program 6.19)", 2048),
        ("this machine", "Table 6.19 CPU serial bitonic (Program 6.17)", 1 << 21),
        ("seed (the chapter)", "Table 6.19 CPU serial bitonic (Program 6.17)", 1 << 21)]
    assert rows[0]["median_s"] == pytest.approx(0.1587e-3)
    assert rows[5]["median_s"] == pytest.approx(3.71)


def test_bench_text_reads_a_dist_table(tmp_path):
    from gpuprims import bench_text, plot
    text = """case                         gpus              n        median             rate  speedup
sort u32: gp_sort               1     2147483648     43.465 ms     49.41 Gkeys/s    1.00x
sort u32: gp_dist_sort          2     2147483648     33.815 ms     63.51 Gkeys/s    1.29x
                             vs CUB one GPU: 1.28x; shards equal one GPU's sort: yes
reduce f32 sum: gp_dist_reduce    2     2147483648      1.148 ms   1871.08 Gkeys/s    1.89x
"""
    rows = bench_text.parse(text)["rows"]
    assert [(r["impl"], r["case"], r["dtype"], r["n"]) for r in rows] == [
        ("gp_sort, 1 GPU", "sort u32", "u32", 1 << 31),
        ("gp_dist_sort, 2 GPUs", "sort u32", "u32", 1 << 31),
        ("gp_dist_reduce, 2 GPUs", "reduce f32 sum", "f32", 1 << 31)]
    assert rows[1]["median_s"] == pytest.approx(33.815e-3)
    assert rows[1]["elem_per_s"] == pytest.approx(63.51e9)
    assert rows[1]["ratio"] == pytest.approx(1.29) and "ratio" not in rows[0]
    assert "ratio" not in rows[2]  # no one-GPU row of that case in this text
    pytest.importorskip("matplotlib")  # the picture; the parse above has run
    src = tmp_path / "dist.txt"
    src.write_text(text)
    out = tmp_path / "dist.png"
    assert plot.main([str(src), "-o", str(out), "--x", "case", "--y", "throughput,ratio"]) == 0
    assert out.stat().st_size > 1000
