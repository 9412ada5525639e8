"""Speed of clashkit: whole games per second, and events from the engine into polars.

    python benchmarks/run.py            # a readable report
    python benchmarks/run.py --json     # the same, then one JSON object as the last line

What it measures, each the best of ``--repeats`` runs:

- ``games_per_s_no_events`` / ``games_per_s_events``: full preconstructed
  duels, the 12 ordered pairings of the starter decks in turn, ``--policy``
  against itself (default ``greedy``), set up, played to the end and
  recorded exactly as ``clashkit simulate`` does in one worker
  (:func:`clashkit.runs.simulate.play_game`), without and with event recording,
  from the process's CPU time (the loop is single-threaded, so this is one
  core's rate even while other work shares the machine; the wall-clock rate
  is printed beside it as ``wall_games_per_s_*``);
- ``event_rows_per_s``: event rows per second (wall clock) from the engine's
  raw buffers into the polars events frame (:func:`clashkit.runs.trace.events_from_buffer`);
- ``mb_per_million_event_rows``: the events frame's ``estimated_size()`` per
  million rows, in MB of 10⁶ bytes;
- with ``--jobs 1 2`` (default), ``simulate_games_per_s_jobs_J``: the whole
  ``simulate()`` of deck 1 against deck 2 (workers, frames) on the reference
  engine with J processes, without events, wall clock (the fast engine plays
  a run of this size in less time than a worker takes to start);
- the two engines side by side, one core (CPU time), no events, the 12
  pairings in turn: ``reference_games_per_s_{greedy,random}`` and
  ``fast_games_per_s_{greedy,random}`` (``clashkit.fast``, ``--fast-n`` games a
  run, records made as ``simulate`` makes them), and
  ``fast_simulate_parquet_games_per_s``: ``simulate(engine="fast")`` end to end
  (setup, frames built, Parquet written), wall clock;
- every format in both engines, greedy (against greedy, or against the solo
  AI), one core (CPU time), no events, dealt and played as ``simulate``
  does: ``{reference,fast}_games_per_s_format_F`` for F in preconstructed
  (the 12 pairings in turn), draft, constructed, solo_preconstructed (decks
  1–4 in turn) and solo_draft; ``--format-n`` fast games a format.
- in the same run, where that end-to-end time goes (``fast_pipeline``,
  seconds per 100,000 games, wall clock, the best of ``--repeats`` passes
  of ``--fast-n`` games): ``seeds`` (each part's seeds), ``batch`` (the
  compiled games and their arrays), ``records`` (the arrays appended to the
  raw records), ``frames`` (the polars frames built chunk by chunk),
  ``parquet`` (the data files written) and ``manifest`` (rows counted, SHA-256,
  the swap into place); ``fast_bare_games_per_s`` is the rate of ``batch``
  alone, beside ``fast_pipeline_games_per_s``, the rate of the whole pass;
- events, the two engines side by side: ``{reference,fast}_events_parquet_games_per_s``,
  ``simulate(..., record_events=True, jobs=1)`` of greedy 1 vs 2 and its three frames
  written as Parquet, wall clock (``-n`` reference games, ``--events-n`` fast ones), and
  ``events_speed_ratio`` (printed as ``events_speed_ratio_fast_over_reference``), fast over
  reference (the floor is 20×, the target 40×); the same per second of the process's CPU time
  (``…_per_cpu_s``, ``events_speed_ratio_cpu``), which a busy machine disturbs less;
- with ``--sketch SKETCH.c`` (or ``CLASHKIT_SKETCH``), the whole ``clashkit simulate`` command
  without events beside a C sketch of the game loop and their ratio (the floor is 1/8):
  ``benchmarks/command.py``, whose docstring says what it times.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

from clashkit.base.cards import starter_set  # noqa: E402
from clashkit.base.rules import Rules  # noqa: E402
from clashkit.engine.records import GameRecords  # noqa: E402
from clashkit.policies import POLICIES  # noqa: E402
from clashkit.runs.simulate import game_seeds, play_game, simulate  # noqa: E402
from clashkit.runs.spec import Matchup  # noqa: E402
from clashkit.runs.trace import events_from_buffer  # noqa: E402

PAIRINGS = [(a, b) for a in "1234" for b in "1234" if a != b]


def play_games(n: int, policy: str, record_events: bool) -> tuple[float, float, GameRecords]:
    """Wall and CPU seconds to set up, play and record ``n`` games (the pairings in turn),
    and the records."""
    matchups = [
        Matchup.build(a, b, policy, policy, engine="reference", record_events=record_events, rules=Rules())
        for a, b in PAIRINGS
    ]
    seeds = game_seeds(0, n)
    records = GameRecords()
    started, cpu = time.perf_counter(), time.process_time()
    for i, seed in enumerate(seeds):
        play_game(matchups[i % len(matchups)], i, seed, records)
    return time.perf_counter() - started, time.process_time() - cpu, records


def best(times: list[float]) -> float:
    return min(times)


def measure(n: int, policy: str, repeats: int, jobs: list[int]) -> dict:
    cards = starter_set()
    out: dict = {
        "policy": policy,
        "games": n,
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "polars": pl.__version__,
    }
    play_games(min(n, 200), policy, True)  # warm up caches

    # One core: the process's CPU time (the game loop is single-threaded), so that other
    # work on the machine does not count; the wall-clock rate is reported beside it.
    no_events = [play_games(n, policy, False) for _ in range(repeats)]
    out["games_per_s_no_events"] = n / best([cpu for _, cpu, _ in no_events])
    out["wall_games_per_s_no_events"] = n / best([wall for wall, _, _ in no_events])

    runs = [play_games(n, policy, True) for _ in range(repeats)]
    out["games_per_s_events"] = n / best([cpu for _, cpu, _ in runs])
    out["wall_games_per_s_events"] = n / best([wall for wall, _, _ in runs])
    records = runs[0][2]
    rows = len(records.events) // 15
    out["event_rows_per_game"] = rows / n
    turns = np.asarray(records.turns_played)
    out["turns_per_game"] = float(turns.mean())
    games = np.asarray(records.game)
    counts = np.asarray(records.event_counts)

    build = []
    for _ in range(max(repeats, 5)):
        started = time.perf_counter()
        events = events_from_buffer(records.events, cards, games=games, counts=counts)
        build.append(time.perf_counter() - started)
    out["event_rows"] = events.height
    out["event_rows_per_s"] = events.height / best(build)
    out["mb_per_million_event_rows"] = events.estimated_size() / events.height if events.height else 0.0

    for j in jobs:
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            simulate(
                n,
                "1",
                "2",
                policy,
                policy,
                seed=1,
                jobs=j,
                engine="reference",
                record_events=False,
                progress=False,
            )
            times.append(time.perf_counter() - started)
        out[f"simulate_games_per_s_jobs_{j}"] = n / best(times)
    return out


def fast_rate(engines: list, seeds: list[int], n_fast: int, repeats: int) -> float:
    """Games/s of one core (CPU time) of ``n_fast`` fast-engine games shared among ``engines`` in turn,
    the best of ``repeats`` runs, after a few untimed games that load the compiled code."""
    engines[0].play(0, seeds[:50])  # the compiled functions load from numba's cache
    per = -(-n_fast // len(engines))
    times = []
    for _ in range(repeats):
        cpu = time.process_time()
        for k, engine in enumerate(engines):
            engine.play(k * per, seeds[k * per : (k + 1) * per])
        times.append(time.process_time() - cpu)
    return n_fast / best(times)


def fast_rates(n: int, n_fast: int, repeats: int) -> dict:
    """The reference and the fast engine, greedy and random, one core each (see the module docstring)."""
    import tempfile

    from clashkit.runs.fast_games import Engine

    out: dict = {}
    for policy in ("greedy", "random"):
        runs = [play_games(n, policy, False)[1] for _ in range(max(1, repeats // 2))]
        out[f"reference_games_per_s_{policy}"] = n / best(runs)
        engines = [Engine(Matchup.build(a, b, policy, policy, record_events=False, engine="fast")) for a, b in PAIRINGS]
        seeds = game_seeds(0, n_fast)
        out[f"fast_games_per_s_{policy}"] = fast_rate(engines, seeds, n_fast, repeats)
    with tempfile.TemporaryDirectory() as directory:
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            trace = simulate(
                n_fast, "1", "2", "greedy", seed=1, jobs=1, engine="fast", record_events=False, progress=False
            )
            trace.write_parquet(directory, events=False)
            times.append(time.perf_counter() - started)
        out["fast_simulate_parquet_games_per_s"] = n_fast / best(times)
    return out


def events_rates(n: int, n_fast: int, repeats: int) -> dict:
    """Both engines with events, whole pipeline to Parquet, wall clock (see the module docstring)."""
    import tempfile

    out: dict = {}
    for engine, games in (("reference", n), ("fast", n_fast)):
        simulate(1, "1", "2", "greedy", engine=engine, record_events=True, progress=False)  # loads the engine
        times, cpu = [], []
        rows = 0
        for k in range(repeats):
            with tempfile.TemporaryDirectory() as directory:
                started, started_cpu = time.perf_counter(), time.process_time()
                trace = simulate(
                    games, "1", "2", "greedy", seed=k, jobs=1, engine=engine, record_events=True, progress=False
                )
                trace.write_parquet(directory)
                times.append(time.perf_counter() - started)
                cpu.append(time.process_time() - started_cpu)
                rows = trace.events.height
        out[f"{engine}_events_parquet_games_per_s"] = games / best(times)
        out[f"{engine}_events_parquet_games_per_cpu_s"] = games / best(cpu)
        out[f"{engine}_events_rows_per_game"] = rows / games
    out["events_speed_ratio"] = out["fast_events_parquet_games_per_s"] / out["reference_events_parquet_games_per_s"]
    out["events_speed_ratio_cpu"] = (
        out["fast_events_parquet_games_per_cpu_s"] / out["reference_events_parquet_games_per_cpu_s"]
    )
    out["events_speed_ratio_fast_over_reference"] = out["events_speed_ratio"]
    return out


#: The formats of the per-format table: (key, mode, the decks of its matchups).
FORMATS = [
    ("preconstructed", "duel", PAIRINGS),
    ("draft", "duel", [("draft", "draft")]),
    ("constructed", "duel", [("constructed", "constructed")]),
    ("solo_preconstructed", "solo", [(d, None) for d in "1234"]),
    ("solo_draft", "solo", [("draft", None)]),
]


def format_rates(n: int, n_fast: int, repeats: int, policy: str = "greedy") -> dict:
    """Games/s of every format in both engines, one core each (see the module docstring)."""
    from clashkit.runs.fast_games import Engine

    out: dict = {}
    for key, mode, decks in FORMATS:
        made = {
            engine: [
                Matchup.build(a, b, policy, policy, record_events=False, engine=engine, mode=mode) for a, b in decks
            ]
            for engine in ("reference", "fast")
        }
        seeds = game_seeds(0, max(n, n_fast))
        times = []
        for _ in range(max(1, repeats // 2)):
            records = GameRecords()
            cpu = time.process_time()
            for i, seed in enumerate(seeds[:n]):
                play_game(made["reference"][i % len(decks)], i, seed, records)
            times.append(time.process_time() - cpu)
        out[f"reference_games_per_s_format_{key}"] = n / best(times)
        engines = [Engine(m) for m in made["fast"]]
        out[f"fast_games_per_s_format_{key}"] = fast_rate(engines, seeds, n_fast, repeats)
    return out


#: The steps of the fast engine's pipeline, in the order they run.
STEPS = ("seeds", "batch", "records", "frames", "parquet", "manifest")


@contextlib.contextmanager
def _timed(module, name: str, spent: dict, step: str):
    """While the block runs, ``module.name`` adds the seconds of each call to ``spent[step]``."""
    original = getattr(module, name)

    def timed(*args, **kwargs):
        started = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            spent[step] += time.perf_counter() - started

    setattr(module, name, timed)
    try:
        yield
    finally:
        setattr(module, name, original)


def fast_pipeline(n: int, repeats: int) -> dict:
    """One pass of what ``simulate(engine="fast")`` and ``Trace.write_parquet`` do, each step timed.

    The steps are the library's own (the parts of ``play_parts``, ``TraceBuilder``,
    ``RunWriter``); records and the manifest's reads are timed inside the calls that make them.
    """
    import tempfile

    import clashkit.runs.fast_games as fast_simulate
    import clashkit.runs.output as output
    from clashkit.runs.fast_games import Engine
    from clashkit.runs.simulate import part_games, pool_seed_array, seed_pool
    from clashkit.runs.trace import TraceBuilder

    matchup = Matchup.build("1", "2", "greedy", "greedy", record_events=False, engine="fast")
    engine = Engine(matchup)
    pool = seed_pool(1)
    passes = []
    for _ in range(repeats):
        spent = dict.fromkeys(STEPS, 0.0)
        with contextlib.ExitStack() as stack, tempfile.TemporaryDirectory() as directory:
            stack.enter_context(_timed(fast_simulate, "_add_bulk", spent, "records"))
            stack.enter_context(_timed(output, "_rows", spent, "manifest"))
            stack.enter_context(_timed(output, "_sha256", spent, "manifest"))
            started = time.perf_counter()
            builder = TraceBuilder(matchup.card_set)
            size = part_games("fast")
            for first in range(0, n, size):
                count = min(size, n - first)
                t0 = time.perf_counter()
                seeds = pool_seed_array(pool, first, first + count)
                t1 = time.perf_counter()
                records = engine.play(first, seeds)
                t2 = time.perf_counter()
                builder.add(records)
                t3 = time.perf_counter()
                spent["seeds"] += t1 - t0
                spent["batch"] += t2 - t1
                spent["frames"] += t3 - t2
            t3 = time.perf_counter()
            trace = builder.trace()
            t4 = time.perf_counter()
            trace.write_parquet(directory, events=False)
            t5 = time.perf_counter()
            spent["frames"] += t4 - t3
            spent["parquet"] += t5 - t4
            spent["total"] = t5 - started
        spent["batch"] -= spent["records"]  # records are made inside engine.play
        spent["parquet"] -= spent["manifest"]
        passes.append(spent)
    best_pass = min(passes, key=lambda p: p["total"])
    per = 100_000 / n
    return {
        "fast_pipeline": {step: round(best_pass[step] * per, 4) for step in (*STEPS, "total")},
        "fast_bare_games_per_s": n / best_pass["batch"],
        "fast_pipeline_games_per_s": n / best_pass["total"],
    }


def events_lines(r: dict) -> list[str]:
    """The two engines with events, and their ratio against the floor (20×) and the target (40×)."""

    def verdict(ratio: float) -> str:
        return "meets the target" if ratio >= 40 else "above the floor" if ratio >= 20 else "BELOW THE FLOOR"

    ratio, cpu = r["events_speed_ratio"], r["events_speed_ratio_cpu"]
    return [
        "  with events, simulate() + Parquet, greedy 1 vs 2, games/s (wall clock):",
        f"    reference {r['reference_events_parquet_games_per_s']:10,.0f}"
        f"   fast {r['fast_events_parquet_games_per_s']:10,.0f}",
        f"    the same per second of CPU (every thread of the process, polars' too):"
        f" reference {r['reference_events_parquet_games_per_cpu_s']:,.0f}"
        f"   fast {r['fast_events_parquet_games_per_cpu_s']:,.0f}",
        f"  events_speed_ratio_fast_over_reference {ratio:.1f}x wall clock ({verdict(ratio)}),"
        f" {cpu:.1f}x CPU ({verdict(cpu)}); floor 20x, target 40x",
    ]


def report(r: dict) -> str:
    lines = [
        f"clashkit speed — {r['policy']} vs {r['policy']}, {r['games']} preconstructed games a run,"
        f" {r['cpus']} cores, Python {r['python']}, polars {r['polars']}",
        f"  mean turns a game            {r['turns_per_game']:10.1f}",
        f"  event rows a game            {r['event_rows_per_game']:10.1f}",
        f"  games/s, no events (1 core)  {r['games_per_s_no_events']:10,.0f}"
        f"   (wall clock {r['wall_games_per_s_no_events']:,.0f})",
        f"  games/s, events (1 core)     {r['games_per_s_events']:10,.0f}"
        f"   (wall clock {r['wall_games_per_s_events']:,.0f})",
        f"  event rows/s into polars     {r['event_rows_per_s']:10,.0f}",
        f"  MB per million event rows    {r['mb_per_million_event_rows']:10.1f}",
    ]
    for key, value in r.items():
        if key.startswith("simulate_games_per_s_jobs_"):
            jobs = key.rsplit("_", 1)[1]
            lines.append(f"  simulate() 1 vs 2, reference, --jobs {jobs:<2} {value:,.0f}")
    if "fast_games_per_s_greedy" in r:
        lines += [
            "  two engines, games/s on one core, no events:",
            f"    greedy vs greedy  reference {r['reference_games_per_s_greedy']:10,.0f}"
            f"   fast {r['fast_games_per_s_greedy']:10,.0f}",
            f"    random vs random  reference {r['reference_games_per_s_random']:10,.0f}"
            f"   fast {r['fast_games_per_s_random']:10,.0f}",
            "  simulate(engine='fast') + Parquet, greedy 1 vs 2 (wall clock)"
            f" {r['fast_simulate_parquet_games_per_s']:,.0f}",
        ]
    if "fast_games_per_s_format_draft" in r:
        lines.append("  every format, greedy, games/s on one core, no events:")
        lines.append(f"    {'format':<20} {'reference':>10} {'fast':>10}")
        for key, _, _ in FORMATS:
            lines.append(
                f"    {key:<20} {r[f'reference_games_per_s_format_{key}']:10,.0f}"
                f" {r[f'fast_games_per_s_format_{key}']:10,.0f}"
            )
    if "events_speed_ratio" in r:
        lines += events_lines(r)
    if "fast_pipeline" in r:
        steps = r["fast_pipeline"]
        shares = ", ".join(f"{step} {steps[step]:.3f}" for step in STEPS)
        lines += [
            f"  the same, step by step (s per 100,000 games): {shares}; total {steps['total']:.3f}",
            f"    bare compiled batch {r['fast_bare_games_per_s']:10,.0f} games/s,"
            f" whole pass {r['fast_pipeline_games_per_s']:,.0f}"
            f" ({1 - r['fast_pipeline_games_per_s'] / r['fast_bare_games_per_s']:.0%} of the time outside the batch)",
        ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=2000, help="games a run (default 2000)")
    default = "greedy" if "greedy" in POLICIES else "random"
    parser.add_argument("--policy", default=default, help=f"policy of both players (default {default})")
    parser.add_argument("--repeats", type=int, default=5, help="runs of each measurement; the best counts (default 5)")
    parser.add_argument("--jobs", type=int, nargs="*", default=[1, 2], help="simulate() with these --jobs")
    parser.add_argument("--json", action="store_true", help="end with one JSON object on the last line")
    parser.add_argument("--fast-n", type=int, default=100_000, help="fast-engine games a run (default 100000)")
    parser.add_argument("--no-fast", action="store_true", help="leave the two-engine comparison out")
    parser.add_argument(
        "--events-n", type=int, default=50_000, help="fast-engine games a run with events (default 50000)"
    )
    parser.add_argument("--only-events", action="store_true", help="measure only the two engines with events")
    parser.add_argument(
        "--sketch",
        type=Path,
        default=os.environ.get("CLASHKIT_SKETCH"),
        help="a C sketch of the game loop (its source): the whole command is measured beside it",
    )
    parser.add_argument(
        "--command-n", type=int, default=400_000, help="games of the whole command beside the sketch (default 400000)"
    )
    parser.add_argument(
        "--format-n", type=int, default=20_000, help="fast-engine games a format, per-format table (default 20000)"
    )
    args = parser.parse_args()
    import command  # benchmarks/command.py: the whole command beside the C sketch

    if args.only_events:
        result = {"events_n": args.events_n, "games": args.n, **events_rates(args.n, args.events_n, args.repeats)}
        shown = events_lines(result)
        if args.sketch is not None:
            result["command"] = command.measure(args.command_n, args.sketch, 2_000_000, 2)
            shown += command.lines(result["command"])
        print("\n".join(shown), flush=True)
        if args.json:
            print(json.dumps(result))
        return
    result = measure(args.n, args.policy, args.repeats, args.jobs)
    if not args.no_fast:
        result.update(fast_rates(args.n, args.fast_n, args.repeats))
        result.update(format_rates(min(args.n, 1000), args.format_n, args.repeats))
        result.update(fast_pipeline(args.fast_n, args.repeats))
        result.update(events_rates(args.n, args.events_n, args.repeats))
    shown = report(result)
    if args.sketch is not None:
        result["command"] = command.measure(args.command_n, args.sketch, 2_000_000, 2)
        shown += "\n" + "\n".join(command.lines(result["command"]))
    print(shown, flush=True)
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
