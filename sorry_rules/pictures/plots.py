"""Plots of simulations, hand-written SVG: the game length distribution (a histogram of
games per length in turns) and the win rate of every seat with its 95% interval (error
bars); for a comparison, both sides in each panel, side by side.

Input is the JSON-ready report of `simulation.simreport` (`summary` or `comparison`), read
as plain data: `length.turns_counts` (games per exact length), `wins.by_seat` (`seat`,
`colour`, `rate`, `ci95`), `variant.name`, `games`, `players`, `bots`. The report's `run`
block (timing) is never read, so the same command draws the same bytes.

Elements carry what tests read: `rect.bar[data-side][data-from][data-to][data-games]`,
`rect.rate[data-side][data-seat][data-rate]`, `line.ci[data-side][data-seat][data-low][data-high]`.
"""

from __future__ import annotations

import math

from sorry_rules.pictures.svg import FONT, document, element, num

PANEL_W, PANEL_H = 420.0, 260.0
LEFT, TOP, BOTTOM, GAP = 52.0, 52.0, 46.0, 40.0
SIDE_FILLS = {"a": "#4c72b0", "b": "#dd8452"}
BINS = 20


def bins_of(counts_by_side: dict, bins: int = BINS) -> list:
    """Common bins `(low, high)` of whole numbers, of one nice width, covering every length
    of every side."""
    values = [int(v) for counts in counts_by_side.values() for v in counts]
    if not values:
        return []
    low, high = min(values), max(values)
    width = _nice_width((high - low + 1) / bins)
    start = low - low % width
    return [(edge, edge + width - 1) for edge in range(start, high + 1, width)]


def _nice_width(raw: float) -> int:
    """The smallest whole 1, 2, 2.5 or 5 times a power of ten that is at least `raw`."""
    power = 1
    while True:
        for m in (1, 2, 2.5, 5):
            if m * power >= raw and float(m * power).is_integer():
                return int(m * power)
        power *= 10


def _ticks(top: float, count: int = 5) -> list:
    """Nice tick values from 0 to at least `top`."""
    if top <= 0:
        return [0, 1]
    raw = top / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    return [step * i for i in range(int(math.ceil(top / step - 1e-9)) + 1)]


def _label(value: float, percent: bool) -> str:
    return f"{num(value * 100)}%" if percent else f"{int(value):,}" if value == int(value) else num(value)


def _axes(x0: float, y0: float, ticks: list, percent: bool, title: str, xlabel: str) -> list:
    """A panel's frame: its title, the y axis with grid lines, the x axis label."""
    top = ticks[-1]
    out = [element("text", {"class": "panel-title", "x": num(x0), "y": num(y0 - 16), "font-size": "13",
                            "font-weight": "bold", "style": FONT}, title)]
    for value in ticks:
        y = y0 + PANEL_H - PANEL_H * value / top
        out.append(element("line", {"x1": num(x0), "y1": num(y), "x2": num(x0 + PANEL_W), "y2": num(y), "stroke": "#ddd"}))
        out.append(element("text", {"x": num(x0 - 5), "y": num(y + 4), "font-size": "10", "text-anchor": "end",
                                    "style": FONT}, _label(value, percent)))
    out.append(element("line", {"x1": num(x0), "y1": num(y0 + PANEL_H), "x2": num(x0 + PANEL_W), "y2": num(y0 + PANEL_H),
                                "stroke": "#333"}))
    out.append(element("text", {"x": num(x0 + PANEL_W / 2), "y": num(y0 + PANEL_H + 36), "font-size": "11",
                                "text-anchor": "middle", "style": FONT}, xlabel))
    return out


def histogram_panel(sides: dict, x0: float, y0: float) -> list:
    """Games per length in turns, one bar per side in every bin. `sides`: name -> report."""
    counts = {name: {int(k): v for k, v in report["length"]["turns_counts"].items()} for name, report in sides.items()}
    bins = bins_of(counts)
    games = {name: [sum(c for v, c in counts[name].items() if lo <= v <= hi) for lo, hi in bins] for name in sides}
    ticks = _ticks(max([g for values in games.values() for g in values], default=1))
    out = _axes(x0, y0, ticks, False, "Game length (turns)", "turns per game (finished games)")
    if not bins:
        return out
    slot = PANEL_W / len(bins)
    bar = slot * 0.9 / len(sides)
    for b, (lo, hi) in enumerate(bins):
        for k, name in enumerate(sides):
            n = games[name][b]
            h = PANEL_H * n / ticks[-1]
            out.append(element("rect", {"class": "bar", "data-side": name, "data-from": lo, "data-to": hi, "data-games": n,
                                        "x": num(x0 + b * slot + slot * 0.05 + k * bar), "y": num(y0 + PANEL_H - h),
                                        "width": num(bar), "height": num(h), "fill": SIDE_FILLS[name]}))
    every = max(1, math.ceil(len(bins) / 8))
    for b in range(0, len(bins), every):
        out.append(element("text", {"x": num(x0 + b * slot + slot / 2), "y": num(y0 + PANEL_H + 14), "font-size": "10",
                                    "text-anchor": "middle", "style": FONT}, f"{bins[b][0]}"))
    return out


