"""The command line's help with mistakes: "did you mean" for decks and cards (one helper,
clashkit.base.suggest), and a progress bar whose time left is measured as the run goes."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from clashkit.base.cards import starter_set
from clashkit.base.suggest import did_you_mean
from clashkit.cli import main
from clashkit.studies.design import Job, Settings, play_local


def test_one_helper_offers_the_close_names_best_first():
    assert did_you_mean("OGER", ["OGRE", "TROLL"]) == "; did you mean OGRE?"
    assert did_you_mean("darft", ["draft", "constructed"]) == "; did you mean draft?"
    assert did_you_mean("qqqq", ["draft", "constructed"]) == ""
    with pytest.raises(KeyError, match="unknown card 'OGER'; did you mean OGRE?"):
        starter_set().card("OGER")


@pytest.mark.parametrize(
    ("deck", "message"),
    [("darft", "did you mean draft?"), ("OGER,GNOEM", "unknown card 'OGER'; did you mean OGRE?")],
)
def test_a_mistyped_deck_gets_a_suggestion(deck, message, tmp_path):
    result = CliRunner().invoke(
        main, ["simulate", "-n", "1", "--a", deck, "--b", "2", "--out", str(tmp_path / "run"), "--no-progress"]
    )
    assert result.exit_code == 2 and message in result.stderr, result.stderr


def test_the_time_left_is_refreshed_from_the_bar_s_own_rate(capsys):
    jobs = [Job(1, 2, seed, 2, starter_set(), Settings("random", engine="reference")) for seed in range(3)]
    play_local(jobs, progress=True, desc="games", estimate=7.0)
    shown = capsys.readouterr().err
    assert "about 7 s by a probe (assumes the machine stays as busy as during it)" in shown
    assert "left at the rate so far" in shown.rsplit("\r", 1)[-1]
