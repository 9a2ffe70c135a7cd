"""The built-in Braverse bot: a heuristic that reads only its own view.

Mulligan a hand without a LV1-2 Cookie; support with the card least useful in hand (a
colour the Battle Area's attacks cannot pay yet counts as useful there, a Trap outranks a
spare Cookie); keep one Cookie in hand, and place the Cookies that bring most HP for the
levels they risk; attack where it faints the highest level, a lethal attack first; pay
keeping the colours its Traps need; spring a Trap when it saves a Cookie of LV2+ (or any
Cookie whose faint would lose the match, or when it faints the attacker first), and answer
with a "when attacked" effect whenever its Cookie stands after it; once its attacks are
done, send away with an Item a Cookie they did not faint (never with nothing to take);
turn the opponent's FLIP off with a Stage right before an attack when the Support is
spare; accept FLIP and On Reveal unless the cost hurts; refresh with the lowest level.

Defence is what keeps a match between two of these bots going, and it costs nothing
against a weak player: an answer is judged by what it does to the attack in progress (less
damage, more HP, the attacker gone), healing goes where a faint would cost most, a level
in the Break Area is taken back whenever a card allows it, and the Support a Trap in hand
needs stays Active through the bot's own turn unless spending it faints something.
"""

from __future__ import annotations

from collections import Counter

from games.braverse.cards import (
    AddHp,
    Card,
    Damage,
    Effect,
    ModifyAttack,
    ReturnToHand,
    ToDiscard,
    parse_cost,
    target_verb,
)
from games.braverse.state import WIN_LEVEL
from games.braverse.view import BraverseRules, BraverseView, CookieLine
from games.core.protocol import Action, Decision, Option

HARMFUL = ("damage", "return_to_hand", "to_discard", "rest")
REMOVAL = ("return_to_hand", "to_discard")  # a Cookie leaves the Battle Area without a faint


def choose(game: BraverseRules, view: BraverseView, decision: Decision) -> Action:
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
        return take_choice(game, view, me, decision)
    return decision.default or opts[0].action


def good_hand(game: BraverseRules, view: BraverseView, me: int) -> bool:
    hand = view.sides[me].hand or []
    return any(game.pool[c].type == "cookie" and (game.pool[c].level or 0) <= 2 for c in hand)


def cookie_value(game: BraverseRules, number: str) -> float:
    """Which Cookie to put in the Battle Area: HP it brings, less the levels its faint would
    cost (the Break Area decides the match), plus a little for its attack. Measured against
    random play, this beat "highest level first" by a few points per pairing."""
    card = game.pool[number]
    damage = card.attack.damage if card.attack is not None else 0
    return (card.hp or 0) - 2 * (card.level or 0) + 0.5 * damage


def level_of(game: BraverseRules, number: str) -> int:
    return game.pool[number].level or 0


def usefulness(game: BraverseRules, view: BraverseView, me: int, number: str) -> float:
    """How much a hand card is worth keeping (higher: keep)."""
    side = view.sides[me]
    hand = side.hand or []
    card = game.pool[number]
    cookies = [c for c in hand if game.pool[c].type == "cookie"]
    copies = Counter(hand)[number]
    # A Trap outranks a spare Cookie: held, it saves a Cookie on the opponent's turn;
    # supported, it is one colour among others.
    value = {"cookie": 3.0, "trap": 3.5, "item": 1.5, "stage": 1.0}[card.type]
    if card.type == "cookie":
        value += 0.1 * cookie_value(game, number)  # of spare Cookies, the one worth least goes
        if len(cookies) <= 1:
            value += 10  # keep one Cookie in hand
    if card.type == "item" and first_op(card, "item") in REMOVAL:
        value += 1  # the answer to a Cookie the attacks cannot faint: kept over other Items
    if card.type == "stage" and side.stage is not None:
        value -= 1
    if card.colour in missing_colours(game, view, me):
        value -= 1.5  # supported first: a Cookie in play cannot pay its attack without it
    return value - 0.3 * (copies - 1)


def missing_colours(game: BraverseRules, view: BraverseView, me: int) -> set[str]:
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


def support_choice(game: BraverseRules, view: BraverseView, me: int, opts: list[Option]) -> Action:
    cards = [o for o in opts if o.action.kind == "sup"]
    return min(cards, key=lambda o: usefulness(game, view, me, o.action.args[0])).action


