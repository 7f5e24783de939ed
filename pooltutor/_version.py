"""Single source of the pooltutor version (read by hatchling and the CLI)."""

__version__ = "0.1.0"
