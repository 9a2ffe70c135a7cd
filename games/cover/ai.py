"""A heuristic Cover Your Assets player that a casual human does not find silly.

It sees only what its seat may see (the view) and picks among the decision's options.
Priorities: win challenges it can win on count, cover a valuable exposed top set, form the
richest set it can, keep wilds for defence, and discard the cheapest card it does not need.
With the advanced rules it also hides a rich top set at the bottom with Move, grabs a
richer top set with Swap, reaches under a top set when it holds the cards for it, improves
its own top set, and stops after one action when a second would only waste a card.
"""

from __future__ import annotations

from collections import Counter

from games.core.protocol import Action, Decision, Option
from games.cover.view import CoverRules, CoverView

WORTH_A_WILD = 30_000  # a battle pot at least this rich is worth spending a wild on


def choose(game: CoverRules, view: CoverView, decision: Decision) -> Action:
    kinds = {o.action.kind for o in decision.options}
    if "rotate" in kinds:
        return rotate_for_gain(view, decision)
    if kinds & {"mixer_swap", "exchange"}:
        return decision.options[0].action  # either way is as good as the other, blind
    if "force_move" in kinds:
        # Deciding for an opponent: bring their safe bottom set up where it can be stolen.
        return next(o.action for o in decision.options if o.action.args[1] == "bottom")
    if "accept" in kinds:
        return react_to_draft(game, view, decision)
    if view.battle is not None:
        return answer(game, view, decision)
    return take_turn(game, view, decision)


def rotate_for_gain(view: CoverView, decision: Decision) -> Action:
    """Pass the top Batches the way that brings us the richer one for ours."""
    me = view.viewer
    assert me is not None
    n = len(view.players)

    def top(seat: int) -> int:
        stack = view.players[seat % n].stack
        return stack[-1].value if stack else 0

    # Passing left, we receive from our right neighbour (seat - 1), and the other way round.
    gain = {"left": top(me - 1) - top(me), "right": top(me + 1) - top(me)}
    best = max(gain, key=lambda way: gain[way])
    return next(o.action for o in decision.options if o.action.args[0] == best)


def react_to_draft(game: CoverRules, view: CoverView, decision: Decision) -> Action:
    """Challenge a drafted set that is rich, or that the drafter cannot hold on count."""
    draft = view.draft
    assert draft is not None and view.hand is not None
    asset = game.make_set(*draft.cards).asset
    matching = sum(1 for c in view.hand if game.matches(c, asset))
    value = sum(game.cards[c].value for c in draft.cards)
    sure_win = matching > view.players[draft.drafter].hand_count
    challenges = by_kind(decision, "challenge_draft")
    if challenges and (sure_win or (matching >= 2 and value >= 20_000)):
        return min(challenges, key=lambda o: play_cost(game, o.action.args)).action
    return Action.of("accept")


def by_kind(decision: Decision, kind: str) -> list[Option]:
    return [o for o in decision.options if o.action.kind == kind]


def card_cost(game: CoverRules, card: str) -> tuple[int, int]:
    """Cheaper to spend first: assets before wilds, then by value."""
    return (game.is_wild(card), game.cards[card].value)


def play_cost(game: CoverRules, cards: tuple[str, ...]) -> tuple[int, int, int]:
    wilds = sum(game.is_wild(c) for c in cards)
    return (wilds, len(cards), sum(game.cards[c].value for c in cards))


def answer(game: CoverRules, view: CoverView, decision: Decision) -> Action:
    battle = view.battle
    assert battle is not None
    counters = by_kind(decision, "counter")
    if not counters:
        return Action.of("concede")
    best = min(counters, key=lambda o: play_cost(game, o.action.args))
    if battle.drafted is not None:
        at_stake = sum(game.cards[c].value for c in battle.drafted)
    else:
        at_stake = view.players[battle.defender].stack[-1 - battle.depth].value
    pot = at_stake + sum(game.cards[c].value for _, c in battle.played)
    if not any(game.is_wild(c) for c in best.action.args) or pot >= WORTH_A_WILD:
        return best.action
    return Action.of("concede")