def trap_colours(
    game: BraverseRules, view: BraverseView, me: int, playing: str | None = None
) -> Counter[str]:
    """The colours the Traps in hand need (but the one being played)."""
    hand = list(view.sides[me].hand or [])
    if playing in hand:
        hand.remove(playing)
    need: Counter[str] = Counter()
    for number in hand:
        if game.pool[number].type == "trap":
            need.update(c for c in parse_cost(game.pool[number].cost).symbols if c != "N")
    return need


def paid_of(option: Option) -> str:
    """The colours an option pays ("free" when none)."""
    args = option.action.args
    match option.action.kind:
        case "item" | "trap" | "stage" | "react":
            return args[1]
        case "atk":
            return args[2]
    return args[0]


def payment_cost(game: BraverseRules, view: BraverseView, me: int, option: Option) -> float:
    """How much a payment hurts: colours that the Traps in hand need count double."""
    paid = paid_of(option)
    if paid == "free":
        return 0.0
    playing = option.action.args[0] if option.action.kind in ("item", "trap") else None
    need = trap_colours(game, view, me, playing)
    return sum(2.0 if need[c] else 1.0 for c in paid)


def active_support(game: BraverseRules, view: BraverseView, me: int) -> Counter[str]:
    return Counter(game.pool[s.card].colour for s in view.sides[me].support if not s.rested)


def payable(active: Counter[str], cost: str) -> bool:
    """Whether these Active Support colours pay a cost (coloured symbols first, N any)."""
    symbols = parse_cost(cost).symbols
    left = Counter(active)
    for colour in symbols.replace("N", ""):
        if left[colour] <= 0:
            return False
        left[colour] -= 1
    return sum(left.values()) >= symbols.count("N")


def traps_in_hand(game: BraverseRules, view: BraverseView, me: int) -> list[Card]:
    return [game.pool[c] for c in view.sides[me].hand or [] if game.pool[c].type == "trap"]


def strands_trap(game: BraverseRules, view: BraverseView, me: int, paid: str) -> bool:
    """Paying these colours leaves no Trap in hand payable that was payable before."""
    if paid == "free":
        return False
    active = active_support(game, view, me)
    ready = [t for t in traps_in_hand(game, view, me) if payable(active, t.cost)]
    if not ready:
        return False
    after = active - Counter(paid)
    return not any(payable(after, t.cost) for t in ready)


def cost_hurts(game: BraverseRules, view: BraverseView, me: int, paid: str) -> bool:
    """Paying would leave a Trap in hand unpaid that could be paid now."""
    return strands_trap(game, view, me, paid)


def boost_of(game: BraverseRules, view: BraverseView, me: int, option: Option) -> int:
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
    game: BraverseRules, view: BraverseView, me: int, boosts: list[Option], attacks: list[Option]
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


def first_op(card: Card, trigger: str) -> str:
    effect = card.ability(trigger)
    return effect.do[0].op if effect is not None else ""


def main_choice(game: BraverseRules, view: BraverseView, me: int, opts: list[Option]) -> Action:
    side = view.sides[me]
    hand = side.hand or []
    by_kind: dict[str, list[Option]] = {}
    for o in opts:
        by_kind.setdefault(o.action.kind, []).append(o)
    cookies_in_hand = [c for c in hand if game.pool[c].type == "cookie"]
    if "cookie" in by_kind and (len(cookies_in_hand) >= 2 or not side.battle):
        return max(by_kind["cookie"], key=lambda o: cookie_value(game, o.action.args[0])).action
    if "stage" in by_kind and side.stage is None:
        return by_kind["stage"][0].action
    items = by_kind.get("item", [])
    # A level back out of the Break Area is worth any Support: it is the match's clock.
    recovery = [
        o for o in items if first_op(game.pool[o.action.args[0]], "item") == "break_to_discard"
    ]
    if recovery:
        return min(recovery, key=lambda o: payment_cost(game, view, me, o)).action
    attacks = by_kind.get("atk", [])
    boosts = [o for o in items + by_kind.get("act", []) if boost_of(game, view, me, o)]
    boost = boost_first(game, view, me, boosts, attacks)
    if boost is not None:
        return boost.action
    attacks = [o for o in attacks if attack_worth(game, view, me, o)]
    acts = by_kind.get("act", [])
    if attacks:
        shield = flip_shield(game, view, me, acts, attack_choice(game, view, me, attacks))
        return (shield or attack_choice(game, view, me, attacks)).action
    # FLIP turned off once the attacks are done protects nothing
    acts = [o for o in acts if stage_op(game, view, me) != "disable_flip"]
    if acts:
        return acts[0].action
    items = [o for o in items if item_worth(game, view, me, o)]
    if items:
        return min(items, key=lambda o: payment_cost(game, view, me, o)).action
    return Action.of("end")


