"""The /rules text for Cookie Chomper: the rulebook in brief, every card, every mode, and
the rulings we chose.

One message a paragraph or list item, its markdown inside it, laid out with ``joined``: a
translation never has to carry a whole page, and a paragraph changed in English asks for
that paragraph alone to be translated again."""

from __future__ import annotations

from games.chomper.cards import ChomperCards
from games.core.text import Text, joined, t
from games.core.words import how_to_play_here

# What /rules opens with: the goal, a turn, how it ends. The rest is a button away.
QUICK_START = joined(
    (
        t(
            "**Goal.** Take cookies from the Stack, but never the poison cookie at its "
            "bottom. The last player standing wins."
        ),
        t(
            "**A turn.** The Active Player plays a number card (picking one of its "
            "numbers) or an action card. Then, round the table, everyone may add "
            "modifiers (Add 3, Multiply 5…) or pass. The cards settle in the order "
            "played, and the Active Player takes that many cookies from the top of the "
            "Stack."
        ),
        t(
            "**The end.** Whoever takes the poison cookie is out and the Stack is "
            "rebuilt; the last player left wins. Other modes, picked in the lobby, change"
            " the goal (the full rules list them)."
        ),
        t("Press **Show hand** on the table to play; you are pinged when it is your move."),
    ),
    "\n\n",
)

# Opens /rules, before the rulebook in brief: how a turn is played in Discord.
HOW_TO_PLAY_HERE = how_to_play_here(
    t(
        "On your turn play a main card there; in the modifier round play a modifier or "
        "pass (a lone Pass is played for you)."
    )
)


def rules_text(cards: ChomperCards) -> Text:
    """The rulebook in brief, every card and every mode, without our rulings."""
    glossary = joined(
        t("• **{card}** — {text}", card=cards.label(key), text=spec.says)
        for key, spec in cards.actions.items()
    )
    return joined(
        (
            t(
                "**Cookie Chomper** — take cookies from the Stack with number cards, and "
                "don't take the poison cookie at the bottom! 2–6 players. Last player "
                "standing wins."
            ),
            t(
                "**Cards.** 32 number cards (🔢 0, and one card for every set of the "
                "numbers 1–5: 🔢 1, 🔢 1/2 … 🔢 1/2/3/4/5) and one of each action card. "
                "Hands of {hand}.",
                hand=cards.hand,
            ),
            t(
                "**A turn.** The Active Player plays a main card: a number card, choosing"
                " one of its numbers (the *Produced Number*), or Roll, Seek, Skip or "
                "Mulligan, or a Copy of the top card of the Played Cards Pile if that "
                "card is one of these. Then the **modifier round** goes round the table "
                "from the Active Player: each player in turn may play a modifier (and "
                "keep playing) or pass; it ends when everyone still in has passed in a "
                "row. Then the cards **settle in the order played** (2, Add 3, Multiply 5"
                " → 25) and the Active Player takes that many cookies from the top of the"
                " Stack (a negative number gives cookies back). Whoever takes the poison "
                "cookie is out (their cards go to the Played Cards Pile) and the Stack is"
                " rebuilt. Everyone draws back up, and the turn passes. A player who "
                "cannot play must Mulligan. An empty deck is made anew from the shuffled "
                "Played Cards Pile, which is public at all times."
            ),
            joined(
                (
                    t("**Every card.**"),
                    glossary,
                )
            ),
            joined(
                (
                    t("**Modes** (chosen in the lobby, with the Stack's size and the hand size):"),
                    t(
                        "• *Standard* — {stack} cookies and the poison cookie at the bottom.",
                        stack=cards.stack,
                    ),
                    t("• *Golden Cookie* — the Golden Cookie at the bottom: take it to win."),
                    t(
                        "• *Poison in the middle* — the poison sits mid-Stack and the "
                        "Flip card is in the deck."
                    ),
                    t(
                        "• *Cookie Hoarder* — {cookies} cookies and 10 bandit tokens "
                        "(1,1,2,2…5,5) shuffled face down into the Stack (with the poison"
                        " and the Golden Cookie too, if you pick that mode), Flip in the "
                        "deck. Keep what you take; a bandit steals that many of your "
                        "cookies into the bandit pile. Cookie +1, poison −2, golden +2; "
                        "the game ends when the Stack is empty.",
                        cookies=cards.hoarder_cookies,
                    ),
                    t(
                        "• *Number Chain* — number cards only, hands of {hand}: play a "
                        "card on the chain, draw one card for each of its numbers that is"
                        " not on the card below. Empty your hand to win; if the deck runs"
                        " dry, the fewest cards wins.",
                        hand=cards.chain_hand,
                    ),
                )
            ),
        ),
        "\n\n",
    )


