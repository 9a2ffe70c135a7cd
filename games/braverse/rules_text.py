"""The /rules text for Braverse: the rulebook in brief, and the rulings we chose.

Each paragraph and each ruling is a catalog message of its own (markdown inside it), so a
translation never has to carry the whole rulebook in one piece."""

from __future__ import annotations

from games.braverse.cards import CardPool
from games.braverse.phrases import lined, paragraphs
from games.braverse.state import WIN_LEVEL
from games.core.text import Text, t
from games.core.words import how_to_play_here


def quick_start() -> Text:
    """What /rules opens with: the goal, a turn, how it ends. The rest is a button away."""
    return paragraphs(
        [
            t(
                "**Goal.** Make the other player's Cookies faint. Fainted Cookies go to their "
                "owner's Break Area; when those add up to **LV {win}**, their owner loses. 2 "
                "players, a 60-card deck each (pick yours in the lobby with **Choose deck**, or "
                "play a ready one).",
                win=WIN_LEVEL,
            ),
            t(
                "**Your turn.** Everything of yours stands up; draw 2. Put one card into your "
                "**Support** Area: Support cards pay costs, one colour symbol each. Then, in any "
                "order: place Cookies (two at most in battle), use Items and Stages, and "
                "**attack**: rest a Cookie and pay its cost. Each point of damage flips one of "
                "the target's HP cards; with none left it faints."
            ),
            t(
                "**The end.** LV {win} in a Break Area, or a player with no Cookie to put in "
                "battle, ends the game.",
                win=WIN_LEVEL,
            ),
            t("Press **Show hand** on the table to play; you are pinged when it is your move."),
        ]
    )


QUICK_START = quick_start()


def how_to_play() -> str:
    """Opens /rules, before the rulebook in brief: how a turn is played in Discord."""
    return how_to_play_here(
        t(
            "Pick your moves there: support, Cookies, items, attacks (with how you pay), then "
            "End; a trap or a FLIP on the other player's turn is asked of you the same way."
        )
    )


def game_rules(pool: CardPool) -> Text:
    """The rulebook in brief, without our rulings."""
    return paragraphs(
        [
            t(
                "**CookieRun: Braverse** — an **unofficial fan implementation** for 2 players, "
                "with an original card pool of our own ({n} cards; no card of the publisher's). "
                "A player whose Break Area reaches **LV {win}** loses.",
                n=len(pool.cards),
                win=WIN_LEVEL,
            ),
            t(
                "**Decks.** 60 cards, at most 4 of one card number, at most 16 FLIP Cookies, at "
                "least one Cookie. In the lobby each player picks their own with **Choose deck** "
                "(or the host with `/play deck:`); a player who picks nothing, and every bot, "
                "plays a ready deck (the lobby says which). `/deck copy` starts a deck from a "
                "ready one, `/deck import` reads a pasted list, `/deck export` gives one back, "
                "`/deck list|show|delete`; a player keeps up to 25, on every server. A deck that "
                "breaks a rule is saved as a draft and cannot be played. The list format: one "
                "line per card number, `4 S1-007 Flare Juggler` (also `4x`, `x4`, or the name "
                "alone); blank, `#` and section lines are skipped. `/card` shows any card."
            ),
            t(
                "**Set-up.** Rock-paper-scissors (a seeded random winner) chooses to go first or "
                "second. Both draw 6; each may mulligan once, the first player deciding first. A "
                "hand with no Cookie is shown, shuffled back and redrawn, and the opponent draws "
                "one card each time. Both choose a starting Cookie in secret; they are revealed "
                "together and each takes HP cards face down from the top of the deck (the top "
                "card ends at the bottom). Starting Cookies' On Reveal does not trigger."
            ),
            t(
                "**A turn.** Active (everything of yours stands up) · Draw 2 (not the first "
                "player's first turn) · Support: one card from hand to the Support Area · Main: "
                "place Cookies (at most 2 in the Battle Area), use Items, set a Stage, activate "
                "it, attack, in any order · End: end-of-turn effects."
            ),
            t(
                '**Costs.** A cost reads "2 Red + 1 any colour": each rests one Active Support '
                'card, of that colour or, for "any colour", of any. You choose which colours pay '
                '(the first option is the automatic choice). "discard" also discards a card from '
                'your hand; "rest this" rests the card itself. Support cards stand up again at '
                "the start of your turn."
            ),
            t(
                "**Attacks.** Rest an Active Cookie and pay its attack cost; any opposing Cookie "
                "may be the target, Active or Rested. The first player cannot attack on their "
                'first turn. The defender may answer once (one Trap or one "when attacked" '
                "effect). Then each point of damage flips one HP card to the Discard Pile; a "
                "flipped FLIP card's effect may be used (or declined) before the next card "
                "flips. A Cookie with no HP left faints and goes to the Break Area."
            ),
        ]
    )


