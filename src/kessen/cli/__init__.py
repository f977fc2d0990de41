"""The ``kessen`` command (typer + rich): with web/, the only place that prints, prompts or exits."""
