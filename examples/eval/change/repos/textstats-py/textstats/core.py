"""Counting words."""


def word_count(text):
    """The number of whitespace-separated words in text."""
    if not isinstance(text, str):
        raise TypeError("text must be a str")
    return len(text.split())
