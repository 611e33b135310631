"""`dealer-trainer settle [--jsonl]`: settle rounds given as JSON on stdin (docs/settle.md);
with --jsonl, one request per line and one answer per line."""

from __future__ import annotations

import gc
import json
import os
import sys

from trainer.commands._shared import EXIT_BAD_INPUT, loads
from trainer.errors import RequestError

NAME = "settle"
HELP = "settle a round given as JSON on stdin"
#: the largest settle request (one --jsonl line): a round of the largest game is a few kilobytes
MAX_REQUEST_CHARS = 1_000_000


def add_arguments(parser) -> None:
    parser.add_argument("--jsonl", action="store_true", help="one request per line, one answer per line")


def run(args) -> int:
    from trainer.settle import settle

    if not args.jsonl:
        text = sys.stdin.read(MAX_REQUEST_CHARS + 1)
        if len(text) > MAX_REQUEST_CHARS:
            raise RequestError("request", f"larger than {MAX_REQUEST_CHARS:,} characters; a request "
                                          "holds one round (use --jsonl for many)")
        response = settle(loads(text))
        sys.stdout.write(json.dumps(response, ensure_ascii=False, indent=1) + "\n")
        return 0
    bad = 0
    out = sys.stdout
    # Answers make many small objects and no reference cycles; collecting cycles after every
    # 700 allocations (the default) costs a fifth of the run. Collect every 1,000 lines instead,
    # and leave what the imports made out of those collections (gc.freeze).
    # Run in a process that goes on (a test), collection is as it was after, whatever happens.
    enabled, frozen = gc.isenabled(), gc.get_freeze_count() > 0
    gc.disable()
    if not frozen:
        gc.freeze()
    try:
        for n, line in enumerate(_lines(sys.stdin, MAX_REQUEST_CHARS), start=1):
            if n % 1000 == 0:
                gc.collect()
            try:
                if line is None:
                    raise RequestError("request",
                                       f"a line longer than {MAX_REQUEST_CHARS:,} characters")
                if not line.strip():
                    raise RequestError("request", "empty line")
                answer = _dump(settle(loads(line)))
            except RequestError as e:
                bad += 1
                answer = _dump({"error": str(e)})
            except Exception as e:  # a bug must not stop the other lines from being answered
                if os.environ.get("DEALER_TRAINER_DEBUG"):
                    raise
                bad += 1
                answer = _dump({"error": f"request: internal error ({type(e).__name__}: {e})"})
            out.write(answer + "\n")
        out.flush()
    finally:
        if not frozen:
            gc.unfreeze()
        if enabled:
            gc.enable()
    return EXIT_BAD_INPUT if bad else 0


def _dump(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _lines(stream, limit: int):
    """The lines of a stream, each at most `limit` characters; None for a longer one (read past
    in pieces, so a huge line costs no more memory than `limit`)."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) <= limit or line.endswith("\n"):
            yield line
            continue
        while line and not line.endswith("\n"):
            line = stream.readline(limit)
        yield None
