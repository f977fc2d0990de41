"""The ruleset-independent engine: states, events, decisions, geometry, replay and errors."""
