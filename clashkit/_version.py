"""clashkit's version (the package's, in ``pyproject.toml``)."""

__version__ = "0.1.0"
