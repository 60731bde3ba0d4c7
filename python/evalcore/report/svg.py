"""Charts as inline SVG text: no plotting library, no font or script from anywhere else.
Every chart is ``role="img"`` with a ``<title>`` (its heading) and a ``<desc>`` (a text
alternative saying what it shows in numbers), so that a screen reader and a test can read
it; the numbers drawn are the ones given, to 4 decimals in the text."""

from __future__ import annotations

import html
import math
from typing import List, Mapping, Sequence, Tuple

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 28, 36
# Colour-blind-safe categorical colours (Okabe and Ito); wins and losses in blue and vermilion.
COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
WIN, LOSS = "#0072B2", "#D55E00"


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _frame(title: str, alt: str, body: List[str], height: int = HEIGHT) -> str:
    return (f'<svg class="chart" role="img" aria-label="{_e(title)}" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" '
            f'height="{height}"><title>{_e(title)}</title><desc>{_e(alt)}</desc>'
            f'<text x="{WIDTH / 2}" y="16" text-anchor="middle" font-weight="bold">{_e(title)}</text>'
            + "".join(body) + "</svg>")


def _scale(low: float, high: float, a: float, b: float):  # type: ignore[no-untyped-def]
    span = (high - low) or 1.0
    return lambda v: a + (v - low) / span * (b - a)