def rulings() -> Text:
    """Our rulings: what we decided where the rulebook is silent, one message a ruling."""
    return lined(
        [
            t("**Our rulings.**"),
            t("• One Support card pays one cost symbol."),
            t(
                "• A Cookie placed this turn is Active and may attack at once (the first "
                "player's first turn aside)."
            ),
            t(
                "• All damage, from attacks or effects, flips one HP card per point, FLIP "
                "effects resolving between flips; damage beyond the HP left is lost; a heal in "
                "the middle of damage gives no points back; the declared damage is fixed when "
                "the damage step starts (never below 0). A Cookie faints the moment its last HP "
                "card flips; a FLIP on that last card still resolves after the faint."
            ),
            t(
                "• If the attacker or the target left the Battle Area before the damage step, "
                'there is no damage; an attack\'s "then" effect needs its attacker still in '
                "the Battle Area."
            ),
            t(
                "• After Cookies faint or leave, their owner may place that many Cookies from "
                "hand (turn player first), each On Reveal resolving before the next; "
                "re-placement follows an attack once it has resolved, and an effect once it is "
                "done. On Reveal may be paid for and used on the opponent's turn too. A player "
                "with no Cookie in hand is asked all the same and passes on their own after a "
                "short pause, so waiting tells nothing of their hand."
            ),
            t(
                "• A player with no Cookie in the Battle Area and none in hand loses (checked "
                "at re-placement); a Break Area of LV {win} loses at once.",
                win=WIN_LEVEL,
            ),
            t(
                "• An empty deck refreshes at once, even in the middle of a draw or an HP pile: "
                "you choose which Cookie from your Discard Pile goes to the Break Area, the "
                "rest is shuffled into a new deck; if it is still empty you refresh again; with "
                "no Cookie to send, you lose."
            ),
            t("• End-of-turn effects: the Stage first, then Cookies left to right."),
            t("• The opponent's draw after a forced redraw is automatic, each time."),
            t(
                "• The trap window opens after every attack, so waiting tells nothing of the "
                "defender's hand; a defender with nothing to answer passes on their own after a "
                "short pause. A choice your hand leaves one answer to (a discard of your choice "
                "from a hand of one kind) is likewise asked, and answered for you after the "
                "pause."
            ),
            t(
                '• "When attacked" is the Cookie\'s own effect: only the Cookie the attack '
                "targets may use it, not its neighbour."
            ),
            t(
                '• "+N HP" has no cap: it puts the top card of the deck on the HP pile. Moving '
                "HP cards any other way is not damage."
            ),
            t(
                '• A condition ("If ...") is checked when the card is played or its effect '
                "chosen, before paying; the effect then resolves in full. Attack and "
                "end-of-turn effects check it when they start."
            ),
            t(
                "• Effects that change an attack change the attack in progress until its "
                "damage is locked; played outside an attack, they change your attacks for the "
                "rest of the turn."
            ),
        ]
    )


def rules_without_rulings(pool: CardPool) -> Text:
    return t("{how}{rules}\n", how=how_to_play(), rules=game_rules(pool))


def rules_text(pool: CardPool) -> Text:
    """The whole rulebook: how to play here, the rules in brief, then our rulings."""
    return t("{rules}\n{rulings}\n", rules=rules_without_rulings(pool), rulings=rulings())
