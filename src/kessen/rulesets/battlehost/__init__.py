"""Not built yet: see the issue for this ruleset."""
