"""The song-of-blades AI: the fast greedy one (:mod:`.greedy`) and the tactics the search asks (:mod:`.tactics`,
:mod:`.evaluation`)."""

from kessen.rulesets.song_of_blades.ai.greedy import SobAI, nearest_to_the_enemy
from kessen.rulesets.song_of_blades.ai.tactics import SobTactics

__all__ = ["SobAI", "SobTactics", "nearest_to_the_enemy"]
