"""The battlehost engine: the frozen state, the options, setup, turns and phases; each module named after the
rules/ module it drives (shooting, duel, strikes, fight, might), the others after their part of the rules."""
