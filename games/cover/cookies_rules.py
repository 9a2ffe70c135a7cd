"""The /rules text for Cover Your Cookies: the rulebook in brief, our rulings, assumed data.

One message a paragraph or a list item (markdown kept inside it), as in rules_text.py.
"""

from games.core.text import Text, t
from games.core.words import how_to_play_here
from games.cover.rules_layout import blocks

# What /rules opens with: the goal, a turn, how it ends. The rest is a button away.
QUICK_START_BLOCKS: tuple[tuple[Text, ...], ...] = (
    (t("**Goal.** Bake Batches of Cookies; the most Dough wins."),),
    (
        t("**Your turn.** Press **Show hand** on the table and do one thing:"),
        t(
            "• **Start a Batch**: two alike Cookies, or a Cookie and a Milk (🥛 Fresh, 🍫 "
            "Chocolate), from your hand or with the discard pile's top Cookie."
        ),
        t(
            "• **Swipe** another player's top Batch with a matching Cookie or a Milk. You "
            "take turns answering; the last to play keeps the Batch and every card played. "
            "Everyone's first Batch is safe."
        ),
        t("• **Discard** a Cookie."),
        t(
            "Then draw back up to a full hand. A **Mixer** drawn shakes up the table at once "
            "(the full rules say how)."
        ),
    ),
    (
        t(
            "**The end.** When the deck and every hand are empty, each stack's Dough is "
            "counted, plus crumbs for Batches you lost. The lobby sets how long a game runs: "
            "one round up to the first to 750 Dough."
        ),
    ),
    (t("You are pinged when it is your move."),),
)
QUICK_START = blocks(QUICK_START_BLOCKS)

# Opens /rules, before the rulebook in brief: how a turn is played in Discord.
HOW_TO_PLAY_HERE = how_to_play_here(
    t(
        "On your turn pick a move there (start a Batch, discard, Swipe); when a Batch of yours is "
        "swiped at, answer in the same view."
    )
)

RULES: tuple[tuple[Text, ...], ...] = (
    (t("**Cover Your Cookies** — bake Batches of Cookies; the most Dough wins. 3–6 players."),),
    (
        t(
            "**Setup.** The 8 Mixers are set aside, the rest shuffled and 5 cards dealt to "
            "each player. The deck is split in two halves, the Mixers shuffled into one half, "
            "which goes to the bottom; one card is turned up to start the discard pile."
        ),
    ),
    (
        t("**Your turn: one action** (no passing):"),
        t(
            "• **Start a Batch** — two identical Cookies, or a Cookie and a Milk (🥛 Fresh, 🍫 "
            "Chocolate), from your hand or with the discard pile's top Cookie (a Milk on the "
            "pile is never taken). Never two Milks, never three cards; the Cookie goes on "
            "top. New Batches go on top of your stack, never merged. If you could not start a "
            "Batch on your first turn, then from your next turn on you may lay down a single "
            "Cookie as your first Batch."
        ),
        t(
            "• **Swipe** another player's top Batch (you must have laid down a Batch of your "
            "own; everyone's first Batch is safe) with a matching Cookie or a Milk. You and "
            "the defender answer in turn; the last to play keeps or takes the Batch with "
            "every card played. Chocolate Milk is worth more but does not outrank Fresh Milk."
        ),
        t("• **Discard a Cookie**, then draw."),
    ),
    (
        t(
            "**Drawing.** After your action draw back up to 5 one card at a time; then anyone "
            "who defended against you draws. A **Mixer** drawn acts at once, before the next "
            "card, and is not a turn: **Rotate** (you say left or right; every top Batch "
            "moves one seat that way), **Enhance** (+30 Dough into your top Batch; it travels "
            "with the Batch), **Swap** (you make two other players with Batches swap top "
            "Batches), **Exchange** (you say 1 or 2; everyone takes that many cards blindly "
            "from their neighbour in the card's direction; players with fewer than three "
            "cards are skipped). Used Mixers leave play, except Enhance."
        ),
    ),
    (
        t(
            "**Crumb Collector.** Each time one of your Batches is swiped your token moves up "
            "a step; its Dough is added at the end."
        ),
    ),
    (
        t(
            "**The end.** When the deck is gone, play on until every hand is empty. Then, if "
            "you can neither start a Batch nor swipe, you may add a matching Cookie to your "
            "own top Batch; if you can do nothing else you must discard. Score the Dough in "
            "your stack plus your crumbs."
        ),
    ),
    (
        t(
            "**Longer games** (chosen in the lobby): first to 750 Dough; highest total after "
            "3 rounds; first to win 2 rounds."
        ),
    ),
    (
        t(
            "**Three players.** No Swap Mixers, hands of 6, and a **discard row** of three "
            "cards instead of a pile: any Cookie in the row (not a Milk) may start a Batch "
            "with a matching Cookie or a Milk from your hand; discards go to its right end."
        ),
    ),
    (
        t(
            "**Options.** *Mixers* (on by default). *Extra Strength Chocolate Milk*: it "
            "counts as two cards in a swipe; answer it with another Chocolate Milk or two "
            "eligible cards, then single cards again. *Two actions a turn*: the second is "
            "optional (**I'm done**); discarding first draws at once and still leaves a "
            "second action; a failed swipe cannot be tried on the same Batch again that turn "
            "(swiping the same player twice is fine)."
        ),
    ),
    (
        t(
            "**Card figures are assumed.** The text we have does not print flavour names, "
            "counts or Dough values. We use: three flavours at 5 Dough, three at 10, two at "
            "15, one at 20 (10 cards each), Fresh Milk 25 (8 cards), Chocolate Milk 50 (4), "
            "Enhance +30; Crumb Collector +10 Dough a step, at most 6 steps. The bot's host "
            "can change every figure (the Crumb Collector's too)."
        ),
    ),
)

