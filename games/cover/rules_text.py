"""The /rules text for Cover Your Assets: the rulebook in brief, and the rulings we chose.

One message a paragraph or a list item (markdown kept inside it), so a translation
keeps each whole; ``rules_layout.blocks`` lays them out.
"""

from games.core.text import Text, t
from games.core.words import how_to_play_here
from games.cover.rules_layout import blocks

# What /rules opens with: the goal, a turn, how it ends. The rest is a button away.
QUICK_START_BLOCKS: tuple[tuple[Text, ...], ...] = (
    (t("**Goal.** Collect sets of assets; the richest stack wins."),),
    (
        t("**Your turn.** Press **Show hand** on the table and do one thing:"),
        t(
            "• **Form a set**: two alike from your hand, or one asset and a wild (🥈 Silver, 🥇 "
            "Gold), or one card with the discard pile's top card."
        ),
        t(
            "• **Challenge** another player's top set with a matching card. You take turns "
            "answering; whoever cannot answer loses the set and every card played. Everyone's "
            "bottom set is safe."
        ),
        t("• **Discard** a card."),
        t(
            "Then draw back up to a full hand. With 2 or 3 players you may also draft sets "
            "from face-up piles."
        ),
    ),
    (
        t(
            "**The end.** When the deck and every hand are empty, each stack is counted. The "
            "lobby sets how long a game runs: one round (Quick) up to the first past "
            "$1,000,000."
        ),
    ),
    (t("You are pinged when it is your move."),),
)
QUICK_START = blocks(QUICK_START_BLOCKS)

# Opens /rules, before the rulebook in brief: how a turn is played in Discord.
HOW_TO_PLAY_HERE = how_to_play_here(
    t(
        "On your turn pick a move there (form a set, discard, challenge); when your set is "
        "challenged, answer in the same view."
    )
)

RULES: tuple[tuple[Text, ...], ...] = (
    (
        t(
            "**Cover Your Assets** — collect sets of assets; the richest player wins. 2–6 "
            "players (best with 4–6; two and three players use draft piles, below)."
        ),
    ),
    (
        t(
            "**Setup.** 104 cards (no Swap, Move or Penny Jar in the classic game). Everyone "
            "gets 5 cards; one card is flipped to start the discard pile. The player left of "
            "the dealer starts."
        ),
    ),
    (
        t("**Your turn: exactly one action** (no passing, ever):"),
        t(
            "• **Form a set** — a pair from your hand, or a hand card plus the discard pile's "
            "top card. A pair is two identical assets, or one asset and a wild (🥈 Silver, 🥇 "
            "Gold). Never two wilds, never three cards. Wilds sit below the asset. New sets "
            "go on top of your stack and are never merged with earlier sets."
        ),
        t("• **Discard** a card face up onto the discard pile."),
        t(
            "• **Challenge** another player's top set with a matching asset or a wild. You "
            "need at least one set of your own, and a player's first (bottom) set is safe. "
            "The defender answers with a matching asset or wild, you answer back, and so on; "
            "whoever cannot or will not answer loses. The winner keeps the set and every card "
            "played in the battle."
        ),
    ),
    (
        t(
            "**After your action** draw back up to 5 cards; then anyone who used cards to "
            "defend during your turn draws back up to 5. Play passes to the left. Nobody "
            "draws during a challenge."
        ),
    ),
    (
        t(
            "**End of a round.** When the draw pile is empty, keep playing until every hand "
            "is empty (if you will not form a set or challenge, you must discard). Your score "
            "is the value of every card in your stack."
        ),
    ),
    (
        t(
            "**Values.** Comic Books, Piano, Toy Train $5,000 · Jewels, Cash under the "
            "Mattress, Piggy Bank $10,000 · Scooter, Sport Plane, Classic Auto $15,000 · "
            "Cabin $20,000 · Silver $25,000 · Gold $50,000. (Counts are printed in the "
            "rulebook; values come from public digital versions of the game; the bot's host "
            "can correct them.)"
        ),
    ),
    (
        t("**Ending the game** (the host chooses in the lobby):"),
        t("• Classic — rounds until someone passes $1,000,000 in total."),
        t("• Quick — the highest score after one round."),
        t("• Highest total after 3 rounds."),
        t("• First to win 2 rounds."),
    ),
    (
        t("**Advanced rules** (each a switch in the lobby's *Advanced rules* menu):"),
        t("• *Hand of six* — deal and draw back up to six."),
        t(
            "• *Two actions a turn* — the second is optional (**I'm done**); the same action "
            "twice is fine; discard first and you draw back up at once; lose a challenge and "
            "you cannot challenge that player again until your next turn."
        ),
        t("• *Improve a set* — add one matching asset (never a wild) to your own top set."),
        t(
            "• *Swap and Move cards* (2 each) — Swap your top set with any player's top set; "
            "Move any player's top set (yours too) to the bottom of their stack, or their "
            "bottom set to the top. They cannot be blocked and leave play once used."
        ),
        t(
            "• *Challenge second-from-top sets* — open with two matching assets, two wilds, "
            "one of each, or one Penny Jar; after that, single cards as usual."
        ),
        t(
            "• *Penny Jars* (2) — a $1,000 wild that counts as two cards when challenging or "
            "defending: answer it with two cards or another Penny Jar, then carry on with "
            "single cards."
        ),
    ),
    (
        t(
            "**Two players.** The 8 Cabins, 2 Silver and 1 Gold leave the deck. Three draft "
            "piles of 10 cards are dealt face down and their top cards turned up; hands are 6 "
            "cards. New action, **Draft a set**: play one asset (or wild) from your hand with "
            "one or more matching face-up draft tops, from any of the piles. Your opponent "
            "may challenge the new set as usual; if nobody challenges, or you win, it joins "
            "your stack; if you lose, they take it. Then the next card of each pile used is "
            "turned up."
        ),
    ),
    (
        t(
            "**Three players.** The full deck, hands of 5, and a draft pile between each pair "
            "of neighbours. You may draft from the pile on your left or your right, one pile "
            "at a time, and only the opponent beside that pile may challenge the draft."
        ),
    ),
    (
        t(
            "**Action cards on draft piles** (two and three players, with Swap and Move cards "
            "on): one turned up before the round is buried face down in the middle of its "
            "pile. One turned up during play acts at once on the two players beside the pile, "
            "using nobody's turn. Move: each of the two decides whether the other's top set "
            "goes to the bottom or their bottom set to the top. Swap: the two swap top sets; "
            "if either has no set, the card goes back into the middle of the pile and the "
            "next card is turned up."
        ),
    ),
)