def _axis(low: float, high: float, y_of, label: str) -> List[str]:  # type: ignore[no-untyped-def]
    out = [f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}" stroke="#444"/>']
    for k in range(5):
        v = low + (high - low) * k / 4
        y = y_of(v)
        out.append(f'<text x="{LEFT - 4}" y="{y + 4:.1f}" text-anchor="end" font-size="10">{v:.2f}</text>'
                   f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" stroke="#ddd"/>')
    out.append(f'<text x="12" y="{HEIGHT / 2}" font-size="11" transform="rotate(-90 12 {HEIGHT / 2})" '
               f'text-anchor="middle">{_e(label)}</text>')
    return out


def differences(title: str, run: str, baseline: str, items: Sequence[Tuple[str, float]]) -> str:
    """Per-query differences run − baseline as bars, sorted from the largest win to the
    largest loss; wins, losses and ties counted in the text alternative and the legend."""
    ordered = sorted(items, key=lambda x: (-x[1], x[0]))
    wins = sum(1 for _, d in ordered if d > 0)
    losses = sum(1 for _, d in ordered if d < 0)
    ties = len(ordered) - wins - losses
    alt = (f"{run} minus {baseline} per query, {len(ordered)} paired queries sorted by difference: {wins} wins, "
           f"{losses} losses, {ties} ties" + (f"; largest win {ordered[0][1]:.4f} ({ordered[0][0]}), largest loss "
                                              f"{ordered[-1][1]:.4f} ({ordered[-1][0]})" if ordered else ""))
    bound = max([abs(d) for _, d in ordered] + [1e-12])
    y_of = _scale(-bound, bound, HEIGHT - BOTTOM, TOP)
    body = _axis(-bound, bound, y_of, f"{run} − {baseline}")
    step = (WIDTH - LEFT - RIGHT) / max(len(ordered), 1)
    zero = y_of(0.0)
    for i, (query, d) in enumerate(ordered):
        y = y_of(d)
        body.append(f'<rect x="{LEFT + i * step + step * 0.1:.1f}" y="{min(y, zero):.1f}" width="{step * 0.8:.1f}" '
                    f'height="{max(abs(zero - y), 0.5):.1f}" fill="{WIN if d > 0 else LOSS if d < 0 else "#888"}">'
                    f'<title>{_e(query)}: {d:.4f}</title></rect>')
    body.append(f'<text x="{LEFT}" y="{HEIGHT - 12}" font-size="11">{wins} wins · {losses} losses · {ties} ties '
                f'(queries sorted by difference)</text>')
    return _frame(title, alt, body)


def distributions(title: str, series: Mapping[str, Sequence[float]], label: str) -> str:
    """Per run, its per-query values as points with a box (quartiles, median line)."""
    def quartiles(values: List[float]) -> Tuple[float, float, float]:
        def q(p: float) -> float:  # linear interpolation (numpy's default)
            h = (len(values) - 1) * p
            i = math.floor(h)
            return values[i] if i + 1 >= len(values) else values[i] + (h - i) * (values[i + 1] - values[i])
        return q(0.25), q(0.5), q(0.75)

    clean = {run: sorted(v for v in values if not math.isnan(v)) for run, values in series.items()}
    every = [v for values in clean.values() for v in values] or [0.0, 1.0]
    low, high = min(min(every), 0.0), max(max(every), 1e-12)
    y_of = _scale(low, high, HEIGHT - BOTTOM, TOP)
    body = _axis(low, high, y_of, label)
    step = (WIDTH - LEFT - RIGHT) / max(len(clean), 1)
    parts = []
    for i, (run, values) in enumerate(clean.items()):
        x = LEFT + step * (i + 0.5)
        colour = COLOURS[i % len(COLOURS)]
        if values:
            q1, med, q3 = quartiles(values)
            parts.append(f"{run}: {len(values)} queries, median {med:.4f}, quartiles {q1:.4f} and {q3:.4f}, "
                         f"range {values[0]:.4f} to {values[-1]:.4f}")
            body.append(f'<rect x="{x - step * 0.2:.1f}" y="{y_of(q3):.1f}" width="{step * 0.4:.1f}" '
                        f'height="{max(y_of(q1) - y_of(q3), 0.5):.1f}" fill="none" stroke="{colour}"/>'
                        f'<line x1="{x - step * 0.2:.1f}" x2="{x + step * 0.2:.1f}" y1="{y_of(med):.1f}" '
                        f'y2="{y_of(med):.1f}" stroke="{colour}" stroke-width="2"/>')
            for k, v in enumerate(values):
                jitter = ((k * 37) % 17 - 8) / 8 * step * 0.15
                body.append(f'<circle cx="{x + jitter:.1f}" cy="{y_of(v):.1f}" r="2" fill="{colour}" '
                            f'fill-opacity="0.6"/>')
        else:
            parts.append(f"{run}: no query defines it")
        body.append(f'<text x="{x:.1f}" y="{HEIGHT - 20}" text-anchor="middle" font-size="11">{_e(run)}</text>')
    return _frame(title, f"Per-query {label}: " + "; ".join(parts) + ".", body)


def curves(title: str, series: Mapping[str, Sequence[Tuple[float, float]]], x_label: str, y_label: str) -> str:
    """Lines through (x, y) points per run (the 11-point interpolated precision-recall
    curves), with a legend."""
    x_of = _scale(0.0, 1.0, LEFT, WIDTH - RIGHT - 90)
    y_of = _scale(0.0, 1.0, HEIGHT - BOTTOM, TOP)
    body = _axis(0.0, 1.0, y_of, y_label)
    body.append(f'<text x="{(LEFT + WIDTH - RIGHT - 90) / 2}" y="{HEIGHT - 8}" text-anchor="middle" '
                f'font-size="11">{_e(x_label)}</text>')
    parts = []
    for i, (run, points) in enumerate(series.items()):
        colour = COLOURS[i % len(COLOURS)]
        path = " ".join(f"{x_of(x):.1f},{y_of(y):.1f}" for x, y in points if not math.isnan(y))
        body.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        body.append(f'<text x="{WIDTH - RIGHT - 84}" y="{TOP + 14 * i + 10}" font-size="11" fill="{colour}">'
                    f'{_e(run)}</text>')
        parts.append(f"{run}: " + ", ".join(f"{y:.4f}" for _, y in points))
    return _frame(title, f"{y_label} at {x_label} " + ", ".join(f"{x:.1f}" for x, _ in next(iter(series.values()), []))
                  + ": " + "; ".join(parts) + ".", body)


def bars(title: str, groups: Mapping[str, Mapping[str, float]], y_label: str) -> str:
    """Grouped bars: per group (a label), one bar per series (precision, recall, F1)."""
    names = list(next(iter(groups.values()), {}).keys())
    y_of = _scale(0.0, 1.0, HEIGHT - BOTTOM, TOP)
    body = _axis(0.0, 1.0, y_of, y_label)
    step = (WIDTH - LEFT - RIGHT) / max(len(groups), 1)
    width = step * 0.8 / max(len(names), 1)
    for i, (group, values) in enumerate(groups.items()):
        for k, name in enumerate(names):
            v = values[name]
            if math.isnan(v):
                continue
            body.append(f'<rect x="{LEFT + i * step + step * 0.1 + k * width:.1f}" y="{y_of(v):.1f}" '
                        f'width="{width:.1f}" height="{y_of(0.0) - y_of(v):.1f}" fill="{COLOURS[k % len(COLOURS)]}">'
                        f'<title>{_e(group)} {_e(name)}: {v:.4f}</title></rect>')
        body.append(f'<text x="{LEFT + (i + 0.5) * step:.1f}" y="{HEIGHT - 20}" text-anchor="middle" '
                    f'font-size="11">{_e(group)}</text>')
    for k, name in enumerate(names):
        body.append(f'<text x="{WIDTH - RIGHT - 60}" y="{TOP + 14 * k + 10}" font-size="11" '
                    f'fill="{COLOURS[k % len(COLOURS)]}">{_e(name)}</text>')
    alt = "; ".join(f"{g}: " + ", ".join(f"{n} {v:.4f}" for n, v in values.items()) for g, values in groups.items())
    return _frame(title, alt + ".", body)
