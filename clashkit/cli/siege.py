"""``clashkit siege SCENARIO [--json]``: run a scenario's siege (``docs/scenarios.md``)."""

from __future__ import annotations

import json

import click

from ..engine.scenario import load_scenario, run_siege
from ..show.render import describe_event, describe_state, event_dicts, state_dict


@click.command("siege")
@click.argument("scenario", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the account.")
def command(scenario: str, as_json: bool) -> None:
    """Run the active player's siege from a SCENARIO file (TOML).

    Plays the summon-phase actions, then the siege with the siege actions in
    their windows (R3.9–R3.11), and stops at the end of the siege, before
    regeneration, so the damage is still visible.
    """
    loaded = load_scenario(scenario)
    state = run_siege(loaded)
    if as_json:
        click.echo(json.dumps(state_dict(state)))
        return
    lines = ["start:", *("  " + line for line in _start_text(loaded)), ""]
    lines += [f"{e['step']:3}  {describe_event(e)}" for e in event_dicts(state)]
    lines += ["", "end of the siege:", *("  " + line for line in describe_state(state).splitlines())]
    click.echo("\n".join(lines))


def _start_text(scenario) -> list[str]:
    return describe_state(scenario.initial).splitlines()
