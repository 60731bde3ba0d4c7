"""Measuring helpers shared by the benchmarks: timing, peak memory, versions."""

from __future__ import annotations

import gc
import hashlib
import json
import resource
import statistics
import sys
import time
from typing import Any, Callable, List, Optional, Tuple

def maxrss_mb() -> float:
    """ru_maxrss in MiB; on Linux it can be the parent's peak (vfork + exec), so VmHWM is
    preferred below and this is the fallback where /proc is missing."""
    scale = 1 if sys.platform == "darwin" else 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / scale / 1024


def proc_status_mb(field: str) -> Optional[float]:
    """VmRSS (resident now) or VmHWM (peak resident) from /proc/self/status, in MiB."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024  # kB
    except OSError:  # not Linux
        pass
    return None


def reset_peak() -> bool:
    """Reset VmHWM to the current RSS (Linux >= 4.0: write 5 to /proc/self/clear_refs)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def peak_mb() -> float:
    hwm = proc_status_mb("VmHWM")
    return maxrss_mb() if hwm is None else hwm


def digest(value: Any) -> str:
    # repr of a float round-trips, so equal digests mean equal (==) responses.
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def time_calls(fn: Callable[[], Any], repeats: int) -> List[float]:
    times = []
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        fn()  # the result is dropped at once, so at most one result is alive at a time
        times.append(time.perf_counter() - start)
    return times


def dist_version(name: str) -> str:
    try:
        from importlib.metadata import version

        return version(name)
    except Exception:  # the figure is informative only
        return "unknown"


def mb(x: Optional[float]) -> str:
    return "-" if x is None else f"{x:.0f}"


def median_seconds_per_call(fn: Callable[[], Any], repeats: int, min_repeat_seconds: float) -> Tuple[float, int]:
    """Median over `repeats` of (wall time of N calls) / N, and the N used.

    One warm-up call first (first-call costs: caches, lazy imports, allocator growth).
    N is chosen like ``timeit.autorange``: the smallest 1, 2, 5, 10, 20, ... whose batch
    takes at least `min_repeat_seconds`, so timer resolution and per-batch noise stay
    small compared with the batch. The median, not the mean, so that one disturbed
    batch (scheduler, GC) does not move the figure.
    """
    fn()
    n = 1
    while True:
        for step in (1, 2, 5):
            calls = n * step
            start = time.perf_counter()
            for _ in range(calls):
                fn()
            if time.perf_counter() - start >= min_repeat_seconds:
                break
        else:
            n *= 10
            continue
        break
    per_call: List[float] = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        per_call.append((time.perf_counter() - start) / calls)
    return statistics.median(per_call), calls


def median_time(fn: Callable[[], Any], repeats: int) -> float:
    return statistics.median(time_calls(fn, repeats))
