"""``clashkit play``: one game between two policies, as a readable log or as JSON."""

from __future__ import annotations

import json

import click

from ..base.cards import load_cards, starter_set
from ..base.rules import RULES_VERSION, Rules, parse_settings
from ..base.vocab import PLAYERS
from ..policies import get_policy
from ..runs.game import finish, new_game, play
from ..show.render import describe_event, describe_state, event_dicts
from .design_options import cards_option
from .numbers import Whole

#: Events the readable log leaves out: each turn's header already says them.
_QUIET = {"turn_started", "mana_gained", "regeneration"}


@click.command("play")
@click.option(
    "--a",
    "deck_a",
    default="1",
    show_default=True,
    metavar="DECK",
    help="A's deck: 1-4, draft, constructed, 8 comma-separated card names, or a file.",
)
@click.option("--b", "deck_b", default="2", show_default=True, metavar="DECK", help="B's deck (as --a).")
@click.option(
    "--policy-a",
    default="greedy",
    show_default=True,
    metavar="P",
    help="A's policy: random, greedy, search, search:budget=N.",
)
@click.option(
    "--policy-b",
    default="greedy",
    show_default=True,
    metavar="P",
    help="B's policy (as --policy-a).",
)
@click.option(
    "--seed",
    default=0,
    show_default=True,
    type=Whole("seed"),
    help="The game's seed (R10.2).",
)
@cards_option("A card file instead of the shipped set.")
@click.option(
    "--rules",
    "rules_text",
    default="",
    metavar="K=V,...",
    help="Rules options (R10.3), e.g. first_player=last_drafter,turn_limit=100.",
)
@click.option("--mirror", is_flag=True, help="Allow both players the same starter deck.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object: the game and its events.")
def command(deck_a, deck_b, policy_a, policy_b, seed, cards_file, rules_text, mirror, as_json) -> None:
    """Play one duel between two policies and print its log and result.

    The log is grouped by turn; each turn starts with both hands (the keep
    and hand-health) and the lanes as they are once the mana is gained.
    """
    cards = load_cards(cards_file) if cards_file else starter_set()
    rules = Rules.from_mapping(parse_settings(rules_text, where="--rules"), where="--rules")
    policies = (get_policy(policy_a), get_policy(policy_b))
    state, fmt = new_game(deck_a, deck_b, *policies, cards=cards, rules=rules, seed=seed, mirror=mirror)
    decks = [[cards.names[c] for c in sorted(state.hands[p]) if c >= 0] for p in (0, 1)]
    # Step through the game, keeping the table as it is when each turn's mana is in.
    headers = {state.turn: (0, describe_state(state))}
    assert state.log is not None, "new_game records the game's events by default"
    while not state.over:
        play(state, *policies, max_steps=1)
        if state.turn not in headers and not state.over:
            headers[state.turn] = (len(state.log), describe_state(state))
    finish(state)
    events = event_dicts(state)
    info = {
        "seed": seed,
        "mode": "duel",
        "format": fmt,
        "deck_a": decks[0],
        "deck_b": decks[1],
        "policy_a": str(getattr(policies[0], "name", policy_a)),
        "policy_b": str(getattr(policies[1], "name", policy_b)),
        "first_player": PLAYERS[state.first_player].value,
        "winner": None if state.winner is None else PLAYERS[state.winner].value,
        "turns": state.turn,
        "finished": state.winner is not None,
        "termination": state.termination.value if state.termination is not None else None,
        "rules_version": RULES_VERSION,
        "rules": state.rules.changes(),
    }
    if as_json:
        click.echo(json.dumps({**info, "events": events}))
        return
    click.echo(_log(info, events, headers))


def _log(info: dict, events: list[dict], headers: dict[int, tuple[int, str]]) -> str:
    lines = [
        f"{info['format']} duel, seed {info['seed']}: A ({info['policy_a']}) {', '.join(info['deck_a'])}",
        f"{' ' * (len(info['format']) + 13 + len(str(info['seed'])))}"
        f"B ({info['policy_b']}) {', '.join(info['deck_b'])}",
        f"{info['first_player']} plays first (6 mana, R2.3).",
    ]
    for event in events:
        turn = event["turn"]
        if event["kind"] == "turn_started" and turn in headers:
            lines += ["", *headers[turn][1].splitlines()]
        if event["kind"] not in _QUIET:
            lines.append(f"  {describe_event(event)}")
    lines.append("")
    if info["winner"] is None:
        lines.append(f"Unfinished after {info['turns']} turns (turn limit, R10.1).")
    else:
        lines.append(f"{info['winner']} wins on turn {info['turns']}.")
    return "\n".join(lines)
