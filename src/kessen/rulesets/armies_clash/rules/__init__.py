"""The rules of armies-clash as pure procedures: each a function of a frozen question to an exact ``Dist``, or a
predicate of plain values (§5, §6). Nothing here knows the engine's state, the input files or pydantic.

Modules: ``dice_strings`` (the ``NdS+K`` notation, AC-PROC-DICE), ``d20`` (tests, advantage, natural 1 and 20,
AC-D20), ``tables`` (exact convolution of weight tables), ``damage`` (damage rolls, criticals, doubling, resistance;
solos hit by hit, AC-DMG-5), ``grid`` (squares, footprints,
distances, terrain costs, ranges, areas), ``movement`` (speeds, budgets, where a piece may go, AC-MOVE),
``integrity`` (isolation, AC-INTEG), ``attack`` (``attack``, ``unit_attack``, ``solo_attack``: §6.3, §6.4),
``spells`` (``save``, automatic damage, spell uses: §6.5, AC-SPELL, AC-AOE), ``morale`` (§6.6), ``commanders``
(``commander_check``, §6.7), ``initiative`` (§6.8), ``ending`` (``decisive_rout``, §6.9), ``dying``
(``death_saves``, §6.10). The attack records, cover and formations they read are ``profiles.py``, beside ``rules/``.
"""
