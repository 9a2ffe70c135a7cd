"""The built-in Braverse bot: a heuristic that reads only its own view.

Mulligan a hand without a LV1-2 Cookie; support with the card least useful in hand (a
colour the Battle Area's attacks cannot pay yet counts as useful there); keep one Cookie
in hand, and place the Cookies that bring most HP for the levels they risk;
attack where it faints the highest level, a lethal attack first; pay keeping the colours
its Traps need; spring a Trap when it saves a Cookie of LV2+, and answer with a "when
attacked" effect whenever it softens a hit; accept FLIP and On Reveal
unless the cost hurts; refresh with the lowest level.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from games.braverse.cards import parse_cost
from games.braverse.state import WIN_LEVEL
from games.core.protocol import Action, Decision, Option

if TYPE_CHECKING:
    from games.braverse.engine import Braverse
    from games.braverse.view import BraverseView

HARMFUL = ("damage", "return_to_hand", "to_discard", "rest")


def choose(game: Braverse, view: BraverseView, decision: Decision) -> Action:
    me = decision.seat
    kinds = {o.action.kind for o in decision.options}
    opts = list(decision.options)
    if "order" in kinds:
        return Action.of("order", "first")
    if "mull" in kinds:
        return Action.of("mull", "no" if good_hand(game, view, me) else "yes")
    if "start" in kinds:
        return max(opts, key=lambda o: cookie_value(game, o.action.args[0])).action
    if "sup" in kinds:
        return support_choice(game, view, me, opts)
    if "end" in kinds:
        return main_choice(game, view, me, opts)
    if "pass" in kinds:
        return trap_choice(game, view, me, opts)
    if "flip" in kinds or "reveal" in kinds:
        use = [o for o in opts if o.action.kind in ("flip", "reveal")]
        fine = [o for o in use if not cost_hurts(game, view, me, o.action.args[0])]
        return fine[0].action if fine else opts[-1].action
    if "place" in kinds:
        return replace_choice(game, view, me, opts)
    if "refresh" in kinds:
        return opts[0].action  # lowest level first
    if "draw" in kinds:
        return max(opts, key=lambda o: int(o.action.args[0])).action
    if "pick" in kinds:
        return pick_choice(game, view, me, decision)
    if "take" in kinds:
        if decision.prompt.endswith("discard which card?") and view.sides[me].hand is not None:
            return min(
                (o for o in opts if o.action.kind == "take"),
                key=lambda o: usefulness(game, view, me, o.action.args[0]),
            ).action
        return next(o.action for o in opts if o.action.kind == "take")
    return decision.default or opts[0].action


def good_hand(game: Braverse, view: BraverseView, me: int) -> bool:
    hand = view.sides[me].hand or []
    return any(game.pool[c].type == "cookie" and (game.pool[c].level or 0) <= 2 for c in hand)


def cookie_value(game: Braverse, number: str) -> float:
    """Which Cookie to put in the Battle Area: HP it brings, less the levels its faint would
    cost (the Break Area decides the match), plus a little for its attack. Measured against
    random play, this beat "highest level first" by a few points per pairing."""
    card = game.pool[number]
    damage = card.attack.damage if card.attack is not None else 0
    return (card.hp or 0) - 2 * (card.level or 0) + 0.5 * damage


def usefulness(game: Braverse, view: BraverseView, me: int, number: str) -> float:
    """How much a hand card is worth keeping (higher: keep)."""
    side = view.sides[me]
    hand = side.hand or []
    card = game.pool[number]
    cookies = [c for c in hand if game.pool[c].type == "cookie"]
    copies = Counter(hand)[number]
    value = {"cookie": 3.0, "trap": 2.5, "item": 1.5, "stage": 1.0}[card.type]
    if card.type == "cookie" and len(cookies) <= 1:
        value += 10  # keep one Cookie in hand
    if card.type == "stage" and side.stage is not None:
        value -= 1
    if card.colour in missing_colours(game, view, me):
        value -= 1.5  # supported first: a Cookie in play cannot pay its attack without it
    return value - 0.3 * (copies - 1)


def missing_colours(game: Braverse, view: BraverseView, me: int) -> set[str]:
    """Colours the Battle Area's attack costs need that the Support Area lacks."""
    side = view.sides[me]
    have = Counter(game.pool[s.card].colour for s in side.support)
    missing: set[str] = set()
    for cookie in side.battle:
        attack = game.pool[cookie.card].attack
        if attack is None:
            continue
        need = Counter(c for c in parse_cost(attack.cost).symbols if c != "N")
        missing |= {colour for colour, n in need.items() if have[colour] < n}
    return missing


def support_choice(game: Braverse, view: BraverseView, me: int, opts: list[Option]) -> Action:
    cards = [o for o in opts if o.action.kind == "sup"]
    return min(cards, key=lambda o: usefulness(game, view, me, o.action.args[0])).action