# Our rulings, under their heading: /rules shows them apart, on request.
RULINGS: tuple[Text, ...] = (
    t("**Rulings where the rulebook is silent**"),
    t(
        "• An Enhance drawn by someone with no Batch waits beside their stack and joins the "
        "next Batch they lay down (not one a Mixer hands them). It moves with its Batch when "
        "swiped."
    ),
    t(
        "• A Swap with fewer than two eligible players, a Rotate with no Batch on the table, "
        "or an Exchange with fewer than two players holding three cards: no effect; the Mixer "
        "is still discarded."
    ),
    t(
        "• Exchange: players with fewer than three cards neither give nor take; each player "
        "takes from the nearest player in the card's direction who is not skipped."
    ),
    t("• Someone who holds no Cookie may discard a Milk."),
    t(
        "• Crumbs are counted per round. The single-Cookie first Batch is offered from your "
        "second turn of the round on, if nothing let you start a Batch at the start of your "
        "first turn, and only until you have laid down a Batch that round (even one a Mixer "
        "later took away)."
    ),
    t(
        "• Who may swipe: whoever has laid down a Batch of their own this round, even if a "
        "Rotate has since carried it off; a Batch you only received from a Mixer does not "
        "count."
    ),
    t(
        "• A Milk on the discard pile or in the row (the opening card, or one discarded by "
        "someone with no Cookie) cannot be taken into a Batch: on the pile it waits until a "
        "card covers it, in the row it stays for the round."
    ),
    t(
        "• A player who holds no matching card when it is their turn to answer a swipe is "
        "asked all the same: their only answer (let the Batch go, or give up) is played for "
        "them after a short pause, so nobody learns from the wait what they hold."
    ),
    t(
        "• Once the deck is gone, a player with an empty hand is skipped; their top Batch can "
        "still be swiped."
    ),
    t("• The first player is drawn at random; each later round starts one seat further left."),
    t(
        "• A round is won by the most Dough that round; players who tie all win it. First to "
        "750: if several get there in the same round, the highest total wins. First to win 2 "
        "rounds: if several reach two wins in the same round, the total Dough decides. Equal "
        "final figures share a place."
    ),
    t(
        "• A timer that runs out discards your cheapest Cookie (in a swipe: gives up; at a "
        'Mixer: its first choice; on a second action: "I\'m done").'
    ),
)