def win_panel(sides: dict, x0: float, y0: float) -> list:
    """Win rate by seat with 95% intervals, one bar per side at every seat."""
    seats = max(len(report["wins"]["by_seat"]) for report in sides.values())
    highs = [row["ci95"][1] for report in sides.values() for row in report["wins"]["by_seat"] if row["ci95"]]
    ticks = _ticks(max(highs, default=1.0))
    out = _axes(x0, y0, ticks, True, "Win rate by seat (95% interval)", "seat (colour)")
    slot = PANEL_W / seats
    bar = slot * 0.7 / len(sides)
    for k, (name, report) in enumerate(sides.items()):
        for row in report["wins"]["by_seat"]:
            s = row["seat"] - 1
            rate = row["rate"] or 0.0
            x = x0 + s * slot + slot * 0.15 + k * bar
            h = PANEL_H * rate / ticks[-1]
            out.append(element("rect", {"class": "rate", "data-side": name, "data-seat": row["seat"],
                                        "data-rate": num(rate * 100), "x": num(x), "y": num(y0 + PANEL_H - h), "width": num(bar),
                                        "height": num(h), "fill": SIDE_FILLS[name]}))
            if row["ci95"]:
                low, high = row["ci95"]
                yl, yh = y0 + PANEL_H - PANEL_H * low / ticks[-1], y0 + PANEL_H - PANEL_H * high / ticks[-1]
                cx = x + bar / 2
                out.append(element("line", {"class": "ci", "data-side": name, "data-seat": row["seat"],
                                            "data-low": num(low * 100), "data-high": num(high * 100), "x1": num(cx),
                                            "y1": num(yl), "x2": num(cx), "y2": num(yh), "stroke": "#111",
                                            "stroke-width": "1.5"}))
                for y in (yl, yh):
                    out.append(element("line", {"x1": num(cx - bar / 4), "y1": num(y), "x2": num(cx + bar / 4), "y2": num(y),
                                                "stroke": "#111", "stroke-width": "1.5"}))
    first = next(iter(sides.values()))
    for row in first["wins"]["by_seat"]:
        x = x0 + (row["seat"] - 0.5) * slot
        out.append(element("text", {"x": num(x), "y": num(y0 + PANEL_H + 14), "font-size": "10", "text-anchor": "middle",
                                    "style": FONT}, f"{row['seat']} ({row['colour']})"))
    return out


def _named(report: dict) -> str:
    """The variant of a report with its overlays: 'standard + house/quick-game.yaml'."""
    return report["variant"]["name"] + "".join(f" + {r}" for r in report["variant"]["rules"])


def _describe(report: dict) -> str:
    return (f"{_named(report)}: {report['games']:,} games, {report['players']} players, "
            f"bots {','.join(report['bots'])}, seed {report['seed']}")


def _figure(sides: dict, heading: list, title: str) -> str:
    y0 = TOP + 18 * len(heading)
    body = [element("text", {"x": num(LEFT), "y": num(20 + 18 * i), "font-size": "13", "style": FONT,
                             "fill": SIDE_FILLS[name] if name else "#222"}, text)
            for i, (name, text) in enumerate(heading)]
    body += histogram_panel(sides, LEFT, y0)
    body += win_panel(sides, LEFT * 2 + PANEL_W + GAP, y0)
    width = LEFT * 2 + 2 * PANEL_W + GAP + 20
    return document(width, y0 + PANEL_H + BOTTOM, body, title, "sorry-plot")


def simulation_svg(report: dict) -> str:
    """The plot of one simulation report (`simreport.summary`)."""
    return _figure({"a": report}, [(None, _describe(report))], f"simulation: {_named(report)}")


def comparison_svg(report: dict) -> str:
    """The plot of a comparison report (`simreport.comparison`): A and B side by side."""
    a, b = report["a"], report["b"]
    heading = [("a", "A: " + _describe(a)), ("b", "B: " + _describe(b))]
    return _figure({"a": a, "b": b}, heading, f"comparison: {_named(a)} and {_named(b)}")