def stage_op(game: BraverseRules, view: BraverseView, me: int) -> str:
    stage = view.sides[me].stage
    return first_op(game.pool[stage], "activate") if stage else ""


def removal_targets(
    game: BraverseRules, view: BraverseView, me: int, number: str
) -> list[CookieLine]:
    """The opponent's Cookies an Item that sends a Cookie away (to the hand or the Discard
    Pile, no faint) may take: none if it is not such an Item."""
    effect = game.pool[number].item
    op = effect.do[0] if effect is not None else None
    if not isinstance(op, ReturnToHand | ToDiscard) or op.target.zone != "battle":
        return []
    return [c for c in view.sides[1 - me].battle if aims_at(game, op, c)]


def flip_shield(
    game: BraverseRules, view: BraverseView, me: int, acts: list[Option], attack: Option
) -> Option | None:
    """A Stage activation that turns the opponent's FLIP off, worth its Support right before
    an attack that flips their HP cards: only when their deck has shown a FLIP card (HP piles
    are face down: what they hold is known only from their public cards), and when the
    Support left still pays that attack and keeps the Traps in hand payable."""
    if stage_op(game, view, me) != "disable_flip" or attack_outcome(game, view, me, attack)[0] < 1:
        return None
    foe = view.sides[1 - me]
    public = [c.card for c in foe.battle] + [s.card for s in foe.support]
    if not any(game.pool[n].is_flip for n in public + foe.discard + foe.break_area):
        return None
    attacker = game.pool[view.sides[me].battle[int(attack.action.args[0])].card]
    assert attacker.attack is not None
    for act in sorted(acts, key=lambda o: payment_cost(game, view, me, o)):
        paid = paid_of(act)
        after = active_support(game, view, me) - Counter("" if paid == "free" else paid)
        if payable(after, attacker.attack.cost) and not strands_trap(game, view, me, paid):
            return act
    return None


def attack_outcome(
    game: BraverseRules, view: BraverseView, me: int, option: Option
) -> tuple[int, bool]:
    """(damage it deals, whether the target faints) if the defender does not answer."""
    side, foe = view.sides[me], view.sides[1 - me]
    attacker = game.pool[side.battle[int(option.action.args[0])].card]
    target = foe.battle[int(option.action.args[1])]
    assert attacker.attack is not None
    damage = max(0, attacker.attack.damage + side.attack_bonus)
    return min(damage, target.hp_left), damage >= target.hp_left


def attack_worth(game: BraverseRules, view: BraverseView, me: int, option: Option) -> bool:
    """An attack that faints nothing is not worth leaving a Trap in hand unpaid for the
    opponent's turn: chip damage can wait, a Cookie of ours cannot."""
    _, faints = attack_outcome(game, view, me, option)
    return faints or not strands_trap(game, view, me, paid_of(option))


def attack_choice(
    game: BraverseRules, view: BraverseView, me: int, attacks: list[Option]
) -> Option:
    foe = view.sides[1 - me]

    def value(o: Option) -> tuple[float, float, float]:
        i, j = int(o.action.args[0]), int(o.action.args[1])
        target = foe.battle[j]
        level = level_of(game, target.card)
        dealt, faints = attack_outcome(game, view, me, o)
        lethal = faints and foe.break_level + level >= WIN_LEVEL
        score = (100 if lethal else 0) + (10 * level if faints else 0) + dealt
        return (score, -payment_cost(game, view, me, o), -i)

    return max(attacks, key=value)


def item_worth(game: BraverseRules, view: BraverseView, me: int, option: Option) -> bool:
    card = game.pool[option.action.args[0]]
    assert card.item is not None
    first = card.item.do[0].op
    foe = view.sides[1 - me]
    if strands_trap(game, view, me, paid_of(option)):
        return False  # the Trap in hand is worth more on the opponent's turn
    if first in REMOVAL:
        return bool(removal_targets(game, view, me, card.number))
    if first in HARMFUL or first in ("support_to_hand", "discard", "mill"):
        return bool(foe.battle) or first in ("support_to_hand", "discard", "mill")
    # modify_attack is only worth it right before an attack the bot cannot plan here
    return first != "modify_attack"


