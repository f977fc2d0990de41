"""The legions engine: the battle's state, its pending steps and their nodes, and one module per part of the rules,
each driving the ``rules`` module of its name; it asks the rules their questions directly from the state."""
