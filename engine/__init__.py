"""pbrain-renju: a Renju and Gomoku engine for the Gomocup/Piskvork protocol."""

__version__ = "0.1.0"
