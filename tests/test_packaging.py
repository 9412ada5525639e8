"""The built wheel carries the starter set (R9) and the rules reference, so an installed clashkit finds both,
and its command line and notebook module (``clashkit.viz``) import from it."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
UV = Path(sys.executable).with_name("uv")


@pytest.mark.skipif(not UV.exists(), reason="uv is not in this environment")
def test_wheel_carries_the_card_data_and_loads_it(tmp_path):
    subprocess.run([str(UV), "build", "--wheel", "-q", "-o", str(tmp_path / "dist")], cwd=ROOT, check=True)
    (wheel,) = (tmp_path / "dist").glob("clashkit-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        assert "clashkit/_data/cards.csv" in archive.namelist()
        assert {"clashkit/_docs/rules.md", "clashkit/_docs/scenarios.md"} <= set(archive.namelist())
        assert not [n for n in archive.namelist() if n.endswith((".so", ".pyd"))]  # a pure wheel
        archive.extractall(tmp_path / "site")
    assert (tmp_path / "site/clashkit/_data/cards.csv").read_bytes() == (ROOT / "data/cards.csv").read_bytes()
    assert (tmp_path / "site/clashkit/_docs/rules.md").read_bytes() == (ROOT / "docs/rules.md").read_bytes()
    probe = (
        "import clashkit, clashkit.base.cards as c, clashkit.base.rulebook as r; "
        "print(clashkit.__file__); print(c.shipped_cards_path()); print(len(c.starter_set())); "
        "print(r.rules_path()); print(len(r.all_rules())); print(r.rule('R6.5').title); "
        "import clashkit.viz as v, clashkit.cli as cli; print(v.__file__); print(cli.__file__)"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(tmp_path / 'site')!r}); {probe}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert out[0].startswith(str(tmp_path / "site"))
    assert out[1] == str(tmp_path / "site/clashkit/_data/cards.csv")
    assert out[2] == "32"
    assert out[3] == str(tmp_path / "site/clashkit/_docs/rules.md")
    assert out[4:6] == ["66", "Indestructible"]
    # the notebooks' module and the command line, from the wheel too (pip install . gives both)
    assert [Path(f).relative_to(tmp_path / "site").as_posix() for f in out[6:]] == [
        "clashkit/viz/__init__.py",
        "clashkit/cli/__init__.py",
    ]