def rulings_text() -> Text:
    """Our rulings: what we decided where the rulebook is silent."""
    return joined(
        (
            t("**Our rulings.**"),
            t(
                "• Each player may play several modifiers: after playing, you may play "
                "again or pass. In live games each player has 20 seconds (or the 10 or 5 "
                "the lobby chose) to play or pass; when that runs out the clock passes "
                "for them, and nobody is counted absent for it."
            ),
            t(
                "• A number card sets the Produced Number; every other card acts on it, "
                "in the order played."
            ),
            t(
                "• Copy acts as the last card still in play this turn, whatever its kind,"
                " with its selection (a copied Roll rolls again; a copied Veto, Opposites"
                " or Think Again! is aimed anew; a copied Add, Subtract or Multiply uses "
                "the same number, even one that was rolled). A copied Seek, Skip or "
                "Mulligan played as a modifier does nothing: Skip cannot make another "
                "player skip, and the turn restarts only once."
            ),
            t(
                "• Copy can open a turn: it then copies the top card of the Played Cards "
                "Pile (the last card played before it), if that card could open a turn: a"
                " number card (choose one of its numbers), Roll (roll anew), Seek, Skip "
                "or Mulligan. It is then the turn's main card: Opposites and Think Again!"
                " act on it as on the card it copies, and a Veto makes you play another "
                "card. After a Veto sent your main card back, the last card played is "
                "that Veto, so Copy cannot open the turn then."
            ),
            t(
                "• Roll may stand in for the number card of Add, Subtract or Multiply: "
                "the die's number is added, subtracted or multiplied by; Think Again! "
                "rerolls it, Opposites cannot touch it, and a Veto sends both cards back."
            ),
            t(
                "• Veto may not target a Veto or your own card; vetoing Opposites or "
                "Think Again! restores the choice it changed; vetoing the main card makes"
                " the Active Player play another. That new card sets the Produced Number "
                "afresh: modifiers played before it change nothing (they settle to the "
                "Played Cards Pile), so play yours after it."
            ),
            t(
                "• Skip must be its owner's only card this turn: others may only Veto it."
                " A vetoed card had no effect, so after a Veto sent your number card back"
                " you may still play Skip."
            ),
            t(
                '• Skip, Seek and Mulligan make no number (Skip "is not equivalent to '
                'Zero"): no cookies are taken, and modifiers played on them change '
                "nothing."
            ),
            t(
                "• Opposites and Think Again! make the owner choose at once; Think Again!"
                " on a Roll rerolls; it may be played on any card its owner chose "
                "something on, and on a card with only one choice (🔢 4, say, or a Seek "
                "with one card in the pile) it has no effect."
            ),
            t(
                "• A second Opposites on the same card does not turn it back: its owner "
                "chooses again from the same inverted numbers (on the 1/2/3/4/5 card that"
                " is 0 again)."
            ),
            t(
                "• Two Reverses cancel out. A number larger than the Stack takes all of "
                "it. Giving back cookies puts them on top (Cookie Hoarder: from your own "
                "pile, last taken first, never below zero, each token back on top of the "
                "Stack, so it reads again as it did when you took them). Tokens taken in "
                "one go are handled top to bottom: a bandit token among them steals from "
                "your pile, the cookies above it in the same grab included, but not those"
                " below it. Bandit tokens leave the game once they have stolen."
            ),
            t(
                "• Seek starts a turn again at most three times in one turn (a Copy "
                "played as Seek counts too); after that it cannot be played this turn, "
                "and a player with nothing else to play must Mulligan. The rulebook sets "
                "no limit, but with nothing but Seek and a Copy to play, each would take "
                "the other back from the pile and the turn would never end."
            ),
            t(
                "• The number cards are inferred from the rulebook; the bandit values are"
                " assumed (the bot's host can change them)."
            ),
        )
    )
