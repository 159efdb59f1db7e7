"""modtool: a director's tool for forum social-deduction games."""

__version__ = "0.1.0"
