"""/compare/: the measurements of every claim, per metric, as build-time charts.

Each chart plots one metric's values against model size (log scale; a slot at
the left holds measurements that state no size), one mark per measurement,
shaped and coloured by number format. Geometry is computed here and drawn by
the `compare.html` template, so the SVG is deterministic and escaped like any
page; the same rows feed the table beside each chart.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import NamedTuple

from lowprec_map.content.entry import Entry
from lowprec_map.schema.claims import Measurement, Setting
from lowprec_map.schema.frame import Metric
from lowprec_map.site.reads import Reader
from lowprec_map.site.views import Row, in_file_order, measurement_domain, measurement_rows

WIDTH, HEIGHT = 640, 360
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 16, 48
UNSIZED_SLOT = 48  # width of the 'size not stated' column left of the size axis
SHAPES = ("circle", "square", "triangle", "diamond", "cross", "star")


class Mark(NamedTuple):
    """A measurement's place on its chart (`low`/`high` span a range): drawn as a card of
    its claim, so a save redraws only the marks of the claims it changed."""

    claim: Entry
    position: int  # of the measurement in the claim's list
    x: float
    y: float
    low: float
    high: float
    shape: str
    format: str


@dataclass(frozen=True)
class Chart:
    """One metric's chart as drawn around its marks: axes, ticks and the legend's formats
    (numbers and names only: the entries it plots come beside it, in `MetricChart`)."""

    x_ticks: list[tuple[float, str]]
    y_ticks: list[tuple[float, str]]
    formats: list[tuple[str, str]]  # (format, shape), in legend order
    reference: float | None  # y of the no-change line, when it is in view
    has_unsized: bool
    width: int = WIDTH
    height: int = HEIGHT

    @property
    def plot(self) -> tuple[int, int, int, int]:
        """The plot area: left, top, right, bottom."""
        return LEFT, TOP, self.width - RIGHT, self.height - BOTTOM


class MetricChart(NamedTuple):
    """A metric with measurements: its chart, its table's rows, the chart's marks, and what
    on it compares like for like."""

    metric: Entry
    chart: Chart
    rows: list[Row]
    marks: list[Mark]
    comparable: list[str]


# The precision a baseline names first ('BF16 rollout' -> 'BF16'), so a reader can keep
# the marks measured against one kind of baseline.
_BASELINE_FORMAT = re.compile(
    r"\b(bf16|fp16|fp32|tf32|mxfp8|fp8|nvfp4|mxfp4|fp4|int8|int4|w8a8|w4a16|16-bit"
    r"|single-precision|half-precision)\b",
    re.I,
)
_FORMAT_WORDS = {"SINGLE-PRECISION": "FP32", "HALF-PRECISION": "FP16", "16-BIT": "16-bit"}
OTHER_BASELINE = "a method (no precision named)"


def baseline_group(measurement: Measurement) -> str:
    """'BF16', 'FP8', ... the precision the baseline names first; OTHER_BASELINE when it
    names none (no speculative decoding, dense attention, the same run without a fix)."""
    found = _BASELINE_FORMAT.search(measurement.baseline)
    if found is None:
        return OTHER_BASELINE
    name = found.group(1).upper()
    return _FORMAT_WORDS.get(name, name)


def comparability(rows: list[Row]) -> list[str]:
    """What the marks of one chart have in common and where they differ, in sentences."""
    measured = [r.measurement for r in rows]
    groups = Counter(baseline_group(m) for m in measured).most_common()
    against = ", ".join(f"{n} {g}" for g, n in groups)
    tasks = len({(m.setting.task if m.setting else None) for m in measured})
    lines = [
        "Like for like only within one baseline and one setting. "
        f"Baselines: {against}; {tasks} different setting{'s' if tasks != 1 else ''}."
    ]
    printed = sum(1 for m in measured if m.printed)
    if printed:
        lines.append(
            f"{printed} printed as a percentage, shown as a ratio: N % faster as 1 + N/100, "
            "N % less time as 1 / (1 − N/100), and an 'N % speedup' that does not say which "
            "as the range between the two; each row says how it was printed."
        )
    plotted = sum(1 for m in measured if m.read_from == "plot")
    if plotted:
        lines.append(f"{plotted} read off a plot: approximate (≈, hollow marks).")
    return lines


def metric_charts(
    reader: Reader, domain: str | None = None
) -> tuple[list[MetricChart], list[Entry]]:
    """A chart per metric with measurements (from `domain` only, if given), and the metrics
    that have none there."""
    by_metric: dict[str, list[Row]] = {}
    for row in measurement_rows(reader.entries("claim")):
        m = row.measurement
        if domain is None or measurement_domain(m, reader.get("dossier", m.source)) == domain:
            by_metric.setdefault(m.metric, []).append(row)
    charts, empty = [], []
    for metric in in_file_order(reader.entries("metric")):
        mine = by_metric.get(metric.id)
        if mine:
            charts.append(_chart(metric, mine))
        else:
            empty.append(metric)
    return charts, empty


def _chart(metric: Entry, rows: list[Row]) -> MetricChart:
    assert isinstance(metric.model, Metric)
    left, top, right, bottom = LEFT, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM
    reference = metric.model.no_change
    measured = [r.measurement for r in rows]
    values = [v for m in measured for v in (m.low, m.high)]
    y_min, y_max, y_ticks = _nice_range([*values, *([reference] if reference is not None else [])])

    def y_of(value: float) -> float:
        return round(bottom - (value - y_min) / (y_max - y_min) * (bottom - top), 1)

    sizes = [m.size_b for m in measured if m.size_b is not None]
    has_unsized = len(sizes) < len(rows)
    axis_left = left + (UNSIZED_SLOT if has_unsized else 0)
    x_of, x_ticks = _log_axis(sizes, axis_left + 12, right - 12)
    formats = list(dict.fromkeys(sorted(m.format for m in measured)))
    shapes = {f: SHAPES[i % len(SHAPES)] for i, f in enumerate(formats)}
    # Marks at the same place are spread sideways by format, so none hides another.
    offsets = {f: (i - (len(formats) - 1) / 2) * 7 for i, f in enumerate(formats)}
    marks = []
    taken: dict[tuple[float, float], int] = {}  # marks already at a place
    for row, m in zip(rows, measured, strict=True):
        x = x_of(m.size_b) if m.size_b is not None else left + UNSIZED_SLOT / 2
        x, y = x + offsets[m.format], y_of((m.low + m.high) / 2)
        # Equal values at one size (two batch sizes, say) would hide each other.
        nudge = taken.get((x, y), 0)
        taken[(x, y)] = nudge + 1
        marks.append(
            Mark(
                row.claim,
                row.position,
                round(x + 9 * nudge, 1),
                y,
                y_of(m.low),
                y_of(m.high),
                shapes[m.format],
                m.format,
            )
        )
    if has_unsized:
        x_ticks = [(left + UNSIZED_SLOT / 2, "n/s"), *x_ticks]
    chart = Chart(
        x_ticks,
        [(y_of(v), _number(v)) for v in y_ticks],
        [(f, shapes[f]) for f in formats],
        y_of(reference) if reference is not None else None,
        has_unsized,
    )
    return MetricChart(metric, chart, rows, marks, comparability(rows))


def _nice_range(values: list[float]) -> tuple[float, float, list[float]]:
    """An axis range covering `values` on round steps (1, 2 or 5 × 10^k), and its ticks."""
    low, high = min(values), max(values)
    if low == high:
        low, high = low - 1, high + 1
    raw = (high - low) / 5
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(s * magnitude for s in (1, 2, 5, 10) if s * magnitude >= raw)
    start, stop = math.floor(low / step) * step, math.ceil(high / step) * step
    count = round((stop - start) / step)
    ticks = [round(start + i * step, 10) for i in range(count + 1)]
    return start, stop, ticks


def _log_axis(
    sizes: list[float], left: float, right: float
) -> tuple[_XScale, list[tuple[float, str]]]:
    """A log2 scale of model sizes over [left, right], with ticks at powers of two."""
    if not sizes:
        return _XScale(0, 1, left, right), []
    low = 2 ** math.floor(math.log2(min(sizes)))
    high = 2 ** math.ceil(math.log2(max(sizes)))
    if low == high:
        low, high = low / 2, high * 2
    scale = _XScale(math.log2(low), math.log2(high), left, right)
    ticks, tick = [], low
    while tick <= high:
        ticks.append((scale(tick), f"{_number(tick)}B"))
        tick *= 2
    return scale, ticks


@dataclass(frozen=True)
class _XScale:
    low: float
    high: float
    left: float
    right: float

    def __call__(self, size: float) -> float:
        share = (math.log2(size) - self.low) / (self.high - self.low)
        return round(self.left + share * (self.right - self.left), 1)


def _number(value: float) -> str:
    """A value as people write it: 2 not 2.0, 0.5 not .5 (and 3, not 3.0000000000000004
    after scaling)."""
    return f"{float(f'{value:.12g}'):g}"


# Units that read better scaled: a 3 KB policy is not '3e-06 GB'. Each: (below, factor, unit).
_SCALED_UNITS = {
    "GB": ((1e-3, 1e6, "KB"), (1.0, 1e3, "MB")),
    "s": ((1.0, 1e3, "ms"),),
}


def value_text(measurement: Measurement, unit: str) -> str:
    """'1.8×', '2–3 points', '≈0.59 points' (read off a plot), '3 KB': a measurement's value
    or range in a unit that fits it."""
    if measurement.printed is None:
        text = number_text(measurement.values, unit)
    else:  # a converted percentage: two decimals, and how the source printed it
        printed = number_text(measurement.printed_values, "%")
        text = number_text([round(v, 2) for v in measurement.values], unit)
        text = f"{text} ({PRINTED_AS[measurement.printed].format(printed)})"
    return "≈" + text if measurement.read_from == "plot" else text


# How a speedup printed as a percentage reads beside its ratio, and how it was converted.
PRINTED_AS = {
    "percent-gain": "printed as {} faster",
    "percent-time-cut": "printed as {} less time",
    "percent-speedup": "printed as a {} speedup",
}


def baseline_text(measurement: Measurement, unit: str) -> str:
    """The baseline, with its own value when the source gives it: 'BF16 rollout (0.0006)';
    read off a plot, like the value, it is approximate."""
    given = measurement.baseline_value
    values = [given] if given is not None else measurement.baseline_range
    if values is None:
        return measurement.baseline
    approx = "≈" if measurement.read_from == "plot" else ""
    return f"{measurement.baseline} ({approx}{number_text(list(values), unit)})"


def number_text(values: list[float], unit: str) -> str:
    """One value or a low–high range in `unit`, scaled to a smaller unit when it reads
    better ('3 KB', not '3e-06 GB')."""
    top = max(abs(v) for v in values)
    for below, factor, smaller in _SCALED_UNITS.get(unit, ()):
        if 0 < top < below:
            values, unit = [v * factor for v in values], smaller
            break
    text = "–".join(_number(v) for v in values)
    return f"{text}{unit}" if unit in ("×", "%") else f"{text} {unit}"


def setting_text(setting: Setting | None) -> str:
    """'GSM8K · 2,048 tokens · batch 8': the parts of a setting the source states."""
    if setting is None:
        return ""
    batch = f"batch {setting.batch}" if setting.batch else None
    return " · ".join(p for p in (setting.task, setting.length, batch) if p)
