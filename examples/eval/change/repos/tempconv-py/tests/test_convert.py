import unittest

from tempconv import celsius_to_fahrenheit, fahrenheit_to_celsius


class ConvertTest(unittest.TestCase):
    def test_boiling_point(self):
        self.assertEqual(celsius_to_fahrenheit(100), 212)

    def test_freezing_point(self):
        self.assertEqual(fahrenheit_to_celsius(32), 0)

    def test_round_trip(self):
        self.assertAlmostEqual(fahrenheit_to_celsius(celsius_to_fahrenheit(37.5)), 37.5)


if __name__ == "__main__":
    unittest.main()
