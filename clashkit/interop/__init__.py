"""The interop layer: Clash of Decks for other game-AI toolkits.

:mod:`~clashkit.interop.encoding` is what both adapters share: actions as
integers in clashkit's legal order, and the acting player's fair view
(:mod:`clashkit.policies.sight`) as text and as a flat vector.
:mod:`~clashkit.interop.chance` is the setup as chance outcomes (R2.2, R2.3, R8.1).
:mod:`~clashkit.interop.openspiel_game` is the ``python_clash_of_decks`` game for
OpenSpiel, :mod:`~clashkit.interop.pettingzoo_env` the PettingZoo AEC environment,
and :mod:`~clashkit.interop.bots` OpenSpiel's search bots as a clashkit policy
(``openspiel:ismcts``).  ``pyspiel``, ``pettingzoo`` and ``gymnasium`` (the ``rl``
extra) are imported only by the modules that need them, when they are imported;
``import clashkit.openspiel`` and ``import clashkit.pettingzoo`` are the front doors
(``docs/interop.md``).

May import: :mod:`clashkit.show` (the board's text form) and every layer below it.
"""