# --- answering an attack ------------------------------------------------------------------
def cookie_by_uid(view: BraverseView, seat: int, uid: int) -> CookieLine | None:
    return next((c for c in view.sides[seat].battle if c.uid == uid), None)


def answer_effect(
    game: BraverseRules, view: BraverseView, me: int, option: Option
) -> Effect | None:
    if option.action.kind == "trap":
        return game.pool[option.action.args[0]].trap
    cookie = view.sides[me].battle[int(option.action.args[0])]
    return game.pool[cookie.card].when_attacked


def after_answer(
    game: BraverseRules, view: BraverseView, me: int, option: Option
) -> tuple[int, int, bool]:
    """What an answer does to the attack in progress: (damage that lands, the target's HP
    then, whether the attacker faints). The bot's own picks aim its HP at the target and
    its damage or bounce at the attacker, as pick_choice does."""
    attack = view.attack
    assert attack is not None
    target = cookie_by_uid(view, me, attack.target_uid)
    attacker = cookie_by_uid(view, 1 - me, attack.attacker_uid)
    damage, hp = attack.damage, target.hp_left if target is not None else 0
    attacker_faints, attacker_gone = False, attacker is None
    effect = answer_effect(game, view, me, option)
    for op in effect.do if effect is not None else ():
        if isinstance(op, ModifyAttack):
            damage = max(0, damage + op.n)
        elif isinstance(op, AddHp) and op.target.side in ("own", "either"):
            hp += op.n
        elif isinstance(op, Damage | ReturnToHand | ToDiscard) and aims_at(game, op, attacker):
            assert attacker is not None
            if isinstance(op, Damage):
                attacker_faints = attacker_faints or op.n >= attacker.hp_left
            attacker_gone = attacker_gone or not isinstance(op, Damage) or attacker_faints
    return (0 if attacker_gone else damage), hp, attacker_faints


def aims_at(
    game: BraverseRules, op: Damage | ReturnToHand | ToDiscard, cookie: CookieLine | None
) -> bool:
    """Whether an answer's op may aim at this Cookie of the opponent's."""
    target = op.target
    return (
        cookie is not None
        and target.side in ("opponent", "either")
        and game.matches(target, cookie.card, cookie.rested, cookie.hp_left)
    )


def trap_choice(game: BraverseRules, view: BraverseView, me: int, opts: list[Option]) -> Action:
    answers = [o for o in opts if o.action.kind != "pass"]
    attack = view.attack
    if not answers or attack is None or not attack.target:
        return Action.of("pass")
    target = cookie_by_uid(view, me, attack.target_uid)
    if target is None:
        return Action.of("pass")
    level = level_of(game, target.card)
    faints = attack.damage >= target.hp_left
    decisive = view.sides[me].break_level + level >= WIN_LEVEL

    def saves(o: Option) -> bool:
        damage, hp, _ = after_answer(game, view, me, o)
        return damage < hp

    def takes_out(o: Option) -> bool:
        return after_answer(game, view, me, o)[2]

    # A "when attacked" answer only rests its Cookie on the opponent's turn (it stands up
    # again at the owner's Active Phase): nearly free, so it is used whenever the Cookie
    # stands after it (saved, or kept with more HP) and its cost leaves the Traps in hand
    # payable. One that cannot save it would spend the window a Trap may save it in.
    reacts = [
        o
        for o in answers
        if o.action.kind == "react" and not cost_hurts(game, view, me, o.action.args[1])
    ]
    if reacts and attack.damage > 0:
        kept = [o for o in reacts if saves(o)]
        if kept:
            return kept[0].action
    cheapest = sorted(answers, key=lambda o: payment_cost(game, view, me, o))
    killing = [o for o in cheapest if takes_out(o)]
    if killing:  # the attacker faints before it deals anything: a level for nothing
        return killing[0].action
    if faints and (level >= 2 or decisive):
        saving = [o for o in cheapest if saves(o)]
        if saving:
            return saving[0].action
    return Action.of("pass")


def replace_choice(game: BraverseRules, view: BraverseView, me: int, opts: list[Option]) -> Action:
    places = [o for o in opts if o.action.kind == "place"]
    side = view.sides[me]
    hand = side.hand or []
    cookies = [c for c in hand if game.pool[c].type == "cookie"]
    forced = not any(o.action.kind == "done" for o in opts)
    if forced or len(cookies) >= 2:
        return max(places, key=lambda o: cookie_value(game, o.action.args[0])).action
    return Action.of("done")


