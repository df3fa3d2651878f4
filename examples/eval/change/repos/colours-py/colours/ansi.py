"""ANSI escape sequences for colours, and whether to write them."""

import os

CSI = "\033["
RESET = CSI + "0m"

FORE = {"black": 30, "red": 31, "green": 32, "yellow": 33, "blue": 34, "magenta": 35, "cyan": 36, "white": 37}
BACK = {name: code + 10 for name, code in FORE.items()}


def code(number):
    """The escape sequence that selects graphic rendition `number`."""
    return f"{CSI}{number}m"


def enabled(environ=None):
    """Whether colour is on: off when NO_COLOR is set (https://no-color.org) or the terminal is dumb."""
    env = os.environ if environ is None else environ
    return "NO_COLOR" not in env and env.get("TERM") != "dumb"


def paint(text, fore=None, back=None, environ=None):
    """`text` in the colours named, reset after it; `text` unchanged when colour is off."""
    if not enabled(environ):
        return text
    codes = ""
    if fore is not None:
        codes += code(FORE[fore])
    if back is not None:
        codes += code(BACK[back])
    return f"{codes}{text}{RESET}" if codes else text
