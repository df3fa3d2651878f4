import os
import unittest

from colours import enabled, paint


class EnvironmentTest(unittest.TestCase):
    """The library as it runs: in a plain terminal or CI without NO_COLOR, colour is on."""

    def test_colour_is_on_in_this_environment(self):
        self.assertNotIn("NO_COLOR", os.environ)
        self.assertTrue(enabled())

    def test_paint_colours_by_default(self):
        self.assertTrue(paint("x", fore="green").startswith("\033[32m"))