# Our rulings, under their heading: /rules shows them apart, on request.
RULINGS: tuple[Text, ...] = (
    t("**Rulings where the rulebook is silent**"),
    t(
        '• "Passing $1,000,000" means a total of $1,000,000 or more at the end of a round; if '
        "several players get there in the same round, the highest total wins."
    ),
    t(
        "• A round is won by the highest score of that round; players who tie all win it. In "
        '"first to win 2 rounds", if several players reach two wins in the same round, total '
        "money decides."
    ),
    t("• Equal final figures share a place."),
    t(
        "• A player who holds no matching card when it is their turn to answer a challenge is "
        "asked all the same: their only answer (let the set go, or give up) is played for "
        "them after a short pause, so nobody learns from the wait what they hold."
    ),
    t(
        "• Once the draw pile is empty, a player with an empty hand is skipped, but their top "
        "set can still be challenged."
    ),
    t("• The first dealer is drawn at random; the deal passes left each round."),
    t(
        "• When a turn timer runs out, the default move is to discard your cheapest card (in "
        'a challenge: to give up; on a second action: "I\'m done").'
    ),
    t(
        "• A bottom set is safe from challenges of either kind, so a second-from-top "
        "challenge needs a stack of three sets or more. Swap and Move are not challenges: "
        "they may take or move any top set, even a player's only set."
    ),
    t(
        "• In a second-from-top challenge every answer is a single card, even to a Penny Jar "
        "(one that opened it, or one the defender or challenger played later): the "
        'second-from-top rule ("after the challenge is initiated, only one card is played") '
        "holds for the whole challenge."
    ),
    t(
        "• Swap and Move cards may be discarded like any card, but never paired; one that "
        "starts the discard pile simply pairs with nothing."
    ),
    t("• With two actions a turn, a player whose hand is empty after the first action is done."),
    t("• Two and three players also start a discard pile, as in the classic game."),
    t(
        "• A drafted set may hold several wilds as long as it holds an asset (the rulebook's "
        "own example: Jewels with a Gold and a Silver). All its assets must be the same."
    ),
    t(
        "• Challenging a freshly drafted set does not need a set of your own (it is not in "
        "anyone's stack yet), and whoever used cards in that challenge draws back up after "
        "the turn."
    ),
    t(
        "• An action card turned up is settled before the next card turns up: after a Move "
        "both players decide (in either order) before anything else is flipped, so a Swap "
        "lying under it swaps the top sets the Move left; a second Move under it turns up "
        "only then, and is decided the same way."
    ),
    t(
        "• A Move card turned up does nothing to a stack of fewer than two sets. On a stack "
        "of two, its top set to the bottom and its bottom set to the top are one move: it is "
        "made for you. A Swap card that cannot go anywhere because its pile holds only action "
        "cards leaves play."
    ),
    t("• Cards still in draft piles when the round ends are not scored."),
)
