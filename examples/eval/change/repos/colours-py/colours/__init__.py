"""Coloured terminal text that turns itself off when the environment asks for plain text."""

from .ansi import BACK, FORE, RESET, enabled, paint

__all__ = ["BACK", "FORE", "RESET", "enabled", "paint"]
__version__ = "0.3.0"
