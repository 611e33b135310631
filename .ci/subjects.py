"""Commit subjects of at most 72 characters (docs/ARCHITECTURE.md, "How we work"), checked on
every commit after SINCE, the last commit before the rule was checked here. Outside a git
checkout, or in one whose history does not reach SINCE (a shallow clone), it checks what it can
see (the last commit only) and says so."""

from __future__ import annotations

import subprocess
import sys

SINCE = "bde817f"  # the commits before it are history: 239 of them are longer, and stay
LIMIT = 72


def git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], capture_output=True, text=True, check=False)


def main() -> int:
    if git("rev-parse", "--git-dir").returncode:
        print("commit subjects: not a git checkout, nothing to check")
        return 0
    known = git("cat-file", "-e", f"{SINCE}^{{commit}}").returncode == 0
    span = [f"{SINCE}..HEAD"] if known else ["-1", "HEAD"]
    subjects = git("log", "--format=%h %s", *span).stdout.splitlines()
    long = [line for line in subjects if len(line.split(" ", 1)[1]) > LIMIT]
    if long:
        print(f"commit subjects over {LIMIT} characters (shorten them with git rebase -i):")
        print("\n".join(f"  {line}" for line in long))
        return 1
    where = "" if known else f" ({SINCE} not in this history: the last commit only)"
    print(f"commit subjects: {len(subjects)} checked, none over {LIMIT} characters{where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
