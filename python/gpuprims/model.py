"""The chapters' cost models (host only, any context): warp divergence in issue
passes, shared-memory bank conflicts, and work/span of the two-phase reduction.
Each returns plain dataclasses mirroring the C structs of include/gpuprims.h.

>>> from gpuprims import model
>>> d = model.divergence("interleaved", block=256)
>>> d.total.table.mixed_warps > model.divergence("sequential", block=256).total.table.mixed_warps
True
"""
from __future__ import annotations

import ctypes
from dataclasses import dataclass, fields
from typing import List, Optional

from . import _lib as L
from .context import Context, context_for

ALGOS = ("interleaved", "interleaved-strided", "sequential", "two-phase", "warp-atomic",
         "warp-shared")
SPAN_DESIGNS = ("chapter", "multi-level", "library", "seed")


def _plain(cls, s, **override):
    """cls built from the ctypes struct s, field by field (bytes become str)."""
    kw = {}
    for f in fields(cls):
        if f.name in override:
            kw[f.name] = override[f.name]
            continue
        v = getattr(s, f.name)
        kw[f.name] = v.decode(errors="replace") if isinstance(v, bytes) else v
    return cls(**kw)


@dataclass(frozen=True)
class DivStep:
    """One statement of the kernel, executed once by the block."""
    kernel: int
    part: str
    step_s: int
    in_table: bool
    what: str
    active_threads: int
    active_warps: int
    mixed_warps: int
    issue_passes: int


@dataclass(frozen=True)
class DivSum:
    steps: int
    issue_passes: int
    active_threads: int
    active_warps: int
    mixed_warps: int
    max_mixed_per_step: int
    lanes_per_issue: float


@dataclass(frozen=True)
class DivTotal:
    table: DivSum   # the chapter's table rows
    kernel: DivSum  # every statement of every kernel


@dataclass(frozen=True)
class Divergence:
    config: dict
    steps: List[DivStep]
    total: DivTotal


@dataclass(frozen=True)
class BankAccess:
    kernel: int
    part: str
    step_s: int
    what: str
    access: str
    is_store: bool
    warps: int
    max_degree: int
    wavefronts: int
    ideal: int
    conflicts: int


@dataclass(frozen=True)
class BankTotal:
    ld_requests: int
    st_requests: int
    ld_wavefronts: int
    st_wavefronts: int
    ld_conflicts: int
    st_conflicts: int
    max_degree: int


@dataclass(frozen=True)
class Banks:
    config: dict
    accesses: List[BankAccess]
    total: BankTotal


@dataclass(frozen=True)
class BankStride:
    config: dict
    stride: int
    access: BankAccess
    degree_warp0: int


@dataclass(frozen=True)
class SpanStage:
    inputs: int
    blocks: int
    threads: int
    grid_stride: bool
    loop_len: int
    loop_levels: int
    tree_steps: int
    tree_levels: int
    adds: int
    combines: int
    outputs: int
    unread: int


@dataclass(frozen=True)
class Span:
    design: str
    stages: List[SpanStage]
    launch_boundaries: int
    span_levels: int
    span_levels_loops: int
    span_steps: int
    work_adds: int
    work_combines: int


def _config(ctx, algo, block, warp, banks, bank_bytes, elem_bytes, partials):
    a = ctypes.c_int()
    if L.model_algo_from_name(algo.encode(), ctypes.byref(a)):
        raise ValueError("algo must be one of %s; got %r" % (", ".join(ALGOS), algo))
    cfg = L.ModelConfig(a.value, block, warp, banks, bank_bytes, elem_bytes, partials)
    d = dict(algo=algo, block=block, warp=warp, banks=banks, bank_bytes=bank_bytes,
             elem_bytes=elem_bytes, partials=partials)
    return context_for(ctx, None), cfg, d


def _step(s):
    return _plain(DivStep, s, part=L.model_part_name(s.part).decode(),
                  in_table=bool(s.in_table))


def _access(s):
    return _plain(BankAccess, s, part=L.model_part_name(s.part).decode(),
                  is_store=bool(s.is_store))


def divergence(algo: str, block: int = 256, warp: int = 0, banks: int = 0,
               bank_bytes: int = 0, elem_bytes: int = 0, partials: int = 0,
               ctx: Optional[Context] = None) -> Divergence:
    """Warp divergence of every statement of `algo` for one block (0: the default
    in include/gpuprims.h: warp 32, ...)."""
    c, cfg, d = _config(ctx, algo, block, warp, banks, bank_bytes, elem_bytes, partials)
    steps = (L.DivStep * L.MODEL_MAX_STEPS)()
    n, tot = ctypes.c_size_t(), L.DivTotal()
    c._call(L.model_divergence, ctypes.byref(cfg), steps, L.MODEL_MAX_STEPS,
            ctypes.byref(n), ctypes.byref(tot))
    return Divergence(d, [_step(steps[i]) for i in range(n.value)],
                      DivTotal(_plain(DivSum, tot.table), _plain(DivSum, tot.kernel)))


def banks(algo: str, block: int = 256, warp: int = 0, banks: int = 0,
          bank_bytes: int = 0, elem_bytes: int = 0, partials: int = 0,
          ctx: Optional[Context] = None) -> Banks:
    """Bank behaviour of every shared-memory access `algo` makes, for one block."""
    c, cfg, d = _config(ctx, algo, block, warp, banks, bank_bytes, elem_bytes, partials)
    cap = 3 * L.MODEL_MAX_STEPS
    acc = (L.BankAccess * cap)()
    n, tot = ctypes.c_size_t(), L.BankTotal()
    c._call(L.model_banks, ctypes.byref(cfg), acc, cap, ctypes.byref(n),
            ctypes.byref(tot))
    return Banks(d, [_access(acc[i]) for i in range(n.value)], _plain(BankTotal, tot))


def bank_stride(stride: int, block: int = 32, warp: int = 0, banks: int = 0,
                bank_bytes: int = 0, elem_bytes: int = 0,
                ctx: Optional[Context] = None) -> BankStride:
    """Every thread of a block loads a[tid * stride]: the bank degree of that access."""
    c, cfg, d = _config(ctx, "sequential", block, warp, banks, bank_bytes, elem_bytes, 0)
    del d["algo"], d["partials"]
    out, deg = L.BankAccess(), ctypes.c_uint()
    c._call(L.model_bank_stride, ctypes.byref(cfg), stride, ctypes.byref(out),
            ctypes.byref(deg))
    return BankStride(d, stride, _access(out), deg.value)


def span(n: int, blocks: int, block: int = 256, phase2_block: int = 0,
         design: str = "chapter", ctx: Optional[Context] = None) -> Span:
    """Work and span of the two-phase reduction of n elements over `blocks` blocks of
    `block` threads, phase 2 as `design` says ("chapter", "multi-level", "library",
    "seed")."""
    if design not in SPAN_DESIGNS:
        raise ValueError("design must be one of %s; got %r" % (", ".join(SPAN_DESIGNS),
                                                               design))
    c = context_for(ctx, None)
    cfg, r = L.SpanConfig(n, blocks, block, phase2_block), L.SpanResult()
    c._call(L.model_span, ctypes.byref(cfg), SPAN_DESIGNS.index(design), ctypes.byref(r))
    stages = [_plain(SpanStage, r.stage[i], grid_stride=bool(r.stage[i].grid_stride))
              for i in range(r.nstages)]
    return _plain(Span, r, design=design, stages=stages)
