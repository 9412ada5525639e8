"""The notebook labs, each a controller (plain Python, testable without a browser) beside its
ipywidgets view: ``hand_builder`` and ``hand_builder_view``, ``siege_lab`` and
``siege_lab_view``, ``rules_stepper`` and ``rules_stepper_view``, ``card_designer`` and
``card_designer_view``; what they share is in ``lab_common`` and ``view_common``.
:mod:`clashkit.viz.controllers` and :mod:`clashkit.viz.widgets` gather them.
"""