def trap_colours(game: Braverse, view: BraverseView, me: int) -> Counter[str]:
    hand = view.sides[me].hand or []
    need: Counter[str] = Counter()
    for number in hand:
        if game.pool[number].type == "trap":
            need.update(c for c in parse_cost(game.pool[number].cost).symbols if c != "N")
    return need


def payment_cost(game: Braverse, view: BraverseView, me: int, option: Option) -> float:
    """How much a payment hurts: colours that the Traps in hand need count double."""
    paid = option.action.args[-1] if option.action.kind != "item" else option.action.args[1]
    if paid == "free":
        return 0.0
    need = trap_colours(game, view, me)
    return sum(2.0 if need[c] else 1.0 for c in paid)


def cost_hurts(game: Braverse, view: BraverseView, me: int, paid: str) -> bool:
    """Paying would leave too few Active Support cards for the cheapest Trap in hand."""
    if paid == "free":
        return False
    side = view.sides[me]
    traps = [
        len(parse_cost(game.pool[c].cost).symbols)
        for c in side.hand or []
        if game.pool[c].type == "trap"
    ]
    active = sum(not s.rested for s in side.support)
    return bool(traps) and active - len(paid) < min(traps)


def boost_of(game: Braverse, view: BraverseView, me: int, option: Option) -> int:
    """The +N to this turn's attacks an Item or a Stage activation gives (0 if none)."""
    if option.action.kind == "item":
        effect = game.pool[option.action.args[0]].item
    else:
        stage = view.sides[me].stage
        effect = game.pool[stage].activate if stage else None
    if effect is None or effect.do[0].op != "modify_attack":
        return 0
    return max(0, getattr(effect.do[0], "n", 0))


def boost_first(
    game: Braverse, view: BraverseView, me: int, boosts: list[Option], attacks: list[Option]
) -> Option | None:
    """A boost worth playing now: it turns one of the attacks on offer into a faint, and
    the Support left can still pay for that attack."""
    side, foe = view.sides[me], view.sides[1 - me]
    active = sum(not s.rested for s in side.support)
    for boost in boosts:
        n = boost_of(game, view, me, boost)
        paid = boost.action.args[1] if boost.action.kind == "item" else boost.action.args[0]
        spent = 0 if paid == "free" else len(paid)
        for attack in attacks:
            attacker = game.pool[side.battle[int(attack.action.args[0])].card]
            target = foe.battle[int(attack.action.args[1])]
            assert attacker.attack is not None
            damage = attacker.attack.damage + side.attack_bonus
            cost = len(parse_cost(attacker.attack.cost).symbols)
            if damage < target.hp_left <= damage + n and active - spent >= cost:
                return boost
    return None


def main_choice(game: Braverse, view: BraverseView, me: int, opts: list[Option]) -> Action:
    side, foe = view.sides[me], view.sides[1 - me]
    hand = side.hand or []
    by_kind: dict[str, list[Option]] = {}
    for o in opts:
        by_kind.setdefault(o.action.kind, []).append(o)
    cookies_in_hand = [c for c in hand if game.pool[c].type == "cookie"]
    if "cookie" in by_kind and (len(cookies_in_hand) >= 2 or not side.battle):
        return max(by_kind["cookie"], key=lambda o: cookie_value(game, o.action.args[0])).action
    if "stage" in by_kind and side.stage is None:
        return by_kind["stage"][0].action
    attacks = by_kind.get("atk", [])
    boosts = [
        o for o in by_kind.get("item", []) + by_kind.get("act", []) if boost_of(game, view, me, o)
    ]
    boost = boost_first(game, view, me, boosts, attacks)
    if boost is not None:
        return boost.action
    if attacks:
        return attack_choice(game, view, me, attacks).action
    if "act" in by_kind:
        return by_kind["act"][0].action
    items = [o for o in by_kind.get("item", []) if item_worth(game, view, me, o)]
    if items:
        return items[0].action
    del foe
    return Action.of("end")


def attack_choice(game: Braverse, view: BraverseView, me: int, attacks: list[Option]) -> Option:
    foe = view.sides[1 - me]
    side = view.sides[me]

    def value(o: Option) -> tuple[float, float, float]:
        i, j = int(o.action.args[0]), int(o.action.args[1])
        attacker = game.pool[side.battle[i].card]
        target = foe.battle[j]
        level = game.pool[target.card].level or 0
        assert attacker.attack is not None
        faints = attacker.attack.damage + side.attack_bonus >= target.hp_left
        lethal = faints and foe.break_level + level >= WIN_LEVEL
        score = (100 if lethal else 0) + (10 * level if faints else 0)
        score += min(attacker.attack.damage + side.attack_bonus, target.hp_left)
        return (score, -payment_cost(game, view, me, o), -i)

    return max(attacks, key=value)


