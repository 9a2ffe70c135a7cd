"""The /rules text for Toss Your Cookies: the rulebook in brief, and the rulings we chose.

One message a paragraph or list item, its markdown inside it, laid out with ``joined``: a
translation never has to carry a whole page, and a paragraph changed in English asks for
that paragraph alone to be translated again."""

from __future__ import annotations

from games.core.text import Text, joined, t
from games.core.words import how_to_play_here
from games.toss.cards import HALF, MILK, WILD, TossCards

# What /rules opens with: the goal, a turn, how it ends. The rest is a button away.
QUICK_START = joined(
    (
        t(
            "**Goal.** Be the first to hold **five of one cookie and the milk** (wilds count as "
            "any cookie)."
        ),
        joined(
            (
                t(
                    "**A turn.** Your dice are rolled for you after a moment (or press **Roll the "
                    "dice**), and everyone may have to act:"
                ),
                t("• **Swap**: give a player cards of yours and take as many of theirs, unseen."),
                t(
                    "• **Pass Left / Right**: everyone picks cards to pass at once, in their hand "
                    "view."
                ),
                t(
                    "• **Toss**: everyone tosses cards into the middle, then races to grab cards "
                    "back: press **Grab cards** on the table, then the card buttons it shows you; "
                    "first click wins."
                ),
                t("The milk face moves the milk instead."),
            )
        ),
        t(
            "**The end.** The moment a hand holds five of one cookie and the milk, its holder "
            "wins the round, even on someone else's turn. A match is 1, 3 or 5 rounds: a "
            "majority wins."
        ),
        t("Press **Show hand** on the table to see your cards; you are pinged when you must act."),
    ),
    "\n\n",
)

# Opens /rules, before the rulebook in brief: how a turn is played in Discord.
HOW_TO_PLAY_HERE = how_to_play_here(
    t(
        "Your dice are rolled for you after a moment at your turn (press Roll the dice to roll "
        "at once); when everyone picks cards, pick yours there; in a scramble, press Grab cards "
        "on the table and grab from the buttons it shows you."
    )
)


def rules_text(cards: TossCards) -> Text:
    """The rulebook in brief, without our rulings."""
    cookies = joined((c.label for c in cards.cookies), ", ")
    counts = joined(
        (
            t(
                "{players}p: {wild} wild, {half} half-eaten",
                players=players,
                wild=cards.per_players["wild"][i],
                half=cards.per_players["half"][i],
            )
            for i, players in enumerate(range(3, cards.max_players + 1))
        ),
        " · ",
    )
    return joined(
        (
            t(
                "**Toss Your Cookies** — be the first to hold **five of one cookie and the "
                "milk**. 3–8 players."
            ),
            t(
                "**The deck.** One set of six cookies per player (chosen at random from: "
                "{cookies}), the {milk}, and wild and half-eaten cards by table size ({counts}). "
                "{wild} stands for any cookie; {half} is worth nothing. Everyone gets {hand} "
                "cards.",
                cookies=cookies,
                milk=cards.label(MILK),
                counts=counts,
                wild=cards.label(WILD),
                half=cards.label(HALF),
                hand=cards.hand_size,
            ),
            joined(
                (
                    t(
                        "**Your turn.** Your dice are rolled for you after a moment, or at once "
                        "when you press **Roll the dice** (with `/always_ask` on, only when you "
                        "press it): the action die shows Swap, Pass Left, Pass Right or Toss; the "
                        "number die shows 1, 2, 3, All or the milk."
                    ),
                    t(
                        "• **Swap N** — pick a player and N cards of yours to give them; then "
                        "take N cards from their hand without looking (you pick face-down places "
                        "in a freshly shuffled order). Swap All: you swap whole hands."
                    ),
                    t(
                        "• **Pass Left / Pass Right N** — everyone picks N cards in secret, at "
                        "once; nothing moves until all have chosen (the table shows who is still "
                        "choosing); then all pass together."
                    ),
                    t(
                        "• **Toss N** — everyone picks N cards at once; they land face up in the "
                        "middle and the **scramble** opens: **Grab cards** on the table shows you "
                        "one button per kind of card in the middle, first click wins a card, and "
                        "each player may grab as many as they tossed. When the window closes (a "
                        "lobby option, 20 seconds by default in live games), the leftovers are "
                        "dealt at random to those still short."
                    ),
                )
            ),
            joined(
                (
                    t("**The milk face.**"),
                    t(
                        "• Pass + milk — whoever holds the milk passes it to that side, but "
                        "first takes one card from the receiver's hand without looking."
                    ),
                    t(
                        "• Swap + milk — the holder swaps the milk to the roller the same way; "
                        "nothing happens if the roller holds it."
                    ),
                    t(
                        "• Toss + milk — the holder tosses the milk; everyone else races for it "
                        "(**Grab cards**). The winner lets the tosser take one card from their "
                        "hand without looking, then adds the milk."
                    ),
                )
            ),
            joined(
                (
                    t(
                        "**Winning.** The moment a hand holds five of one cookie (wilds count) "
                        "and the milk — in the middle of an action or on someone else's turn — "
                        'its holder wins the round ("Snickerdoodle!"). With the **must shout** '
                        "option, they win only when they press the **Snickerdoodle!** button in "
                        "their hand, and lose the chance if the hand changes first."
                    ),
                    t(
                        "Matches of 1, 3 or 5 rounds: the first to win a majority wins (2 of 3, 3 "
                        "of 5). If the set rounds pass with nobody at a majority (three different "
                        "winners in a best of three), play goes on a round at a time until "
                        "someone has won 2 (3 in a best of five)."
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
                "• The first roller is drawn at random; later rounds start with the next player "
                "to the left."
            ),
            t(
                "• In the scramble, identical cards share a button (it shows how many are left); "
                "your own tossed cards may be grabbed back."
            ),
            t(
                "• A tossed milk nobody grabs before the window closes goes to one of the others "
                "at random."
            ),
            t(
                "• In async and correspondence games a scramble stays open as long as a move may "
                "take."
            ),
            t(
                "• Cookie names and the dice's faces (each face equally likely) are our "
                "assumptions, which the bot's host can correct."
            ),
        )
    )
