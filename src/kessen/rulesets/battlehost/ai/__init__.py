"""The battlehost AI: the fast greedy one (:mod:`.greedy`) and the tactics the search asks (:mod:`.tactics`,
:mod:`.evaluation`)."""

from kessen.rulesets.battlehost.ai.greedy import BattlehostAI, engaged_ids_after_move, holds_choke_point
from kessen.rulesets.battlehost.ai.tactics import BattlehostTactics

__all__ = ["BattlehostAI", "BattlehostTactics", "engaged_ids_after_move", "holds_choke_point"]
