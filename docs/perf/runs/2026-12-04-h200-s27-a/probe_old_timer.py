"""The bench as it timed before the twenty-seventh session (no synchronize between the
L2 flush and the first event), for a same-run comparison: python probe_old_timer.py
BENCH-ARGS..."""
import sys

from gpuprims import bench


def old_sample(self, fn):
    if self.flush:
        self.scratch.fill_(0) if self.torch is not None else self.scratch.fill(0)
    a, b = self.events()
    a.record()
    fn()
    b.record()
    b.synchronize()
    return a.elapsed_time(b) * 1e-3


bench.Timer.sample = old_sample
sys.exit(bench.main(sys.argv[1:]))
