"""The kessen version (one place: the package, the saves and --version read it)."""

__version__ = "0.1.0"
