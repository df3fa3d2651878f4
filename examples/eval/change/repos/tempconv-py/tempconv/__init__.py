"""Converting temperatures."""

from tempconv.convert import celsius_to_fahrenheit, fahrenheit_to_celsius

__all__ = ["celsius_to_fahrenheit", "fahrenheit_to_celsius"]
