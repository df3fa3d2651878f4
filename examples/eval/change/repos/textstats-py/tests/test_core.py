import unittest

from textstats import word_count


class WordCountTest(unittest.TestCase):
    def test_counts_words(self):
        self.assertEqual(word_count("a b  c"), 3)

    def test_empty_text_has_no_words(self):
        self.assertEqual(word_count(""), 0)

    def test_refuses_non_text(self):
        with self.assertRaises(TypeError):
            word_count(3)
