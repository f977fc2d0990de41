"""The referee of whole battles: one module per section of the rules (§5), driven by ``armies_clash.game``.

Modules, lower layers first (each imports only from those above it): state (the frozen state, the turn and the
pending steps), pieces (lookups, commanders, isolation, hiding), objectives (§5.26), command (commanders, §5.6),
rounds (the round, §5.11), setup (§5.9), initiative (§5.10), movement (§5.12), attack (§5.14, §5.15),
spells (spells and areas, §5.16, §5.17), special_actions (Configure, Dash, Hide, Join, Retreat, §5.18–§5.22),
damage (§5.23), actions (battle actions, §5.13), morale (§5.25), ending (ending the battle, §5.27),
end_of_round (§5.24).
"""
