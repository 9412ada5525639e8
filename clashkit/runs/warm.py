"""``python -m clashkit.runs.warm``: compile the fast engine into numba's cache ahead of time (``make venv``)."""

from __future__ import annotations

import time


def main() -> None:
    started = time.perf_counter()
    from .simulate import simulate

    simulate(2, "1", "2", "greedy", "random", engine="fast", record_events=False, progress=False)
    simulate(2, "draft", "draft", "greedy", "random", engine="fast", record_events=False, progress=False)
    # The game loop with a search player is compiled apart (clashkit.fast.game.play).
    simulate(1, "1", "2", "search:budget=1", "greedy", engine="fast", record_events=False, progress=False)
    # Events are recorded by the same compiled loop (a flag in the state): this loads it, compiles nothing new.
    simulate(2, "1", "2", "greedy", "random", engine="fast", record_events=True, progress=False)
    print(f"fast engine ready ({time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
