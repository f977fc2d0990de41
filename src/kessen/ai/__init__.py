"""kessen's AI, the same for every ruleset (issue 23): the game tree, the search, the levels and the advisor.

    tree.py      Position: a settled state of a game, forked for nothing; node, outcomes, apply, scores
    tactics.py   Tactics: what a ruleset's ai.py tells the search (candidates, evaluation, its greedy AI)
    search.py    SearchAI: greedy playouts from each candidate, halved on their paired results, within a budget
    levels.py    greedy, search, search:N, random and plug-ins: the Decider each level makes for a side
    advisor.py   each option's chance to win: exact where the rest of the battle is small, else playouts
"""