def item_worth(game: Braverse, view: BraverseView, me: int, option: Option) -> bool:
    card = game.pool[option.action.args[0]]
    assert card.item is not None
    first = card.item.do[0].op
    foe = view.sides[1 - me]
    if first in HARMFUL or first in ("support_to_hand", "discard", "mill"):
        return bool(foe.battle) or first in ("support_to_hand", "discard", "mill")
    # modify_attack is only worth it right before an attack the bot cannot plan here
    return first != "modify_attack"


def trap_choice(game: Braverse, view: BraverseView, me: int, opts: list[Option]) -> Action:
    answers = [o for o in opts if o.action.kind != "pass"]
    attack = view.attack
    if not answers or attack is None or not attack.target:
        return Action.of("pass")
    target = next((c for c in view.sides[me].battle if c.uid == attack.target_uid), None)
    if target is None:
        return Action.of("pass")
    # A "when attacked" answer only rests its Cookie on the opponent's turn (it stands up
    # again at the owner's Active Phase): nearly free, so it is used whenever it softens a
    # hit and its cost leaves the Traps in hand payable.
    reacts = [
        o
        for o in answers
        if o.action.kind == "react" and not cost_hurts(game, view, me, o.action.args[1])
    ]
    if reacts and attack.damage > 0:
        return reacts[0].action
    level = game.pool[target.card].level or 0
    if level >= 2 and attack.damage >= target.hp_left:
        return min(answers, key=lambda o: payment_cost(game, view, me, o)).action
    return Action.of("pass")


def replace_choice(game: Braverse, view: BraverseView, me: int, opts: list[Option]) -> Action:
    places = [o for o in opts if o.action.kind == "place"]
    side = view.sides[me]
    hand = side.hand or []
    cookies = [c for c in hand if game.pool[c].type == "cookie"]
    forced = not any(o.action.kind == "done" for o in opts)
    if forced or len(cookies) >= 2:
        return max(places, key=lambda o: cookie_value(game, o.action.args[0])).action
    return Action.of("done")


def pick_choice(game: Braverse, view: BraverseView, me: int, decision: Decision) -> Action:
    harmful = any(f"({op})" in decision.prompt for op in HARMFUL)
    mine = {c.uid for c in view.sides[me].battle}
    picks = [o for o in decision.options if o.action.kind == "pick"]

    def owner_is_me(o: Option) -> bool:
        ref = o.action.args[0]
        if ref.startswith("c"):
            return int(ref[1:]) in mine
        return ref[1:].split("-")[0] == str(me)

    wanted = [o for o in picks if owner_is_me(o) != harmful]
    done = [o for o in decision.options if o.action.kind == "done"]
    if not wanted:
        return done[0].action if done else picks[0].action

    def hp_of(o: Option) -> int:
        ref = o.action.args[0]
        if not ref.startswith("c"):
            return 0
        for side in view.sides:
            for cookie in side.battle:
                if cookie.uid == int(ref[1:]):
                    return cookie.hp_left
        return 0

    return min(wanted, key=hp_of).action


# --- judging a position (the search bot's playouts end here) ------------------------------
WON = 1000.0  # a won or lost match outweighs any position
BREAK_LEVEL = 10.0  # each level in one's own Break Area: ten of them lose the match
EMPTY_BATTLE = 15.0  # nothing in the Battle Area: the next re-placement may lose the match


def position_value(game: Braverse, view: BraverseView, me: int) -> float:
    """How good the position in ``view`` is for ``me`` (higher: better), from the view only:
    a finished match is worth ``WON`` either way; else what ``side_value`` says of ``me``
    less what it says of the opponent."""
    if view.winner is not None:
        return WON if view.winner == me else -WON
    return side_value(game, view, me) - side_value(game, view, 1 - me)


def side_value(game: Braverse, view: BraverseView, seat: int) -> float:
    """One side's assets: the Break Area counts most (it decides the match), then HP left in
    the Battle Area and the damage it can deal, Support (what pays for everything), and hand
    cards (a Cookie in hand is the next re-placement)."""
    side = view.sides[seat]
    value = -BREAK_LEVEL * side.break_level
    for cookie in side.battle:
        card = game.pool[cookie.card]
        value += 2.0 * cookie.hp_left
        if card.attack is not None:
            value += 1.5 * card.attack.damage
    if not side.battle:
        value -= EMPTY_BATTLE
    value += 1.5 * min(len(side.support), 6)
    value += 1.0 * side.hand_count
    if side.hand is not None:
        cookies = sum(game.pool[c].type == "cookie" for c in side.hand)
        value += 1.5 * min(cookies, 2)
    return value
