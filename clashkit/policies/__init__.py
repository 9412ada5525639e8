"""Policies (bots): :class:`Policy` and the shipped ones, by name.

``get_policy("greedy")`` makes one; :data:`POLICIES` lists the names.  Other
packages add policies under names of their own through the ``clashkit.policies``
entry point group (a name and the policy class, as ``openspiel`` =
``clashkit.interop.bots:OpenSpielPolicy`` in ``pyproject.toml``): a name not in
:data:`POLICIES` is looked up there, so a policy from a higher layer is found
without this layer importing it.

The policies layer: bots decide from a state they are shown and return an action.
May import: :mod:`clashkit.engine`, :mod:`clashkit.base`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..base.errors import OptionError
from ..base.suggest import did_you_mean
from .base import Policy
from .deep import DeepPolicy
from .expert import ExpertPolicy
from .greedy import GreedyPolicy
from .random_policy import RandomPolicy
from .search import SearchPolicy

POLICIES: dict[str, type[Policy]] = {
    "random": RandomPolicy,
    "greedy": GreedyPolicy,
    "search": SearchPolicy,
    "expert": ExpertPolicy,
    "deep": DeepPolicy,
}


def get_policy(spec: str | Policy) -> Policy:
    """A policy from its name (``random``, ``greedy``, ``search:budget=64``) or itself.

    An option written without a value is an on/off option switched on: ``search:fair`` is
    ``search:fair=true`` (only for options that are on/off); an option given twice is refused."""
    if isinstance(spec, Policy):
        return spec
    name, _, options = str(spec).partition(":")
    cls = POLICIES.get(name.strip().lower()) or _registered(name.strip().lower())
    if cls is None:
        known = [*POLICIES, *registered_names()]
        raise OptionError(f"unknown policy {spec!r} (one of {', '.join(known)}){did_you_mean(name, known)}")
    kwargs: dict[str, int | str] = {}
    for part in filter(None, options.split(",")):
        key, sep, value = part.partition("=")
        if not sep:
            if not _is_flag(cls, key.strip()):
                raise OptionError(f"policy option {part!r} is not KEY=VALUE")
            value = "true"
        if key.strip() in kwargs:
            raise OptionError(f"policy {name.strip()!r}: option {key.strip()!r} is given twice; give each option once")
        value = value.strip()
        # Only ASCII digits are a number (``int`` would also read other scripts' digits);
        # the policy checks each option's range (``clashkit.base.limits``).
        digits = value.removeprefix("-")
        kwargs[key.strip()] = int(value) if digits.isascii() and digits.isdigit() and len(digits) <= 20 else value
    import inspect

    known = [
        p.name
        for p in inspect.signature(cls).parameters.values()
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name not in cls.code_only_options
    ]
    for key in kwargs:
        if key not in known:
            takes = f"its options are {', '.join(known)}" if known else "it takes no options"
            raise OptionError(f"policy {name.strip()!r} has no option {key!r} ({takes}){did_you_mean(key, known)}")
    try:
        return cls(**kwargs)
    except TypeError as e:
        raise OptionError(f"policy {name!r}: {e}") from None


#: The entry point group where other packages register policies by name.
ENTRY_POINTS = "clashkit.policies"


def registered_names() -> list[str]:
    """The policy names registered through the :data:`ENTRY_POINTS` group (not loaded)."""
    from importlib.metadata import entry_points

    return sorted({ep.name for ep in entry_points(group=ENTRY_POINTS)} - set(POLICIES))


def _registered(name: str) -> type[Policy] | None:
    """The policy class registered as ``name`` (loaded now), or None; a registered policy
    whose package is missing is one clear line."""
    from importlib.metadata import entry_points

    for ep in entry_points(group=ENTRY_POINTS, name=name):
        try:
            return ep.load()
        except ImportError as e:
            raise OptionError(f"policy {name!r} needs a package that is not installed ({e.name}): {e}") from None
    return None


def _is_flag(cls: type[Policy], key: str) -> bool:
    import inspect

    parameter = inspect.signature(cls).parameters.get(key)
    return parameter is not None and isinstance(parameter.default, bool)


def parse_policies(text: str | Sequence[str], *, where: str = "--policies", least: int = 2) -> list[str]:
    """``"random,greedy,search:budget=4"`` as a list of policy names, each checked; a policy's
    own options are separated by commas too, so a part with ``=`` and no ``:`` belongs to
    the policy before it (``search:budget=4,fair`` is one policy)."""
    if not isinstance(text, str | Sequence):
        raise OptionError(f"{where}: {text!r} is not a list of policies (e.g. 'greedy,search:fair')")
    if isinstance(text, str):
        parts: list[str] = []
        for part in (p.strip() for p in text.split(",")):
            if not part:
                continue
            if parts and ":" not in part and ("=" in part or part in _FLAGS):
                parts[-1] += "," + part
            else:
                parts.append(part)
    else:
        parts = [str(p).strip() for p in text]
    for part in parts:
        try:
            get_policy(part)
        except OptionError as e:
            raise OptionError(f"{where}: {e}") from None
    if len(set(parts)) != len(parts):
        raise OptionError(f"{where}: a policy is named twice")
    if len(parts) < least:
        raise OptionError(f"{where}: name at least {least} policies (e.g. greedy,search:fair)")
    return parts


#: On/off policy options that may follow another option without a ``:`` (``search:budget=4,fair``).
_FLAGS = ("fair", "ismcts", "mcts")


__all__ = [
    "ENTRY_POINTS",
    "POLICIES",
    "DeepPolicy",
    "ExpertPolicy",
    "GreedyPolicy",
    "Policy",
    "RandomPolicy",
    "SearchPolicy",
    "get_policy",
    "parse_policies",
    "registered_names",
]
