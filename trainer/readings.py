"""How the engine reads what the regulations leave open: the one home of every reading.

Each reading here is shown on the rules screen, cited in feedback, and is the only place the
engine's code takes these choices from. A property whose Rules Submission differs changes it here
(or, for paytables and hop regions, in the data files under resources/).

docs/readings.md shows every reading, written from this module (tests/test_docs.py keeps the two
the same).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Reading:
    id: str
    game: str  # "all" or a game id
    title: str
    text: str
    sections: tuple[str, ...] = ()


# --- Constants the engine takes from the readings (one place, named after the reading) ----------

#: seats per game (reading "seats")
SEATS = {
    "props-and-hops": 6,
    "three-dice-football": 16,
    "high-roll-dice": 6,
    "high-roll-dice-6": 6,
    "pai-gow-dice": 6,
}
#: Three Dice Football (readings "tdf-yard-marker", "tdf-downs")
YARD_MARKER_START = 20
GOAL_TO_GO_LINE = 10
PENALTY_YARDS = 1
MAX_PLAYS = 6
#: High Roll Dice rank, highest first (reading "hrd-winning-face")
HRD_RANK = (1, 6, 5, 4, 3, 2)
#: Millionaire Row's largest wager, in cents (reading "hrd-wager-rules")
MILLIONAIRE_MAX_CENTS = 100


READINGS: tuple[Reading, ...] = (
    Reading("money-and-breakage", "all", "Money and breakage",
            "Money is dollars and cents. A wager that pays \"X to Y\" wins amount × X / Y; the player "
            "keeps the original wager and the payout does not include it. A payout that is not a "
            "whole cent is rounded down to the cent."),
    Reading("seats", "all", "Seat numbers",
            "Seats are numbered from 1, the seat at the dealer's far left (\"first base\"), rising "
            "toward the dealer's right. Props & Hops, High Roll Dice and the Pai Gow dice wagers "
            "have seats 1–6; Three Dice Football has seats 1–16.",
            ("668a.1(a)", "577.2(a)", "675a.1(a)")),
    Reading("settlement-order", "all", "Order of settlement",
            "Settle in the order the chapter gives, and only there: where the text lists wagers "
            "with \"and\" and no \"first\" or \"then\", they are settled in any order among "
            "themselves. Collecting every loser before paying any winner is a house convention, "
            "never required by the grader (see \"Orders that are all right\")."),
    Reading("refused-wagers", "all", "Refused wagers",
            "A wager the rules forbid (wrong time, wrong amount, missing prerequisite) is refused: it "
            "is not placed and not settled. A trainee who accepts it has made a procedure error."),
    Reading("no-roll", "all", "No roll",
            "A \"no roll\" (invalid throw) settles nothing. The same wagers stand for the next "
            "throw, and no new wager joins them: the dice are shaken again while \"no more bets\" "
            "stands. In Props & Hops and the Pai Gow dice wagers a wager offered for the throw "
            "after a no roll is refused as late, citing the no roll's section (§ 668a.3(f)-(h)) or "
            "§ 645c.2(f); High Roll Dice refuses every wager after \"no more bets\" anyway.",
            ("668a.3(g)", "668a.3(h)", "645c.2(f)")),
    Reading("one-wager-per-bet", "all", "One wager per bet",
            "A seat has at most one wager on each bet. More chips on a bet that is already standing "
            "add to it (they are one wager), subject to the same rules as a new wager. In High Roll "
            "Dice the chips on one bet are added up first, then the wager is judged whole."),
    Reading("improper-offers", "all", "Improper wagers are refused",
            "A wager offered as cash with a verbal call, from a player who is not seated, or too "
            "late is refused, whatever the game. Where the chapter says so, its section is cited: "
            "Props & Hops § 668a.2(a)-(c); High Roll Dice § 675a.2(a)-(c); Three Dice Football "
            "§ 577.3(a) (cash) and § 577.3(e) (single play wagers before the Quarterback's throw); "
            "Pai Gow dice § 645c.2(f) (before the shaker is used). Chapter 577 has no seating rule "
            "and our copy of § 645c.2 says nothing of cash or seating: there this reading is the "
            "rule, as in the games that do have one.",
            ("668a.2(a)", "668a.2(b)", "668a.2(c)", "577.3(a)", "577.3(e)", "675a.2(a)",
             "675a.2(b)", "675a.2(c)", "645c.2(f)")),
    Reading("event-order", "all", "Events happen in the order of the scenario file",
            "A scenario's wagers and take-downs take effect in the order the file lists them: a Six "
            "Eight Shake wager offered while a lammer has moved is refused even when another "
            "player's take-down comes after it. In a settle request a throw's take-downs come "
            "before its wagers. A take-down after the last throw is an error in the file."),
    Reading("settlement-orders", "all", "Orders that are all right",
            "The answer key accepts every order the regulation allows and marks only what breaks "
            "an order the text imposes. Props & Hops: collect every losing wager, then pay the "
            "winners (§ 668a.3(i)); a lammer moves at any point of the settlement (\"provided "
            "that\" sets no order), and the Six Eight Shake is paid once the sixth has moved. "
            "Three Dice Football after a down: the single play wagers in any order, "
            "then the down and distance (§ 577.6(d)); at the end of the game, § 577.6(f) as "
            "written: after a touchdown, first collect Defense, then settle the single play and "
            "the other full game wagers in any order, then the extra point roll if an Extra Point "
            "wager stands, then pay Touchdown and settle Extra Point; without one, first collect "
            "Touchdown and Extra Point and pay Defense, in any order, then settle the single play "
            "and remaining full game wagers in any order. High Roll Dice: each player's Pip "
            "Street, then Like Kind, then Millionaire Row (§ 675a.4(f)(1)-(3)), collecting and "
            "paying within each in any order; players in any order. Pai Gow dice wagers: any "
            "order, player by player or all losers first (§ 645c.2(g) sets none). A turnover is "
            "announced and ends the game; no marker moves (§ 577.6(c)(4)).",
            ("668a.3(i)", "577.6(d)", "577.6(f)", "577.6(c)(4)", "675a.4(f)", "675a.6(i)",
             "645c.2(g)")),
    Reading("grading", "all", "What a finding weighs, and what a pass means",
            "Critical: the money or the game's security is wrong (a payment wrong by any amount, or "
            "on a wager that has not won; a winner left unpaid or collected; a wager collected "
            "while it still works or on a no roll; a wager that must be refused left in action; "
            "play going on after a lost die with no new set). Major: a call or a record of the "
            "game missing or wrong (the dice, \"no more bets\", a no roll, the down and distance; "
            "the pointer, lammers, Yard Marker, pucks, matching dice, shaker; the dice or shaker "
            "to the wrong player), or an order the text imposes, broken. Minor: a step no text "
            "asks for that changes nothing, or speed. A round, drill or exam item passes with no "
            "critical and no major finding and a total of 80 or more; an exam passes when every "
            "item passes and its total reaches the form's pass mark (pass rule 2). A wrong payout "
            "cites the paytable that sets it; an order error cites the section that imposes the "
            "order."),
    Reading("undo", "all", "Undo: a misclick taken back",
            "Undo (Ctrl+Z) takes back the trainee's last action of the throw being worked, while "
            "the trainer has done nothing after it: a wager accepted, refused or returned, a chip "
            "collected, a payout, the pointer, a lammer, the Yard Marker, a puck or the matching "
            "dice. The table goes back to how it was, and the log keeps the action and its undo, "
            "so a replay shows both. A call cannot be taken back (the dice announced, \"no more "
            "bets\", a no roll, the down and distance): the players and the surveillance camera "
            "have heard it; nor the dice once handled, a throw already over, or an exam part once "
            "its answer is recorded. Whether it counts follows the grading policy, under which a "
            "finding says what happened: where the feedback had already told the action's grade "
            "(practice and payout drills), what it told still counts, so a wrong payout taken "
            "back stays a finding and undo only lets the round go on from a table put right; "
            "where nothing was told (an exam, whose feedback waits for the end), an action taken "
            "back is a misclick put right before the game went on, and is not graded."),
    Reading("supervise-items", "all", "A supervise item in an exam",
            "The grading policy's one pass rule judges a supervise item, where the trainee watches "
            "a dealer and flags the dealer's faults, as it judges a dealer's round; what the "
            "policy leaves open is what the supervisor's findings are. A fault is caught by a flag "
            "on its wager, call or record within 15 s of the fault showing; a fault no flag caught "
            "left the table as the dealer made it, so it is the supervisor's finding, at the "
            "severity the policy gives the dealer's (the grader's own finding of it, with its "
            "section). A missed critical fault (the money or the game's security) and a missed "
            "major one (a call, a record, an order the text imposes) each fail the item, and with "
            "it the exam, whatever the total; a missed minor one is noted. A flag on the right "
            "target that names another fault still stops the fault: it is caught, for half its "
            "weight. A flag where the dealer made no fault stops the game for nothing: no finding, "
            "one point off. The item's total is its catch score (critical 4, major 2, minor 1, "
            "over what its faults weigh) out of 100, rounded down, and stands for its procedure, "
            "payouts and speed too; it passes at 80, as a round does. A round with no fault scores "
            "100 with no false alarm and 0 with any."),
    # Props & Hops
    Reading("ph-shooter", "props-and-hops", "The shooter",
            "The covered shaker is first offered to the player farthest to the dealer's left: the "
            "lowest occupied seat. The shooter keeps it until the dice total 7; then it passes to "
            "the next player to the left, the next higher occupied seat (wrapping to the lowest). "
            "After a no roll the dice are shaken again by the same shooter, and the same wagers "
            "stand.", ("668a.3(f)", "668a.3(g)", "668a.3(k)")),
    Reading("ph-combinations", "props-and-hops", "Combinations",
            "A combination is written a-b with a ≤ b. Doubles are a-a; the Any Number wagers are a-b "
            "with a < b.", ("668a.2(d)", "668a.2(e)")),
    Reading("ph-under-over", "props-and-hops", "1-6 and Under, 3-4 and Over",
            "1-6 and Under wins on 1-6, or on any total of 2–6. 3-4 and Over wins on 3-4, or on any "
            "total of 8–12. Both pay 1 to 1.", ("668a.2(f)(6)", "668a.2(f)(7)")),
    Reading("ph-hop-regions", "props-and-hops", "Hop regions",
            "Which boxes make up Hop the Top, Left, Right and Center depends on the property's "
            "approved layout. They are layout data (resources/layouts/props-and-hops.toml), not "
            "code. The default example layout arranges the 21 boxes in three rows of seven: the top "
            "row is Top (14 ways, 2.78% at 3 to 2), the two left and two right columns are Left and "
            "Right (11 ways each, 8.33% at 2 to 1), and the three middle columns are Center (14 "
            "ways, 2.78% at 3 to 2).", ("668a.1(b)", "668a.2(f)(2)-(5)")),
    Reading("ph-six-eight-shake", "props-and-hops", "The Six Eight Shake cycle",
            "One cycle for the whole table, with one set of six lammers. It starts when the first "
            "Six Eight Shake wager is placed; the lammers go on 1-5, 2-4, 3-3, 2-6, 3-5 and 4-4. Each "
            "valid throw of a combination that still holds a lammer moves it to the Six Eight Shake "
            "circles. A 7 ends the cycle and every Six Eight Shake wager loses. When the sixth "
            "lammer moves, every Six Eight Shake wager wins 150 to 1 and the cycle ends. A new Six "
            "Eight Shake wager is accepted only while no lammer has moved in the current cycle. A "
            "player may take the wager down before any throw until a 7 is rolled; when the last "
            "wager is taken down, the cycle ends.", ("668a.2(f)(8)", "668a.3(e)", "668a.3(i)")),
    Reading("ph-one-roll", "props-and-hops", "One-roll wagers",
            "Every wager but the Six Eight Shake settles on the next valid throw.",
            ("668a.2(d)", "668a.2(e)", "668a.2(f)")),
    Reading("ph-order", "props-and-hops", "Order within a throw",
            "Collect losing wagers (the Six Eight Shake included, on a 7), then pay winning "
            "wagers. A lammer is moved at any point of the settlement; the Six Eight Shake is "
            "paid once the sixth lammer is in the circles.", ("668a.3(i)",)),
    # Three Dice Football
    Reading("tdf-quarterback", "three-dice-football", "Offering the dice",
            "Seat 1 is immediately to the stickperson's left and \"clockwise\" is rising seat "
            "numbers. At the start the dice are offered to the lowest occupied seat, then to each "
            "next seat until a player accepts and becomes the Quarterback. After a touchdown the "
            "Quarterback keeps the dice; otherwise they are offered first to the player to the "
            "Quarterback's left (the next occupied seat). A die off the table and lost means a new "
            "set of dice.", ("577.4(b)", "577.4(c)", "577.4(d)", "577.7(a)")),
    Reading("tdf-reading-order", "three-dice-football", "Reading a throw",
            "Each throw is read in this order: Trips TD (all three dice equal); Turnover (red 6 and "
            "the green dice total 2 or 3); Penalty (green total below red); No gain (green total "
            "equal to red); Gain (green total above red, by green total − red yards).",
            ("577.1", "577.6(c)")),
    Reading("tdf-yard-marker", "three-dice-football", "The Yard Marker",
            "The Yard Marker starts on the 20. A gain that reaches or passes the 0 yard line is a "
            "touchdown (yards 1–23 are labelled, so 0 is the end zone). A penalty moves the marker "
            "back 1 yard. A turnover leaves it where it is.", ("577.6(a)", "577.6(c)")),
    Reading("tdf-downs", "three-dice-football", "Downs",
            "1st, 2nd and 3rd Down. When a play ends on the 10 yard line or closer, the next play is "
            "1st & Goal, then 2nd & Goal and 3rd & Goal; a penalty during the goal downs does not "
            "undo them. The game ends with the defense winning after 3rd Down without a 1st & Goal, "
            "or after 3rd & Goal without a touchdown. Every valid throw is one play; a game lasts at "
            "most 6 plays. Why: the § 577.8 paytable decides it. Under any other reading the "
            "Touchdown or Game Length 6 wager would favour the player; under this one every wager "
            "has a positive house edge.", ("577.6(e)",)),
    Reading("tdf-pucks", "three-dice-football", "The Down Puck and the Game Length Puck",
            "After each play the dealer moves the Yard Marker, then puts the Down Puck on the next "
            "down and the Game Length Puck on the next play, each by hand on its own area. A play "
            "that ends the game (a touchdown, a Trips TD, the last down without a 1st & Goal or a "
            "score) moves the Yard Marker only: the Down Puck stays on the down just played and the "
            "Game Length Puck on the play the game ended on. After a turnover nothing moves.",
            ("577.6(a)", "577.6(c)", "577.6(e)")),
    Reading("tdf-single-play", "three-dice-football", "Single play wagers",
            "Settled after each play, on the dice, not on the field. \"Yards gained\" is green total − "
            "red when that is positive, and 0 otherwise. Under Four Yards wins on 0–3 yards gained, "
            "a penalty or a turnover, and loses on a Trips TD. Over Four Yards pays 7 to 1 on a "
            "Trips TD and 1 to 1 on 5 or more yards. Single play wagers can be placed before any "
            "play.", ("577.3(d)", "577.3(e)", "577.6(d)")),
    Reading("tdf-full-game", "three-dice-football", "Full game wagers",
            "Accepted only before the first valid throw; later ones (and additions) are refused. "
            "Quick Strike pays by the play on which the touchdown came (plays 1–4). Game Length N "
            "wins when the game had exactly N plays (the extra point roll is not a play). Game "
            "Changer wins on a Trips TD or a turnover.", ("577.3(b)", "577.3(c)")),
    Reading("tdf-extra-point", "three-dice-football", "The extra point roll",
            "Thrown, with all three dice, only if at least one Extra Point wager stands after a "
            "touchdown. Three 1s pay 50 to 1; any other triple 10 to 1; exactly two 1s 10 to 1; "
            "exactly one 1 pays 1 to 1; anything else loses. The roll is called like any throw "
            "(§ 577.5(e)). Wagers offered on the extra point throw are refused: no section says "
            "so, but the game has ended (§ 577.1), single play wagers belong to the game's downs "
            "(§ 577.3(e), § 577.6(d)) and full game wagers to its start (§ 577.3(c)).",
            ("577.3(b)(3)", "577.5(e)", "577.6(f)(1)", "577.8(a)")),
    Reading("tdf-end-order", "three-dice-football", "Order at the end of the game",
            "After a touchdown: first collect Defense; then settle the last play's single play "
            "wagers and Quick Strike, Game Changer and Game Length, in any order; then the extra "
            "point roll, if an Extra Point wager stands; then pay Touchdown and settle Extra Point. "
            "Without a touchdown: first collect Touchdown and Extra Point and pay Defense (4 to 5), "
            "in any order; then settle the last play's single play wagers and the remaining full "
            "game wagers, in any order. Paying Defense after a single play collection breaks "
            "§ 577.6(f)(2); a Touchdown paid before the extra point roll breaks § 577.6(f)(1).",
            ("577.6(f)(1)", "577.6(f)(2)")),
    # High Roll Dice
    Reading("hrd-winning-face", "high-roll-dice", "Winning face and count",
            "Rank: ace (1) > 6 > 5 > 4 > 3 > 2. The winning face is the face on the most dice; a tie "
            "goes to the higher rank. Its count is how many dice show it.",
            ("675a.2(d)", "675a.2(e)(1)")),
    Reading("hrd-like-kind", "high-roll-dice", "Like Kind circles",
            "Pip Street on face F wins when F is the winning face. Like Kind on circle K wins when "
            "the count is K. On 10 dice a count of 9 or 10 matches no Like Kind circle (Millionaire "
            "Row settles those). On 6 dice the circle \"no match\" means a count of 1.",
            ("675a.2(e)(2)", "675a.6(d)")),
    Reading("hrd-wager-rules", "high-roll-dice", "Wager rules",
            "Every player must have a Pip Street wager, or all of that player's wagers are refused. "
            "All of a player's Pip Street and Like Kind wagers, and the Extra Roll, must equal the "
            "player's first Pip Street wager; any that differs is refused. An Extra Roll needs an "
            "accepted Like Kind wager. Millionaire Row must be $1 or less, and pays its fixed amount "
            "in proportion to a $1 wager. The 6-dice game has no Extra Roll and no Millionaire Row. "
            "Wagers are judged at \"no more bets\"; any wager after it is refused.",
            ("675a.2(a)", "675a.2(e)", "675a.1(b)(2)(iv)", "675a.6(d)")),
    Reading("hrd-extra-roll", "high-roll-dice", "The Extra Roll",
            "The purchase is collected into the table inventory at \"no more bets\", before the "
            "throw, and is never returned. After the first roll is settled, if anyone bought one and "
            "fewer than 10 dice match, the dice that are not the winning face are thrown again. The "
            "new count is the first count plus the rethrown dice that show the winning face. For a "
            "buyer, after the first roll, a Like Kind wager below the count is collected, one on "
            "the count is paid from the first roll table, and one above the count is held. After "
            "the extra roll, a held wager on the new count is paid from the Extra Roll table; every "
            "other held wager is collected. A count above 8 matches no circle.",
            ("675a.4(a)", "675a.4(f)(2)(ii)", "675a.4(g)", "675a.4(h)", "675a.5(d)")),
    Reading("hrd-order", "high-roll-dice", "Order, per player",
            "Pip Street; then Like Kind; then Millionaire Row; then the extra roll and its Like "
            "Kind settlement. Within each, the losers are collected and the winners paid in any "
            "order: the text joins them with \"and\" (an Extra Roll buyer's own example pays "
            "first, § 675a.4(f)(2)(ii)). In the 6-dice game every wager is settled in any order "
            "(§ 675a.6(i)).", ("675a.4(f)", "675a.6(i)")),
    # Pai Gow dice
    Reading("pgd-reconstructed", "pai-gow-dice", "Reconstructed — confirm against your Rules Submission",
            "Our copy of § 645c.2 lost subsections (e)–(g) except a flattened paytable. The wagers "
            "are rebuilt from that table; every paytable gives a house edge of 2.78%, 4.63%, 5.56% "
            "or 7.41%, as a designed paytable would. Three dice: one red, two blue. Every paytable "
            "is editable in resources/paytables/pai-gow-dice.toml.", ("645c.2",)),
    Reading("pgd-sum", "pai-gow-dice", "Sum wager",
            "By the property's paytable. A: total 17 pays 25 to 1, 16 pays 6 to 1, 8 pays 3 to 1. B: "
            "total 3 pays 25 to 1, 8 pays 4 to 1, 9 pays 2 to 1. C: three of a kind pays 3 to 1, "
            "exactly a pair 1 to 1. D: three consecutive values pay 15 to 2.", ("645c.2(g)",)),
    Reading("pgd-match", "pai-gow-dice", "Match wager",
            "On a number N chosen by the player: all three dice N pays 100 to 1; exactly two dice N "
            "pays 6 to 1.", ("645c.2(g)",)),
    Reading("pgd-beat-it", "pai-gow-dice", "Beat It wager",
            "A and B compare the red die with the sum of the blue dice: red ahead by 4 or more pays "
            "50 to 1 (A) or 60 to 1 (B); by 2 or 3, 10 to 1; a tie or red ahead by 1, 1 to 1. C: "
            "any one die beats the sum of the other two by 1 or more, 5 to 2.", ("645c.2(g)",)),
    Reading("pgd-procedure", "pai-gow-dice", "Procedure",
            "Wagers before the shaker is used; \"no more bets\"; the shaker is activated (or the "
            "manual shaker used) — § 645c.2(f) is cut off after \"and:\", so this step is the "
            "reading; after the dice rest, announce each die; then settle each player's Sum, "
            "Match and Beat It wagers by collecting the losers and paying the winners, in any "
            "order: § 645c.2(g) sets none, so settling player by player is right. After a no "
            "roll the shaker is used again while \"no more bets\" stands.",
            ("645c.2(f)", "645c.2(g)")),
    Reading("pgd-no-roll", "pai-gow-dice", "No roll",
            "Our copy of § 645c.2 has no text on invalid throws. The dice are read inside the "
            "shaker (§ 645c.2(e): \"the dice contained in the shaker\"), so a die cannot leave the "
            "table; a die resting on another or cocked against the shaker's wall is a no roll, and "
            "the shaker is used again. Confirm against ch. 645a and your Rules Submission.",
            ("645c.2(e)",)),
)

BY_ID = {r.id: r for r in READINGS}


def for_game(game: str) -> list[Reading]:
    """The readings that apply to a game: the general ones, then the game's own."""
    family = "high-roll-dice" if game.startswith("high-roll-dice") else game
    return [r for r in READINGS if r.game in ("all", family)]
