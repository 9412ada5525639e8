"""The formats a meta study searches: what a deck is, which decks it is measured against, and how
two decks become the eights that play (R2.1, R7.1, R7.3).

* ``duel`` — a deck is eight different cards of the set, played as it is (a custom list); the
  gauntlet is the card set's starter decks (R7.1).
* ``constructed`` — a deck is the **ten** a player chooses from their kit (R7.3); before each game
  the opponent bans two of them, by the study's policy (its ``ban``, in R7.3's order: B bans one of
  A's ten, A one of B's, A a second of B's, B a second of A's), and the eights left play.  The bans
  of a pairing are made once, with a generator seeded by the study's seed (a policy's ``ban`` that
  draws nothing — greedy's, expert's — bans the same in every game).  The gauntlet is the tens the
  policy itself builds (its ``choose_ten``) on the first games of the study's seed: the decks the
  other players bring.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...base.errors import OptionError
from ...base.rng import Rng
from ...engine import formats
from ...runs.simulate import game_seeds
from .space import Deck, DeckSpace

#: The formats, in the order the command line lists them.
FORMATS = ("duel", "constructed")
#: The most tens of the constructed gauntlet, and the games of the policy's own building looked at.
BUILT = 4
BUILT_TRIES = 64


@dataclass(frozen=True)
class MetaFormat:
    """One format of :data:`FORMATS`: its deck size and the word for its gauntlet's decks."""

    name: str
    size: int
    #: A gauntlet deck's label (``starter 1``) and the gauntlet in a sentence.
    gauntlet_word: str
    gauntlet_text: str

    def space(self, cards) -> DeckSpace:
        return DeckSpace(cards, self.size)

    def gauntlet(self, space: DeckSpace, policy: str, seed: int) -> dict[int, Deck]:
        """The decks every searched deck meets, by number (from 1)."""
        if self.name == "duel":
            starters = space.starters()
            if len(starters) < 2:
                raise OptionError("meta: the card set needs its starter decks (R7.1): the search meets them")
            return starters
        from ...policies import get_policy

        player = get_policy(policy)
        built: list[Deck] = []
        for seed_k in game_seeds(seed, BUILT_TRIES):
            deck = tuple(sorted(player.choose_ten(space.cards, Rng(seed_k))))
            if deck not in built:
                built.append(deck)
            if len(built) == BUILT:
                break
        return {k: deck for k, deck in enumerate(built, 1)}

    def dealer(self, space: DeckSpace, policy: str, seed: int) -> Callable[[Deck, Deck], tuple[Deck, Deck]] | None:
        """How an ordered pairing (seat A's deck, seat B's) becomes the two eights that play;
        ``None`` when decks play as they are."""
        if self.name == "duel":
            return None
        from ...policies import get_policy

        player = get_policy(policy)
        cards = space.cards

        def eights(a: Deck, b: Deck) -> tuple[Deck, Deck]:
            done = formats.constructed(
                cards, (lambda *_: list(a), lambda *_: list(b)), (player.ban, player.ban), Rng(seed)
            )
            return tuple(sorted(done.a)), tuple(sorted(done.b))

        return eights


_FORMATS = {
    "duel": MetaFormat("duel", formats.HAND_SIZE, "starter", "the starter decks"),
    "constructed": MetaFormat("constructed", formats.CONSTRUCTED_CHOICE, "built", "the tens the policy builds (R7.3)"),
}


def meta_format(name: str) -> MetaFormat:
    """The format called ``name``; another word is refused naming the formats."""
    if name not in _FORMATS:
        raise OptionError(f"meta: format {name!r}: one of {', '.join(FORMATS)}")
    return _FORMATS[name]


__all__ = ["FORMATS", "MetaFormat", "meta_format"]
