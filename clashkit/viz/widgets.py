"""ipywidgets views of the controllers (:mod:`clashkit.viz.controllers`).

Each view builds its widgets once, wires each button to one controller
method and redraws from the controller's state afterwards; it keeps no game
logic of its own.  ``view.widget`` is the root box, and a view displays itself
in a notebook cell.  Buttons carry CSS classes (``ck-next``, ``ck-back`` …) so a
browser test can find them.

=========================  ===============================================
:func:`hand_builder`       :class:`HandBuilderView` of a :class:`~.controllers.HandBuilder`
:func:`siege_lab`          :class:`SiegeLabView` of a :class:`~.controllers.SiegeLab`
:func:`rules_stepper`      :class:`RulesStepperView` of a :class:`~.controllers.RulesStepper`
:func:`card_designer`      :class:`CardDesignerView` of a :class:`~.controllers.CardDesigner`
=========================  ===============================================
"""

from __future__ import annotations

from .labs.card_designer_view import CardDesignerView, card_designer
from .labs.hand_builder_view import HandBuilderView, hand_builder
from .labs.rules_stepper_view import RulesStepperView, rules_stepper
from .labs.siege_lab_view import SiegeLabView, siege_lab
from .labs.view_common import NAME_WIDTH, events_html
from .tables import table_html

__all__ = [
    "CardDesignerView",
    "HandBuilderView",
    "NAME_WIDTH",
    "RulesStepperView",
    "SiegeLabView",
    "card_designer",
    "events_html",
    "hand_builder",
    "rules_stepper",
    "siege_lab",
    "table_html",
]
