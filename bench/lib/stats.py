"""Figures from samples: percentiles, ratios, rounding and intervals, all None-tolerant."""
from __future__ import annotations

import math
from typing import overload


def percentile(values: list[float], q: float) -> float | None:
    """The nearest-rank percentile `q` (a share, 0.99 for p99) of `values`; None for none."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1))]


def hist_percentile(hist: dict[int, int], q: float) -> float | None:
    """Nearest-rank percentile of a histogram (value: count or weight), as a value: the
    least value with at least a share `q` of the total at or below it. (For whole counts,
    `seen >= q * total` is `seen >= ceil(q * total)`; the tolerance is for the float weights
    of a wrk percentile grid, where p50's point holds exactly half.)"""
    total = sum(hist.values())
    if not total:
        return None
    need = q * total * (1 - 1e-9)
    seen = 0.0
    for value in sorted(hist):
        seen += hist[value]
        if seen >= need:
            return value
    return max(hist)


def latency_bucket_us(seconds: float) -> int:
    """Microseconds rounded to 3 significant digits (as wrk's histogram in bench/lib/wrk.py)."""
    us = seconds * 1e6
    if us < 1000:
        return int(us)
    scale = 10 ** (math.floor(math.log10(us)) - 2)
    return int(math.floor(us / scale + 0.5) * scale)


def ratio(a: float | None, b: float | None) -> float | None:
    """a / b; None when either is missing or b is 0."""
    return None if a is None or b is None or b == 0 else a / b


def rate(count: float, elapsed: float | None) -> float | None:
    """count per second; None without a positive time."""
    return None if elapsed is None or elapsed <= 0 else count / elapsed


def rounded(x: float | None, digits: int = 1) -> float | None:
    """`x` rounded to `digits` places; None stays None."""
    return None if x is None else round(x, digits)


@overload
def ms(seconds: float) -> float: ...
@overload
def ms(seconds: None) -> None: ...
@overload
def ms(seconds: float | None) -> float | None: ...


def ms(seconds: float | None) -> float | None:
    """Seconds as milliseconds; None stays None."""
    return None if seconds is None else seconds * 1000


def percent(share: float | None) -> float | None:
    """A share (0.5) as a percentage (50); None stays None."""
    return None if share is None else share * 100


def summary_ms(seconds: list[float], digits: int = 2) -> dict[str, float | int | None]:
    """n, p50, p99 and max of `seconds`, the last three in milliseconds rounded to `digits`."""
    return {"n": len(seconds),
            "p50": rounded(ms(percentile(seconds, 0.50)), digits),
            "p99": rounded(ms(percentile(seconds, 0.99)), digits),
            "max": rounded(ms(max(seconds)) if seconds else None, digits)}


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score 95% interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentiles(values: list[float], shares: tuple[float, ...] = (0.5, 0.9, 0.99),
                digits: int = 3) -> dict[str, float | None]:
    """{"p50": ..., "p90": ..., "p99": ...} of `values` (nearest rank), rounded to `digits`."""
    return {f"p{round(q * 100)}": rounded(percentile(values, q), digits) for q in shares}
