"""The runs layer: whole games and many of them, on either engine, written as frames.

One game with policies by name (:mod:`~clashkit.runs.game`), many seeded games on
every core or a Dask cluster (:mod:`~clashkit.runs.simulate`,
:mod:`~clashkit.runs.fast_games`, :mod:`~clashkit.runs.cluster`), the frames
(:mod:`~clashkit.runs.trace`), run folders (:mod:`~clashkit.runs.output`) and
replays (:mod:`~clashkit.runs.replay`).

May import: :mod:`clashkit.fast`, :mod:`clashkit.policies`, :mod:`clashkit.engine`,
:mod:`clashkit.base`.
"""
