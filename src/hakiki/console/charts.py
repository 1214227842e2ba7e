"""Server-rendered SVG charts (no script, no third-party asset): the geometry of a grouped bar
chart and of a line, with round ticks for the y axis; the templates draw them with axes and a
legend."""

from __future__ import annotations

from dataclasses import dataclass, field

WIDTH = 640
HEIGHT = 240
LEFT = 70  # room for the y axis' labels
TOP = 12
BOTTOM = 200  # the x axis
RIGHT = WIDTH - 10


def ticks(low: int, high: int, count: int = 5) -> list[int]:
    """Round values covering ``low``..``high`` (0 included), about ``count`` of them."""
    low, high = min(low, 0), max(high, 0)
    span = max(high - low, 1)
    step, scale = 1, 1
    while span / step > count:
        for factor in (2, 5, 10):
            step = factor * scale
            if span / step <= count:
                break
        else:
            scale *= 10
            continue
        break
    start = (low // step) * step
    return list(range(start, high + step, step))


@dataclass
class Chart:
    labels: list[str]
    y_ticks: list[tuple[float, str]] = field(default_factory=list)  # (y, label)
    bars: list[dict[str, object]] = field(default_factory=list)  # x, y, height, series, title
    line: str = ""  # an SVG path
    points: list[dict[str, object]] = field(default_factory=list)
    x_labels: list[tuple[float, str]] = field(default_factory=list)
    zero: float = BOTTOM
    width: int = WIDTH
    height: int = HEIGHT


def _scale(values: list[int]) -> tuple[list[int], float, float]:
    marks = ticks(min(values, default=0), max(values, default=0))
    low, high = marks[0], marks[-1]
    per_unit = (BOTTOM - TOP) / max(high - low, 1)
    return marks, low, per_unit


def _money(value: int) -> str:
    """Minor units as major units with thousands separators (axis labels)."""
    return f"{value / 100:,.0f}"


def bars(labels: list[str], series: dict[str, list[int]]) -> Chart:
    """Grouped bars: one group per label, one bar per series (in minor units)."""
    values = [v for vs in series.values() for v in vs]
    marks, low, per_unit = _scale(values)
    chart = Chart(labels)

    def y_of(value: int) -> float:
        return round(BOTTOM - (value - low) * per_unit, 1)

    chart.y_ticks = [(y_of(m), _money(m)) for m in marks]
    chart.zero = y_of(0)
    slot = (RIGHT - LEFT) / max(len(labels), 1)
    width = min(28.0, slot * 0.8 / max(len(series), 1))
    for n, label in enumerate(labels):
        left = LEFT + n * slot + (slot - width * len(series)) / 2
        for s, (name, data) in enumerate(series.items()):
            top, bottom = sorted((y_of(data[n]), chart.zero))
            chart.bars.append(
                {
                    "x": round(left + s * width, 1),
                    "y": top,
                    "width": round(width, 1),
                    "height": round(bottom - top, 1),
                    "series": name,
                    "title": f"{label}: {name} {_money(data[n])}",
                }
            )
        chart.x_labels.append((round(LEFT + n * slot + slot / 2, 1), label))
    return chart


def line(labels: list[str], values: list[int | None]) -> Chart:
    """A line through the known values (a month without one is skipped)."""
    known = [v for v in values if v is not None]
    marks, low, per_unit = _scale(known)
    chart = Chart(labels)

    def y_of(value: int) -> float:
        return round(BOTTOM - (value - low) * per_unit, 1)

    chart.y_ticks = [(y_of(m), _money(m)) for m in marks]
    chart.zero = y_of(0)
    slot = (RIGHT - LEFT) / max(len(labels), 1)
    path: list[str] = []
    for n, (label, value) in enumerate(zip(labels, values, strict=True)):
        x = round(LEFT + n * slot + slot / 2, 1)
        chart.x_labels.append((x, label))
        if value is None:
            continue
        y = y_of(value)
        path.append(f"{'M' if not path else 'L'}{x},{y}")
        chart.points.append({"x": x, "y": y, "title": f"{label}: {_money(value)}"})
    chart.line = " ".join(path)
    return chart
