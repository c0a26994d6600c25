"""fepaper's version: the one place it is written (pyproject.toml reads it; CHANGELOG.md says what each
version brought)."""

__version__ = "0.4.0"
