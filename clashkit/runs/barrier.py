"""The one mark a task stream may hold besides tasks (:func:`clashkit.runs.workers.run_tasks`,
:func:`clashkit.runs.cluster.stream`)."""

from __future__ import annotations


class _Barrier:
    def __repr__(self) -> str:
        return "BARRIER"


#: Yielded by a task stream between tasks: no later task is taken until every earlier one has
#: finished and its result has been yielded.  A search whose next tasks depend on the results
#: so far (a generation of :mod:`clashkit.studies.meta`) runs as one stream, on one pool.
BARRIER = _Barrier()

__all__ = ["BARRIER"]
