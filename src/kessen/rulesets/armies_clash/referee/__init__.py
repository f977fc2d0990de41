"""The referee of whole battles: the state machine (``machine``) and one module per part of the rules (§5).

Lower layers first (each imports only from those above it): ``steps`` (the pending steps, the decision kinds),
``state`` (the frozen state, the pieces, the turn), ``options``, ``pieces`` (lookups, commanders, hiding), ``integrity`` (isolation), ``objectives``
(§5.26), ``commanders`` (§5.6), ``rounds`` (§5.11), ``setup`` (§5.9), ``initiative`` (§5.10), ``movement``
(§5.12), ``damage`` (§5.23), ``attack`` (§5.14, §5.15), ``spells`` (§5.16, §5.17), ``special_actions``
(§5.18–§5.22), ``actions`` (§5.13), ``morale`` (§5.25), ``ending`` (§5.27), ``dying`` and ``end_of_round``
(§5.24), ``machine`` (the step table), ``game`` (the ``Game`` the engine drives, and ``ENGINE``).
"""
