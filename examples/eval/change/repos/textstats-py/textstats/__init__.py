from .core import word_count

__all__ = ["word_count"]
