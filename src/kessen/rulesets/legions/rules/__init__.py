"""The legions rules as pure procedures: each a function of a frozen, hashable question to an exact distribution.

Nothing here knows the engine (``referee``), the input validation (``procedures``) or pydantic.
"""
