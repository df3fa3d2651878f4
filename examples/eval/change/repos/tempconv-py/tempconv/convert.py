"""Conversions between temperature scales."""


def celsius_to_fahrenheit(celsius):
    """Degrees Celsius in degrees Fahrenheit."""
    return celsius * 9 / 5 + 32


def fahrenheit_to_celsius(fahrenheit):
    """Degrees Fahrenheit in degrees Celsius."""
    return (fahrenheit - 32) * 5 / 9
