"""The classroom: a workstation in a class, and the instructor's Class tab (skills by trainee, a
round replayed, the class live from the server, logins and workstations)."""
