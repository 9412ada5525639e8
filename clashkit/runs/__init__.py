"""The runs layer: whole games and many of them, on either engine, written as frames.

One game with policies by name (:mod:`~clashkit.runs.game`), many seeded games on
every core or a Dask cluster (:mod:`~clashkit.runs.simulate`,
:mod:`~clashkit.runs.fast_games`, :mod:`~clashkit.runs.cluster`), the frames
(:mod:`~clashkit.runs.trace`), run folders (:mod:`~clashkit.runs.output`) and
replays (:mod:`~clashkit.runs.replay`) and the two engines compared step by step
(:mod:`~clashkit.runs.compare`).

May import: :mod:`clashkit.fast`, :mod:`clashkit.policies`, :mod:`clashkit.engine`,
:mod:`clashkit.base`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..base.exports import lazy_exports

if TYPE_CHECKING:
    from .spec import choose_engine
    from .trace import Trace, game_frames

__getattr__, __dir__, __all__ = lazy_exports(__name__, __file__)