def take_turn(game: CoverRules, view: CoverView, decision: Decision) -> Action:
    me = view.viewer
    assert me is not None and view.hand is not None
    hand = Counter(view.hand)
    second_action = bool(by_kind(decision, "done"))

    for tactic in (best_challenge, best_reach, hide_or_grab):
        found = tactic(game, view, decision, hand)
        if found is not None:
            return found

    sets = by_kind(decision, "pair") + by_kind(decision, "take") + by_kind(decision, "draft")
    sets += by_kind(decision, "single")
    my_stack = view.players[me].stack
    top_exposed = len(my_stack) >= 2 and my_stack[-1].value >= 40_000
    if sets:
        best = max(sets, key=lambda o: set_score(game, view, o))
        uses_wild = any(game.is_wild(c) for c in spent_from_hand(best))
        wilds_held = sum(n for card, n in hand.items() if game.is_wild(card))
        spare_wild = wilds_held >= 2  # one still stays in hand for defence
        if not uses_wild or spare_wild or top_exposed or len(hand) <= 2 or view.deck_count == 0:
            return best.action
        natural = [o for o in sets if not any(game.is_wild(c) for c in spent_from_hand(o))]
        if natural:
            return max(natural, key=lambda o: set_score(game, view, o)).action

    improve = by_kind(decision, "improve")
    if improve:
        return improve[0].action
    if second_action:
        return Action.of("done")  # a second discard would only throw a card away

    discards = by_kind(decision, "discard")
    if sets and all(game.is_wild(o.action.args[0]) for o in discards):
        return max(sets, key=lambda o: set_score(game, view, o)).action  # never waste a wild
    return min(discards, key=lambda o: discard_cost(game, o.action.args[0], hand)).action


def hide_or_grab(
    game: CoverRules, view: CoverView, decision: Decision, hand: Counter[str]
) -> Action | None:
    """Move a rich exposed top set of ours to the bottom, or Swap for a richer top set."""
    me = view.viewer
    assert me is not None
    mine = view.players[me].stack
    for o in by_kind(decision, "move"):
        if int(o.action.args[0]) == me and o.action.args[1] == "top" and mine[-1].value >= 40_000:
            return o.action
    swaps = by_kind(decision, "swap")
    if swaps and mine:
        richest = max(swaps, key=lambda o: view.players[int(o.action.args[0])].stack[-1].value)
        gain = view.players[int(richest.action.args[0])].stack[-1].value - mine[-1].value
        if gain >= 25_000:
            return richest.action
    return None


def best_reach(
    game: CoverRules, view: CoverView, decision: Decision, hand: Counter[str]
) -> Action | None:
    """A second-from-top challenge, when the set is rich and our hand can carry the fight."""
    best: tuple[int, Action] | None = None
    for o in by_kind(decision, "challenge_second"):
        target = int(o.action.args[0])
        prize = view.players[target].stack[-2]
        matching = sum(n for c, n in hand.items() if game.matches(c, prize.asset))
        spare = matching - len(o.action.args[1:])
        if prize.value >= 30_000 and spare >= 1:
            score = prize.value - play_cost(game, o.action.args[1:])[2]
            if best is None or score > best[0]:
                best = (score, o.action)
    return best[1] if best else None


def spent_from_hand(option: Option) -> list[str]:
    """The hand cards a set-forming option uses (a draft or a take uses only one)."""
    args = option.action.args
    return list(args) if option.action.kind == "pair" else [args[0]]


def option_cards(view: CoverView, option: Option) -> list[str]:
    args = option.action.args
    if option.action.kind == "take":
        top = view.discard_row[int(args[1])] if len(args) > 1 else view.discard_top
        return [args[0], top or ""]
    if option.action.kind == "draft":
        return [args[0], *(view.drafts[int(p)].top or "" for p in args[1:])]
    return list(args)


def set_score(game: CoverRules, view: CoverView, option: Option) -> int:
    cards = option_cards(view, option)
    value = sum(game.cards[c].value for c in cards if c)
    # Taking from the discard pile keeps a hand card: slightly better than pairing two.
    return value + (5_000 if option.action.kind == "take" else 0)


def discard_cost(game: CoverRules, card: str, hand: Counter[str]) -> tuple[int, int, int]:
    """Cheapest to lose: never a wild if anything else will do; keep cards that pair up."""
    return (game.is_wild(card), hand[card] >= 2, game.cards[card].value)


def best_challenge(
    game: CoverRules, view: CoverView, decision: Decision, hand: Counter[str]
) -> Action | None:
    options = by_kind(decision, "challenge")
    best: tuple[int, Action] | None = None
    for option in options:
        target, card = int(option.action.args[0]), option.action.args[1]
        top = view.players[target].stack[-1]
        matching = sum(n for c, n in hand.items() if game.matches(c, top.asset))
        opponent_cards = view.players[target].hand_count
        sure_win = matching > opponent_cards
        worth_it = matching >= 2 and top.value >= 20_000
        if not (sure_win or worth_it):
            continue
        if game.is_wild(card) and any(
            not game.is_wild(o.action.args[1]) and int(o.action.args[0]) == target for o in options
        ):
            continue  # lead with the asset, keep the wild for the exchange
        score = top.value + (100_000 if sure_win else 0)
        if best is None or score > best[0]:
            best = (score, option.action)
    return best[1] if best else None