# --- choices inside effects ----------------------------------------------------------------
def op_in_prompt(game: BraverseRules, decision: Decision) -> tuple[str, int]:
    """The op a target choice is for and its n, read from the prompt, which names the
    card and what the op does ("Backdraft's FLIP deals 1 damage: pick a target.")."""
    prompt = decision.prompt
    for card in sorted(game.pool.cards, key=lambda c: -len(c.name)):
        if card.name not in prompt:
            continue
        for _, ops in card.effects():
            for op in ops:
                verb = target_verb(op)
                if verb and f"{verb}: pick" in prompt:
                    return op.op, getattr(op, "n", 1)
    return "", 1


def pick_choice(game: BraverseRules, view: BraverseView, me: int, decision: Decision) -> Action:
    op, n = op_in_prompt(game, decision)
    harmful = op in HARMFUL
    picks = [o for o in decision.options if o.action.kind == "pick"]
    cookies: dict[int, tuple[int, CookieLine]] = {
        c.uid: (seat, c) for seat, side in enumerate(view.sides) for c in side.battle
    }

    def owner_is_me(o: Option) -> bool:
        ref = o.action.args[0]
        if ref.startswith("c"):
            return cookies[int(ref[1:])][0] == me
        return ref[1:].split("-")[0] == str(me)

    wanted = [o for o in picks if owner_is_me(o) != harmful]
    done = [o for o in decision.options if o.action.kind == "done"]
    if not wanted:
        return done[0].action if done else picks[0].action
    attack = view.attack
    foe = view.sides[1 - me]

    def score(o: Option) -> float:
        ref = o.action.args[0]
        if not ref.startswith("c"):
            return 0.0
        uid = int(ref[1:])
        cookie = cookies[uid][1]
        level = level_of(game, cookie.card)
        attacking = attack is not None and attack.seat != me and attack.attacker_uid == uid
        attacked = attack is not None and attack.seat != me and attack.target_uid == uid
        if op == "damage":
            faints = n >= cookie.hp_left
            lethal = faints and foe.break_level + level >= WIN_LEVEL
            return 1000 * lethal + 100 * attacking * faints + 10 * level * faints - cookie.hp_left
        if op in ("return_to_hand", "to_discard"):
            return 100 * attacking + 10 * level + cookie.hp_left
        if op == "rest":  # an Active Cookie of theirs that could still attack this turn
            attack_of = game.pool[cookie.card].attack
            return attack_of.damage if attack_of is not None else 0
        if op == "add_hp":  # HP where a faint would cost most, the attacked Cookie first
            return 100 * attacked + 10 * level - cookie.hp_left
        return -cookie.hp_left

    return max(wanted, key=score).action


def take_choice(game: BraverseRules, view: BraverseView, me: int, decision: Decision) -> Action:
    takes = [o for o in decision.options if o.action.kind == "take"]
    prompt = decision.prompt
    if prompt.endswith("discard which card?") and view.sides[me].hand is not None:
        return min(takes, key=lambda o: usefulness(game, view, me, o.action.args[0])).action
    if prompt.endswith("move which card?"):  # out of the Break Area: the highest level
        return max(takes, key=lambda o: level_of(game, o.action.args[0])).action
    # recovered or searched into hand: what the hand would miss most
    return max(takes, key=lambda o: usefulness(game, view, me, o.action.args[0])).action


# --- judging a position (the search bot's playouts end here) ------------------------------
WON = 1000.0  # a won or lost match outweighs any position
BREAK_LEVEL = 10.0  # each level in one's own Break Area: ten of them lose the match
EMPTY_BATTLE = 15.0  # nothing in the Battle Area: the next re-placement may lose the match


def position_value(game: BraverseRules, view: BraverseView, me: int) -> float:
    """How good the position in ``view`` is for ``me`` (higher: better), from the view only:
    a finished match is worth ``WON`` either way; else what ``side_value`` says of ``me``
    less what it says of the opponent."""
    if view.winner is not None:
        return WON if view.winner == me else -WON
    return side_value(game, view, me) - side_value(game, view, 1 - me)


def side_value(game: BraverseRules, view: BraverseView, seat: int) -> float:
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
