"""The closed vocabularies of the rulebook (R1, R5.5, R6, R8).

Each enum's values are the words of ``docs/rules.md`` and the categories of the
``pl.Enum`` columns of the trace frames.  Inside the engine players and lanes
are plain indices (``0``/``1``) so that the state stays a handful of small
integers; ``PLAYERS[i]`` and ``LANES[i]`` turn an index back into its word.
"""

from __future__ import annotations

from enum import StrEnum


class Player(StrEnum):
    """R1.1: the two players.  In solo mode (R8) B is the AI."""

    A = "A"
    B = "B"

    @property
    def index(self) -> int:  # type: ignore[override]  # deliberately shadows str.index: the player's 0/1 index
        return 0 if self is Player.A else 1


class Lane(StrEnum):
    """R1.2: the two lanes, each crossing one bridge."""

    UPPER = "upper"
    LOWER = "lower"

    @property
    def index(self) -> int:  # type: ignore[override]  # deliberately shadows str.index: the lane's 0/1 index
        return 0 if self is Lane.UPPER else 1


class Phase(StrEnum):
    """R1.6: the phases of a turn, plus the setup and the finished game."""

    SETUP = "setup"
    MANA = "mana"
    SUMMON = "summon"
    SIEGE = "siege"
    END = "end"
    OVER = "over"


class Kind(StrEnum):
    """R1.3: the two kinds of card."""

    CREATURE = "creature"
    INCANTATION = "incantation"


class Keep(StrEnum):
    """R1.1: the side of the Bastion/Fort card that is up."""

    BASTION = "bastion"
    FORT = "fort"


class Ability(StrEnum):
    """R6: the special abilities.  Aura (R6.8) is written separately on a card."""

    SPLASH = "splash"
    PIERCE = "pierce"
    RAGE = "rage"
    PROTECTION = "protection"
    INDESTRUCTIBLE = "indestructible"
    BLOODLUST = "bloodlust"
    SPRINT = "sprint"

    @property
    def bit(self) -> int:
        return ABILITY_BITS[self]


class Direction(StrEnum):
    """R6.8: the directions an Aura reaches."""

    FRONT = "front"
    BEHIND = "behind"
    SIDE = "side"


class Effect(StrEnum):
    """R5.5: what an incantation does to its target."""

    DAMAGE = "damage"
    DESTROY = "destroy"
    BOUNCE = "bounce"
    SHIFT = "shift"
    WEAKEN = "weaken"
    EMPOWER = "empower"
    GRANT = "grant"
    HEAL = "heal"


class TargetSide(StrEnum):
    """R5.5: whom an incantation's effect is meant for."""

    ENEMY = "enemy"
    ALLY = "ally"
    ANY = "any"


class Mode(StrEnum):
    """Duel (R2–R7) or solo against the AI (R8)."""

    DUEL = "duel"
    SOLO = "solo"


PLAYERS: tuple[Player, Player] = (Player.A, Player.B)
LANES: tuple[Lane, Lane] = (Lane.UPPER, Lane.LOWER)

#: The engine keeps a creature's abilities as a bit mask, one bit per ability.
ABILITY_BITS: dict[Ability, int] = {ability: 1 << i for i, ability in enumerate(Ability)}
SPLASH, PIERCE, RAGE, PROTECTION, INDESTRUCTIBLE, BLOODLUST, SPRINT = (ABILITY_BITS[a] for a in Ability)
#: Aura directions as bits (R6.8).
FRONT, BEHIND, SIDE = 1, 2, 4
DIRECTION_BITS: dict[Direction, int] = {
    Direction.FRONT: FRONT,
    Direction.BEHIND: BEHIND,
    Direction.SIDE: SIDE,
}
#: The effects as plain module globals, for hot loops (a member lookup like
#: ``Effect.DAMAGE`` costs more than reading a global).
(
    EFFECT_DAMAGE,
    EFFECT_DESTROY,
    EFFECT_BOUNCE,
    EFFECT_SHIFT,
    EFFECT_WEAKEN,
    EFFECT_EMPOWER,
    EFFECT_GRANT,
    EFFECT_HEAL,
) = tuple(Effect)
#: Sentinel card id for the keep in a hand or an AI pile (R1.1).
KEEP = -1


def hand_health_of(hand: list[int]) -> int:
    """R1.5: a hand's hand-health, the cards right of the keep."""
    return len(hand) - 1 - hand.index(KEEP)


def pile_health_of(pile: list[int]) -> int:
    """R8.6: the solo AI's hand-health, the cards of the AI pile above its keep (the keep is last)."""
    return len(pile) - 1


def abilities_of(mask: int) -> tuple[Ability, ...]:
    """The abilities in a bit mask, in rulebook order."""
    return tuple(a for a, bit in ABILITY_BITS.items() if mask & bit)


class Termination(StrEnum):
    """Every way a game of Clash of Decks ends (R3.8, R4.9, R8.7, R10.1; :mod:`clashkit.engine.outcome`)."""

    #: R4.9 (and R3.8, R4.8): a player's Fort was destroyed — hit with the keep
    #: rightmost, or the keep left rightmost by a play; the other player wins.
    #: In solo mode only the player has a Fort that can fall.
    FORT_FELL = "fort_fell"
    #: R8.7: the player was still standing at the end of the AI's last turn (the
    #: AI pile down to its Fort); the player wins.  The AI pile never runs out in
    #: another way: milling stops at the keep (R8.6).
    AI_LAST_TURN_SURVIVED = "ai_last_turn_survived"
    #: R10.1: the turn limit was reached; nobody wins.
    TURN_LIMIT = "turn_limit"
