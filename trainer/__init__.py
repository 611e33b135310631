"""Dealer Trainer's engine: the rules of Pennsylvania's regulated dice games, with no Qt.

The user interface lives in `ui`; this package never imports it (an import-linter contract in
pyproject.toml holds that line). The UI reaches the engine through four faces only: this
package, `trainer.progress`, `trainer.classes` and `trainer.exams` (tests/test_faces.py holds
that line).

This face names what the UI may use. Each name loads its module when first used, so that
`import trainer` (every command's start) stays cheap.
"""

from trainer.faces import lazy_face, names_from

__version__ = "0.1.0"

#: each public name, and the module (and the name there) it comes from; a name with no attribute
#: is a module of the engine, used as a namespace (`games.get(...)`, `odds.report(...)`)
FACE: dict[str, tuple[str, str | None]] = {
    # modules used whole
    **{m: (f"trainer.{m}", None) for m in ("cli", "games", "odds", "policy", "readings",
                                           "regulations")},
    # a round being worked, and what the table shows
    **names_from("trainer.practice", "PracticeRound", "Feedback", "NEEDS_WAGER", "CLEARS_SELECTION",
                 "PLACEMENTS"),
    **names_from("trainer.table_state", "TableState", "Mark", "COCKED"),
    # the words of a procedure, and what an action asks of the trainee
    **names_from("trainer.vocabulary", "Do", "Skill", "SKILL_TITLES", "Automation"),
    **names_from("trainer.procedure.model", "LABELS", "Amount", "Choice", "Number", "Place"),
    **names_from("trainer.procedure", "build"),
    **names_from("trainer.grading", "Result"),
    # a trainee's own voice: the calls read, the transform estimated and kept (numpy's, loaded
    # only when a voice is taught or a call heard with one)
    "voice_enrolment": ("trainer.speech.enrolment", None),
    "kept_voices": ("trainer.speech.voices", None),  # each voice kept, listed and forgotten
    "call_words": ("trainer.speech.words", None),  # a call in the words a dealer says it
    **names_from("trainer.errors", "RequestError"),
    # spoken calls: the call owed, and the action a verdict of the recogniser makes
    "spoken": ("trainer.spoken", None),
    "kept_calls": ("trainer.speech.kept", None),  # the calls kept with the trainee's consent
    "call_wav": ("trainer.speech.audio", "opened"),  # a call's WAV file, read only if a call's size
    # scenarios and rounds dealt
    **names_from("trainer.scenario", "Scenario", "ScenarioError"),
    "load_scenario": ("trainer.scenario", "load"),
    **names_from("trainer.library", "Library", "load_library"),
    **names_from("trainer.drills", "SKILL_GAMES", "payout_drill", "payout_drill_built",
                 "random_round", "random_round_built"),
    # the games' registry, money, layouts and files
    **names_from("trainer.games", "GAME_IDS", "GAME_NAMES"),
    "get_game": ("trainer.games", "get"),
    **names_from("trainer.money", "DENOMINATIONS", "chips", "chips_text", "fmt", "fmt_dollars",
                 "read_payout"),
    **names_from("trainer.paytables", "layout", "paytable"),
    **names_from("trainer.paths", "resources_dir"),
    # supervising: a round with faults put in, played back (its frames, what may be pointed at
    # and said), and the supervisor's flags scored
    "playback": ("trainer.supervise.playback", None),
    **names_from("trainer.supervise.scoring", "Flag", "FlagsError", "Score", "WEIGHTS", "WINDOW",
                 "flags_from_json"),
    "score_flags": ("trainer.supervise.scoring", "score"),
    **names_from("trainer.supervise.catalogue", "FaultClass"),
    # the machine-wide configuration a school's IT person sets once
    **names_from("trainer.config", "KEYS", "ConfigError", "MachineConfig", "machine_config", "places",
                 "data_folder", "themes"),
    # the words people read for the engine's ids
    **names_from("trainer.words", "automation_words", "no_roll_words", "part_title",
                 "paytable_entry_words", "readable"),
}

__getattr__, __dir__, _names = lazy_face(__name__, FACE)
__all__ = ["__version__", *_names]
