"""The toy's rules as pure procedures: ``dash`` (TOY-1)."""
