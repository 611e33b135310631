"""The names the Class tab shows for a trainee: told apart from another of the same name by
their trainee id, and marked while a trainee's own login claims one of their ids.

Plain words, without the class server's driver: the Class tab drawn from a progress file reads
them without loading PostgreSQL's (about 0.2 s of CPU the first time)."""

from __future__ import annotations

DISPUTED = " ⚑ disputed: "  # the mark after a trainee's name while one of their ids is claimed


def in_dispute(name: str, claimed: list[tuple[str, list[str]]]) -> str:
    """A trainee's name as the Class tab shows it while a trainee's own login claims one of their
    trainee ids (`claimed`: each id and its claimants' names; trainer.classes.server.people
    `disputed`): marked, with the claim's words, until the instructor settles it (settle-claim)."""
    if not claimed:
        return name
    return name + "".join(f"{DISPUTED}{', '.join(claimants)}'s login claims trainee id {uid[:8]}…"
                          for uid, claimants in claimed)


def told_apart(name: str, uid: str) -> str:
    """A trainee's name with enough of their id to tell them from another of the same name (two
    people called Ana, at two workstations, are two trainees of the class until an instructor
    merges them): the name the Class tab shows for each, as its Merge… lists every trainee."""
    suffix = f" (trainee id {uid[:8]}…)"
    return name if name.endswith(suffix) else name + suffix
