"""Supervising: a floor supervisor watches a dealer work a round and catches the dealer's mistakes.

`catalogue` holds the fault types (each the mutation of a correct step the grader knows, with
its section, severity and the supervisor's words), `rounds` deals a supervised round (the correct
dealer with faults put in, seeded) and `scoring` scores a supervisor's flags by signal detection.
"""
