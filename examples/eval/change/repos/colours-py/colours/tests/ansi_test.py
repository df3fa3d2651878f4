import unittest

from colours.ansi import BACK, FORE, RESET, code, paint


class CodeTest(unittest.TestCase):
    def test_code_is_a_select_graphic_rendition(self):
        self.assertEqual(code(31), "\033[31m")

    def test_backgrounds_are_ten_above_foregrounds(self):
        self.assertEqual(BACK["red"], FORE["red"] + 10)


class PaintTest(unittest.TestCase):
    def test_paints_and_resets(self):
        self.assertEqual(paint("hi", fore="red", environ={}), "\033[31mhi" + RESET)

    def test_both_colours(self):
        self.assertEqual(paint("hi", fore="red", back="blue", environ={}), "\033[31m\033[44mhi" + RESET)

    def test_no_colour_named_is_plain(self):
        self.assertEqual(paint("hi", environ={}), "hi")

    def test_no_color_turns_it_off(self):
        self.assertEqual(paint("hi", fore="red", environ={"NO_COLOR": "1"}), "hi")
