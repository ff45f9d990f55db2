"""Reports of simulations and comparisons: JSON-ready dicts and compact text for people.

Contract: pure functions of tallies and setups (no engine calls, no printing). Everything in
a report except its "run" block (engine, jobs, batch size, seconds, games per second)
depends only on the command's variant, overlays, players, bots, seed, games and max plies
(and, for a partial report, on which games finished: `mark_partial`).
Seats, turn-order positions and rates are reported 1-based and as fractions in JSON
(percentages in text). Confidence intervals are 95% Wilson score intervals over all games
played (stopped games count as games nobody won); a mean's interval is Student's t,
mean +- t(0.975, n - 1) sd / sqrt(n) (cut at 0 for counts and lengths). Lengths and per-game figures are over the games
that ended (won or drawn); the per-game figures are those of the game's board kind
(`simulate.metrics_of`). `draws`, `first_side` (the team of the seat that played first,
the figure for comparing sides of grid games) and wins `by_side` (per team) are reported for
every board kind. The median and 90th percentile of the length in turns are exact
(nearest-rank, from the exact count of games per length). A comparison gives each test's
raw p and its Holm-adjusted p over the rows shown (`_shown`) that have a p-value.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

from sorry_rules.base.words import place_word, plural
from sorry_rules.simulation.simstats import Moments, histogram, holm, quantile, t95, two_proportion_z, welch_t, wilson
from sorry_rules.simulation.simulate import COUNTER, PLACE, SCORE, WINNER_SCORE, metrics_of

TURN_NOTE = ("a turn is one player's turn including draw-again plays and exchanges; a ply is one card played, "
             "forfeited, discarded or exchanged, or a pass")
SEED_NOTE = 'game i (0-based) is new_game(seed_state("simulate", S, i)); bots are make_player(kind, that seed, seat)'
#: Per-game figures the text report shows even when they are zero.
SHOWN = ("bumps", "slides", "forfeits", "removals", "exchanges")


def _rate(wins: int, games: int) -> dict:
    low_high = wilson(wins, games)
    return {"wins": wins, "rate": wins / games if games else None, "ci95": list(low_high) if low_high else None}


def _distribution(moments) -> dict:
    variance = moments.variance
    return {"mean": moments.mean, "sd": variance ** 0.5 if variance is not None else None}


def _with_interval(moments, lowest: float = 0) -> dict:
    """Mean, sd and 95% interval (Student's t) of a quantity no value of which is below
    `lowest` (a count: 0): the interval is cut there only (a mean of non-negative values has
    no negative bound), never at the values the games gave (with few games the mean may well
    lie past them, and an interval cut there would hold it less often than 95%)."""
    out = _distribution(moments)
    if out["sd"] is None:
        out["ci95"] = None
    else:
        half = t95(moments.n - 1) * out["sd"] / math.sqrt(moments.n)  # Student's t: exact for few games too
        out["ci95"] = [max(lowest, out["mean"] - half), out["mean"] + half]
    return out


def _per_player(moments, players: int, lowest: float) -> dict:
    """Mean, sd and 95% interval per player per game of a counter kept as its total over the
    seats (`simulate.COUNTER`), whose every value is `lowest` at least."""
    out = _with_interval(moments, lowest * players)
    return {key: (None if value is None else [v / players for v in value] if isinstance(value, list) else value / players)
            for key, value in out.items()}


def _sides(game, seats, tally, n: int) -> list:
    """One row per side (a team: its seated colours and their seats), in the order it first sits."""
    rows = []
    for team in dict.fromkeys(game.team_of[c] for c in seats):
        at = [s for s, c in enumerate(seats) if c in team]
        names = dict.fromkeys(game.colours[seats[s]] for s in at)
        rows.append(dict({"side": " + ".join(names), "seats": [s + 1 for s in at]}, **_rate(tally.team_wins[at[0]], n)))
    return rows


def summary(setup, tally, game, info: dict | None = None) -> dict:
    """The report of one simulation as a JSON-ready dict (see the module contract)."""
    seats = game.seats_for(setup.players)
    colours = [game.colours[c] for c in seats]
    teams = any(len(game.team_of[c]) > 1 for c in seats)
    n = tally.games
    by_seat = []
    for s in range(setup.players):
        row = {"seat": s + 1, "colour": colours[s]}
        if not setup.rotate:
            row["bot"] = setup.lineup[s]
        row.update(_rate(tally.wins[s], n))
        if teams:
            row["team"] = _rate(tally.team_wins[s], n)
        if getattr(game, "places", 1) > 1:  # played for places: the seat's mean place in the games won
            row["place"] = _with_interval(tally.metrics.get(PLACE + str(s), Moments()), 1)
        by_seat.append(row)
    by_bot = [dict({"bot": kind, "seats": setup.lineup.count(kind), "fair_share": setup.lineup.count(kind) / setup.players},
                   **_rate(tally.kind_wins.get(kind, 0), n)) for kind in dict.fromkeys(setup.lineup)]
    by_order = [dict({"position": k + 1}, **_rate(tally.order_wins[k], n)) for k in range(setup.players)]
    turns = tally.metrics["turns"]
    counts = tally.turns_counts
    length = {
        "turns": dict(_with_interval(turns), median=quantile(counts, 0.5), p90=quantile(counts, 0.9),
                      min=min(counts) if counts else None, max=max(counts) if counts else None),
        "plies": _with_interval(tally.metrics["plies"]),
        "histogram": [{"from": lo, "to": hi, "games": c} for lo, hi, c in histogram(counts)],
        "turns_counts": {str(k): counts[k] for k in sorted(counts)},
        "definition": TURN_NOTE,
    }
    report = {
        "variant": {"spec": setup.source.variant, "rules": list(setup.source.rules), "name": game.name,
                    "content_hash": setup.source.content_hash},
        "players": setup.players, "bots": list(setup.lineup), "rotate": setup.rotate,
        "seed": setup.seed, "seed_derivation": SEED_NOTE, "max_plies": setup.max_plies,
        "games": n, "finished": tally.finished, "draws": tally.draws, "stopped": n - tally.finished - tally.draws,
        "first_side": _rate(tally.first_side_wins, n), "drawn": _rate(tally.draws, n),
        "wins": {"by_seat": by_seat, "by_side": _sides(game, seats, tally, n), "by_bot": by_bot,
                 "by_turn_order": by_order},
        "length": length,
        "per_game": {name: _distribution(tally.metrics[name]) for name in metrics_of(game)[2:]},
    }
    if getattr(game, "counters", ()):
        report["counters"] = {name: dict(_per_player(tally.metrics.get(COUNTER + name, Moments()), setup.players, low),
                                         label=label) for (name, _, label), (low, _) in zip(game.counters,
                                                                                          game.counter_ranges)}
    if getattr(game, "scoring", ()):
        report["scores"] = {"per_player": _per_player(tally.metrics.get(SCORE, Moments()), setup.players, -math.inf),
                            "winner": _with_interval(tally.metrics.get(WINNER_SCORE, Moments()), -math.inf)}
    if info is not None:
        report["run"] = info
    return report


def mark_partial(report: dict, finished: int, planned: int, reason: str) -> dict:
    """`report` of `finished` games out of the `planned` ones, marked as partial (first keys:
    "partial": true, "games_finished", "games_planned", "partial_reason"). Its figures are
    those of the finished games; a complete report carries none of these keys."""
    return {"partial": True, "games_finished": finished, "games_planned": planned, "partial_reason": reason, **report}


def _partial_line(report: dict) -> list[str]:
    if not report.get("partial"):
        return []
    return [f"PARTIAL: {report['games_finished']:,} of {report['games_planned']:,} games finished "
            f"({report['partial_reason']}); the figures are those of the finished games"]


def run_info(engine: str, jobs: int, batch_size: int, seconds: float, games: int) -> dict:
    """How the games were played (the only part of a report that may differ between runs):
    `jobs` is the number of local processes, or of Dask workers; `games` the games played by
    this run (fewer than the report's when a results file was continued)."""
    return {"engine": engine, "jobs": jobs, "batch_size": batch_size, "games": games, "seconds": round(seconds, 3),
            "games_per_second": round(games / seconds, 1) if seconds > 0 else None}


# ---- text ------------------------------------------------------------------------------------


def _pct(x) -> str:
    return "   -  " if x is None else f"{100 * x:5.1f}%"


def _ci(ci) -> str:
    return "" if ci is None else f"[{100 * ci[0]:4.1f}%, {100 * ci[1]:5.1f}%]"


def _num(x, digits: int = 1) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _range(ci) -> str:
    return "" if ci is None else f"[{ci[0]:.1f}, {ci[1]:.1f}]"


def _run_line(run: dict) -> str:
    """How many games in how long, and where they were played (the report's "run")."""
    unit = "worker" if run["engine"] == "dask" else "job"
    return (f"{plural(run['games'], 'game')} in {run['seconds']:.1f} s: {_num(run['games_per_second'])} games/s "
            f"({run['engine']}, {run['jobs']} {unit}{'s' if run['jobs'] != 1 else ''})")


#: the least width of the names of the text report's win-rate lines
RATE_WIDTH = 28


def _rate_line(who: str, row: dict, width: int = RATE_WIDTH) -> str:
    """One line of the text report's win rates: who (in a column `width` wide), wins, rate and 95% interval."""
    return f"  {who:{width}} {row['wins']:6} {_pct(row['rate'])}  {_ci(row['ci95'])}"


def _variant_label(report: dict) -> str:
    v = report["variant"]
    label = " + ".join([v["spec"], *v["rules"]])
    return label if v["name"] == v["spec"] else f"{label} ({v['name']})"


def _bots_label(report: dict) -> str:
    bots = ",".join(report["bots"])
    return bots + (" (rotated one seat per game)" if report["rotate"] else "")


def _end_lines(report: dict) -> list[str]:
    """The text report's lines of the counters, the places (played for places) and the scores
    at the end of a game, with their 95% intervals."""
    def figure(name, s):
        return f"{name} {_num(s['mean'], 2)}" + (f" [{_num(s['ci95'][0], 2)}, {_num(s['ci95'][1], 2)}]" if s["ci95"] else "")

    lines = []
    if report.get("counters"):
        lines.append("Counters, mean per player at the end of a game (95% CI): " + ", ".join(
            figure(c["label"], c) for c in report["counters"].values()))
    places = [row for row in report["wins"]["by_seat"] if "place" in row]
    if places:
        lines.append("Mean place, games with a winner (95% CI): " + ", ".join(
            figure(f"seat {row['seat']} {row['colour']}", row["place"]) for row in places))
    if report.get("scores"):
        lines.append("Scores at the end of a game won (95% CI): " + ", ".join(
            figure(name, report["scores"][key]) for name, key in (("mean per player", "per_player"),
                                                                  ("the winner's", "winner"))))
    return lines


def format_text(report: dict) -> str:
    """A compact report for people, with a histogram of game lengths."""
    lines = _partial_line(report)
    lines += [f"{_variant_label(report)}: {plural(report['games'], 'game')}, "
             f"{report['players']} players, bots {_bots_label(report)}, seed {report['seed']}"]
    if report["stopped"]:
        after = plural(report['max_plies'], 'ply', 'plies')
        lines.append(f"  {plural(report['stopped'], 'game')} stopped after {after} without a winner")
    lines.append("")
    rates = []  # (who, row): one line each, the names in one column as wide as the longest
    for row in report["wins"]["by_seat"]:
        who = f"seat {row['seat']} {row['colour']}" + (f" ({row['bot']})" if "bot" in row else "")
        rates.append((who, row))
        if "team" in row:
            rates.append(("  with partners", row["team"]))
    if len(report["wins"]["by_bot"]) > 1 or report["rotate"]:
        for row in report["wins"]["by_bot"]:
            rates.append((f"bot {row['bot']} x{row['seats']} (fair {100 * row['fair_share']:.0f}%)", row))
    sides = report["wins"]["by_side"]
    if len(sides) < report["players"]:
        for row in sides:
            rates.append((f"side {row['side']} (seats {', '.join(str(s) for s in row['seats'])})", row))
    for row in report["wins"]["by_turn_order"]:
        rates.append((f"{place_word(row['position'])} to play", row))
    if len(sides) < report["players"]:
        rates.append(("side of the 1st to play", report["first_side"]))
    if report["draws"]:
        rates.append(("drawn (no winner)", report["drawn"]))
    width = max([RATE_WIDTH] + [len(who) for who, _ in rates])
    lines.append(f"{'Win rate (95% Wilson CI)':<{width + 4}}wins   rate   CI")
    lines.extend(_rate_line(who, row, width) for who, row in rates)
    turns, plies = report["length"]["turns"], report["length"]["plies"]
    lines.append("")
    lines.append(f"Length in turns: mean {_num(turns['mean'])}, median {_num(turns['median'], 0)}, "
                 f"90th percentile {_num(turns['p90'], 0)} (min {_num(turns['min'], 0)}, max {_num(turns['max'], 0)}); "
                 f"plies: mean {_num(plies['mean'])}" + (f" {_range(plies['ci95'])}" if plies['ci95'] else ""))
    bins = report["length"]["histogram"]
    if bins:
        top = max(b["games"] for b in bins) or 1
        width = len(str(bins[-1]["to"]))
        for b in bins:
            bar = "#" * round(30 * b["games"] / top)
            lines.append(f"  {b['from']:>{width}}-{b['to']:<{width}} {bar:30} {b['games']}")
    per_game = report["per_game"]
    figures = [f"{name} {_num(per_game[name]['mean'], 2)}" for name in per_game
               if name in SHOWN or (per_game[name]["mean"] or 0) > 0]
    lines += ["", "Per game: " + ", ".join(figures)]
    lines += _end_lines(report)
    if report.get("run"):
        lines.append(_run_line(report["run"]))
    return "\n".join(lines)


# ---- comparison ------------------------------------------------------------------------------


def _rate_test(label: str, a: int, b: int, n_a: int, n_b: int, alpha: float) -> dict:
    z, p = two_proportion_z(b, n_b, a, n_a)  # B against A: the statistic has the sign of the difference
    ra, rb = (a / n_a if n_a else None), (b / n_b if n_b else None)
    return {"metric": label, "kind": "rate", "a": ra, "b": rb,
            "difference": rb - ra if ra is not None and rb is not None else None,
            "test": "two-proportion z", "statistic": z, "p": p, "significant": p is not None and p < alpha}


def _mean_test(label: str, a, b, alpha: float) -> dict:
    t, df, p = welch_t(b, a)  # B against A: the statistic has the sign of the difference
    if t is not None and math.isinf(t):
        t = None  # two constant samples with different means: p is 0, the statistic has no value (JSON)
    return {"metric": label, "kind": "mean", "a": a.mean, "b": b.mean,
            "difference": b.mean - a.mean if a.mean is not None and b.mean is not None else None,
            "test": "Welch t", "statistic": t, "df": df, "p": p, "significant": p is not None and p < alpha}


#: Rows of the text comparison left out when both sides are zero.
_OPTIONAL_ROWS = ("games stopped without a winner", "games drawn", "discards per game", "passes per game",
                  "redraws per game", "actions per game")


def _shown(row: dict) -> bool:
    """Whether a comparison row is shown (and tested for Holm's correction): all but the
    optional rows that are zero on both sides."""
    return row["metric"] not in _OPTIONAL_ROWS or bool(row["a"]) or bool(row["b"])


def comparison(setup_a, tally_a, game_a, setup_b, tally_b, game_b, alpha: float = 0.05, info: dict | None = None) -> dict:
    """Both reports and one significance test per difference (two-sided p-values)."""
    a = summary(setup_a, tally_a, game_a)
    b = summary(setup_b, tally_b, game_b)
    tests = []

    def rate_test(label: str, a_wins: int, b_wins: int) -> dict:
        return _rate_test(label, a_wins, b_wins, tally_a.games, tally_b.games, alpha)

    def mean_test(label: str, name: str) -> dict:
        return _mean_test(label, tally_a.metrics.get(name, Moments()), tally_b.metrics.get(name, Moments()), alpha)

    def per_player_test(label: str, name: str) -> dict:
        """The test of a figure kept as its total over the seats, its values shown per player."""
        row = mean_test(label, name)
        for key in ("a", "b", "difference"):
            row[key] = None if row[key] is None else row[key] / setup_a.players
        return row

    for s in range(setup_a.players):
        colour = a["wins"]["by_seat"][s]["colour"]
        other = b["wins"]["by_seat"][s]["colour"]
        label = f"win rate seat {s + 1} ({colour if colour == other else colour + '/' + other})"
        tests.append(rate_test(label, tally_a.wins[s], tally_b.wins[s]))
    tests += [rate_test(f"win rate {place_word(k + 1)} to play", tally_a.order_wins[k], tally_b.order_wins[k])
              for k in range(setup_a.players)]
    sides_a, sides_b = a["wins"]["by_side"], b["wins"]["by_side"]
    if len(sides_a) == len(sides_b) and any(len(side["seats"]) > 1 for side in sides_a + sides_b):  # teams
        for side_a, side_b in zip(sides_a, sides_b):
            names = side_a["side"] if side_a["side"] == side_b["side"] else f"{side_a['side']}/{side_b['side']}"
            tests.append(rate_test(f"win rate side {names}", side_a["wins"], side_b["wins"]))
    kinds = list(dict.fromkeys(setup_a.lineup))
    if len(kinds) > 1:
        tests += [rate_test(f"win rate bot {kind}", tally_a.kind_wins.get(kind, 0), tally_b.kind_wins.get(kind, 0))
                  for kind in kinds]
    tests.append(rate_test("win rate of the first side", tally_a.first_side_wins, tally_b.first_side_wins))
    tests.append(rate_test("games drawn", tally_a.draws, tally_b.draws))
    tests.append(rate_test("games stopped without a winner", tally_a.games - tally_a.finished - tally_a.draws,
                           tally_b.games - tally_b.finished - tally_b.draws))
    for name in dict.fromkeys(metrics_of(game_a) + metrics_of(game_b)):
        label = {"turns": "length in turns", "plies": "length in plies"}.get(name, f"{name} per game")
        tests.append(_mean_test(label, tally_a.metrics[name], tally_b.metrics[name], alpha))
    labels = {name: label for game in (game_a, game_b) for name, _, label in getattr(game, "counters", ())}
    tests += [per_player_test(f"{label} per player", COUNTER + name) for name, label in labels.items()]
    if getattr(game_a, "scoring", ()) or getattr(game_b, "scoring", ()):
        tests += [per_player_test("score per player", SCORE), mean_test("the winner's score", WINNER_SCORE)]
    family = [row for row in tests if row["p"] is not None and _shown(row)]
    for row in tests:
        row["p_holm"], row["significant_holm"] = None, False
    for row, adjusted in zip(family, holm([row["p"] for row in family])):
        row["p_holm"], row["significant_holm"] = adjusted, adjusted < alpha
    report = {
        "a": a, "b": b, "alpha": alpha, "common_random_numbers": True,
        "method": ("both sides play the same game seeds (common random numbers); rates: pooled two-proportion "
                   "z-test; means: Welch t-test; p-values two-sided; p: not corrected for multiple comparisons; "
                   "p_holm: Holm's step-down adjustment over the tests_corrected rows shown that have a p (a row left out for "
                   "being zero on both sides is not tested)"),
        "tests": tests, "tests_corrected": len(family),
    }
    if info is not None:
        report["run"] = info
    return report


def _fmt_value(row, x, sign: str = "", unit: str = "%") -> str:
    """A figure of a comparison row: a rate in percent (`unit`), a mean with two decimals."""
    if x is None:
        return "-"
    if row["kind"] != "rate":
        return f"{x:{sign}.2f}"
    # halves away from zero, on the figure cleared of float noise: +3.75 and -3.75 points show alike
    tenths = Decimal(repr(round(100 * x, 9))).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    return f"{tenths:{sign}}{unit}"


def _fmt_p(p) -> str:
    if p is None:
        return "-"
    return "<0.0001" if p < 1e-4 else f"{p:.4f}"




def format_compare_text(report: dict) -> str:
    """Side by side, one line per figure: A, B, B - A, p-value, and * when significant."""
    a, b = report["a"], report["b"]
    lines = _partial_line(report)
    each = "each" if a["games"] == b["games"] else f"(A), {plural(b['games'], 'game')} (B)"
    lines += [f"A: {_variant_label(a)}", f"B: {_variant_label(b)}",
             f"{plural(a['games'], 'game')} {each}, {a['players']} players, bots {_bots_label(a)}, seed {a['seed']}; "
             "both sides play the same seeds (common random numbers)", ""]
    rows = [row for row in report["tests"] if _shown(row)]
    width = max(len(row["metric"]) for row in rows)
    lines.append(f"{'':{width}}  {'A':>11} {'B':>11} {'B - A':>10} {'p':>8}")
    for row in rows:
        mark = " *" if row["significant"] else ""
        lines.append(f"{row['metric']:{width}}  {_fmt_value(row, row['a']):>11} {_fmt_value(row, row['b']):>11} "
                     f"{_fmt_value(row, row['difference'], '+', ' pt'):>10} {_fmt_p(row['p']):>8}{mark}")
    ta, tb = a["length"]["turns"], b["length"]["turns"]
    lines.append(f"{'median / p90 turns':{width}}  {_num(ta['median'], 0) + ' / ' + _num(ta['p90'], 0):>11} "
                 f"{_num(tb['median'], 0) + ' / ' + _num(tb['p90'], 0):>11}   (no test)")
    lines.append("")
    if a["stopped"] or b["stopped"]:  # the means are over the games that ended: say how many stand behind them
        lines.append(f"means (lengths, events, counters) are of the games that ended: A {a['games'] - a['stopped']} of "
                     f"{a['games']}, B {b['games'] - b['stopped']} of {b['games']}; games stopped at the move limit are "
                     "left out, so a side that stops more of its long games reads shorter")
    lines.append(f"* significant at {report['alpha']:g} (two-sided; rates: two-proportion z-test, means: Welch t-test; "
                 "not corrected for multiple comparisons: at that level about 1 test in "
                 f"{round(1 / report['alpha'])} is marked by chance alone)")
    lines.append(_holm_line(report))
    if report.get("run"):
        lines.append(_run_line(report["run"]))
    return "\n".join(lines)


def _holm_line(report: dict) -> str:
    """The tests that stay significant after Holm's correction (the family-wise error rate at
    alpha over the rows shown that have a p-value), named in the order shown."""
    kept = [row["metric"] for row in report["tests"] if row.get("significant_holm")]
    tests = report.get("tests_corrected", 0)
    head = f"Holm's correction for the {plural(tests, 'test')} with a p-value"
    if not kept:
        return f"{head}: none stays significant at {report['alpha']:g}"
    return f"{head}: {len(kept)} {'stays' if len(kept) == 1 else 'stay'} significant at {report['alpha']:g}: " \
           + ", ".join(kept)
