"""Challenges: who may challenge what, with which cards, and how a battle is settled.

A mixin of the Cover Your Assets engine. The rulebook's words: challenge a set with a
matching asset or a wild; defender and challenger answer in turn until one cannot or will
not; the winner keeps the set and every card played. Advanced: a second-from-top set is
opened with two cards or a Penny Jar; a Penny Jar weighs two cards and is answered with two
cards or another Penny Jar.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from games.core.protocol import Action, Decision, Event, IllegalAction, Option, option
from games.core.text import Text, joined, t, tc, tn
from games.cover.cards import CoverCards
from games.cover.state import Battle, CoverState

Play = tuple[str, ...]  # the card(s) one side lays down in one answer


class Battles(CoverCards):
    def card_weight(self, state: CoverState, card: str) -> int:
        """How many cards one card counts as in a battle (a Penny Jar: two)."""
        return self.cards[card].weight

    def weight(self, state: CoverState, play: Play) -> int:
        return sum(self.card_weight(state, card) for card in play)

    def weight_note(self, state: CoverState, play: Play, *, single: bool = False) -> Text:
        """A card that counts as more than one says so under the option (a Penny Jar);
        ``single``: where every card counts as one (answers in a second-from-top
        challenge), it says that instead."""
        return joined(
            (
                t(
                    "{card} counts as one card in a second-from-top challenge.",
                    card=self.label(card),
                )
                if single
                else tn(
                    "{card} counts as {n} card here.",
                    "{card} counts as {n} cards here.",
                    n=self.card_weight(state, card),
                    card=self.label(card),
                )
                for card in dict.fromkeys(play)
                if self.card_weight(state, card) > 1
            ),
            " ",
        )

    # --- what can be played ------------------------------------------------------------
    def plays(self, state: CoverState, hand: Sequence[str], asset: str, need: int) -> list[Play]:
        """Answers that weigh at least ``need``: one card, or two cards when two are due.

        Two cards are two assets, two wilds or one of each; a Penny Jar alone weighs two.
        """
        kinds = [c for c in dict.fromkeys(hand) if self.matches(c, asset)]
        singles = [(c,) for c in kinds if self.card_weight(state, c) >= need]
        if need == 1:
            return singles
        light = [c for c in kinds if self.card_weight(state, c) == 1]
        counts = Counter(hand)
        pairs = [(a, b) for i, a in enumerate(light) for b in light[i:] if a != b or counts[a] >= 2]
        return singles + pairs

    def openings(
        self, state: CoverState, hand: Sequence[str], asset: str, depth: int
    ) -> list[Play]:
        if depth == 0:
            return self.plays(state, hand, asset, need=1)
        return self.plays(state, hand, asset, need=2)  # reaching under the top set costs two

    def challengeable(self, state: CoverState, seat: int, depth: int = 0) -> list[int]:
        """Targets whose set at ``depth`` is not their first (bottom) set, which is safe.

        Players this turn's player lost a challenge to are barred until their next turn.
        """
        return [
            other
            for other, player in enumerate(state.players)
            if other != seat and len(player.stack) >= depth + 2 and other not in state.barred
        ]

    def may_challenge(self, state: CoverState, seat: int) -> bool:
        """ "You must form at least one set before stealing any sets from other players." """
        return bool(state.players[seat].stack)

    def challenge_options(self, state: CoverState, seat: int, hand: list[str]) -> list[Option]:
        if not self.may_challenge(state, seat):
            return []
        depths = [0, 1] if state.options.second_from_top else [0]
        found: list[Option] = []
        for depth in depths:
            for target in self.challengeable(state, seat, depth):
                target_set = state.players[target].stack[-1 - depth]
                name = self.title(target_set.asset)
                for play in self.openings(state, hand, target_set.asset, depth):
                    kind = "challenge" if depth == 0 else "challenge_second"
                    found.append(
                        option(
                            Action.of(kind, target, *play),
                            label=self.words.challenge_option(
                                state.names[target], name, self.play_label(play), depth
                            ),
                            group=self.words.challenge_group(),
                            style="danger",
                            description=self.weight_note(state, play),
                        )
                    )
        return found

    def play_label(self, play: Play) -> Text:
        return self.labels(play)

    def answer_decision(self, state: CoverState, battle: Battle) -> Decision:
        seat = battle.to_answer
        hand = state.players[seat].hand
        last_seat = battle.played[-1][0]
        last_play = tuple(c for s, c in battle.played[-self.last_play_size(battle) :])
        asset = self.title(battle.asset)
        two = battle.need == 2
        cards = self.play_label(last_play)
        if seat == battle.defender:
            prompt = self.words.defend_prompt(state.names[last_seat], asset, cards, two)
            give_up = t("Let it go")
        else:
            prompt = self.words.again_prompt(state.names[last_seat], asset, cards, two)
            give_up = t("Give up")
        options = [
            option(
                Action.of("counter", *play),
                label=t("Play {cards}", cards=self.play_label(play)),
                group=tc("group", "Answer"),
                style="primary",
                # In a second-from-top challenge every answer weighs one, a Penny Jar too.
                description=self.weight_note(state, play, single=bool(battle.depth)),
            )
            for play in self.plays(state, hand, battle.asset, battle.need)
        ]
        options.append(option(Action.of("concede"), label=give_up, group=tc("group", "Answer")))
        return Decision(
            key=f"answer-{state.round}-{state.version}",
            seat=seat,
            prompt=prompt,
            options=tuple(options),
            default=Action.of("concede"),
            reaction=True,
            # Whether this side holds an answer is a secret: pinged and waited for alike.
            # Not so for an empty hand (the deck gone), which the table shows: its player is
            # not called on for nothing.
            hides_choice=bool(hand),
        )

    @staticmethod
    def last_play_size(battle: Battle) -> int:
        """How many of the last played cards belong to the last play."""
        last = battle.played[-1][0]
        size = 0
        for seat, _ in reversed(battle.played):
            if seat != last:
                break
            size += 1
        return size

    # --- moves ---------------------------------------------------------------------------
    def challenge(
        self, state: CoverState, seat: int, target: int, play: Play, depth: int, events: list[Event]
    ) -> None:
        hand = state.players[seat].hand
        for card in play:
            take_card(hand, card)
        asset = state.players[target].stack[-1 - depth].asset
        # A second-from-top challenge is answered with single cards, as the rulebook says;
        # anywhere else a lone Penny Jar must be met with two cards or another Penny Jar.
        need = 1 if depth else min(2, self.weight(state, play))
        state.battle = Battle(
            challenger=seat,
            defender=target,
            asset=asset,
            depth=depth,
            played=[(seat, c) for c in play],
            to_answer=target,
            need=need,
        )
        events.append(
            Event(
                text=self.words.challenged(
                    state.names[seat],
                    state.names[target],
                    self.title(asset),
                    self.play_label(play),
                    depth,
                )
            )
        )
        self.settle_if_unanswerable(state, events)

    def counter(self, state: CoverState, seat: int, play: Play, events: list[Event]) -> None:
        battle = state.battle
        assert battle is not None
        for card in play:
            take_card(state.players[seat].hand, card)
        battle.played += [(seat, c) for c in play]
        # "After the challenge is initiated, only one card is played to defend or to continue
        # challenging": in a second-from-top challenge even a Penny Jar is met by one card.
        lone = len(play) == 1 and not battle.depth
        battle.need = min(2, self.weight(state, play)) if lone else 1
        name, cards = state.names[seat], self.play_label(play)
        if seat == battle.defender:
            said = t("{name} defended with {cards}.", name=name, cards=cards)
        else:
            said = self.words.again(name, cards)
        events.append(Event(text=said))
        battle.to_answer = self.other_side(battle, seat)
        self.settle_if_unanswerable(state, events)

    def settle_if_unanswerable(self, state: CoverState, events: list[Event]) -> None:
        """Under the rule of matches stored before ``ask_unanswerable``: a side that holds no
        answer of the weight due cannot respond, and loses at once. Today it is asked, with
        letting go as its lone answer (``answer_decision``)."""
        if state.options.ask_unanswerable:
            return
        battle = state.battle
        assert battle is not None
        if not self.plays(state, state.players[battle.to_answer].hand, battle.asset, battle.need):
            events.append(
                Event(text=t("{name} cannot answer.", name=state.names[battle.to_answer]))
            )
            self.win_battle(state, self.other_side(battle, battle.to_answer), events)

    def concede(self, state: CoverState, seat: int, events: list[Event]) -> None:
        battle = state.battle
        assert battle is not None
        name = state.names[seat]
        said = self.words.let_go(name) if seat == battle.defender else self.words.gave_up(name)
        events.append(Event(text=said))
        self.win_battle(state, self.other_side(battle, seat), events)

    def on_swiped(self, state: CoverState, loser: int) -> None:
        """A hook for rule sets that console a player who lost a set (Crumb Collector)."""

    @staticmethod
    def other_side(battle: Battle, seat: int) -> int:
        return battle.challenger if seat == battle.defender else battle.defender

    def win_battle(self, state: CoverState, winner: int, events: list[Event]) -> None:
        """The winner keeps the set and every card used in the battle, wilds below assets.

        A stolen set goes on top of the winner's stack; a defended one stays where it was.
        """
        battle = state.battle
        assert battle is not None
        played = [card for _, card in battle.played]
        stack = state.players[battle.defender].stack
        if battle.drafted is not None:
            prize, index = self.make_set(*battle.drafted), len(stack)  # not in a stack yet
        else:
            index = len(stack) - 1 - battle.depth
            prize = stack.pop(index)
        prize = self.add_to_set(prize, *played)
        if winner == battle.challenger:
            state.players[winner].stack.append(prize)
            if battle.drafted is None:
                self.on_swiped(state, battle.defender)
            told = self.words.stole if battle.drafted is None else self.words.won
        else:
            stack.insert(index, prize)
            told = self.words.kept
            if battle.challenger == state.turn:
                state.barred.append(battle.defender)  # no second try at them this turn
        # Whoever used cards during another player's turn draws back up after that turn.
        for seat in dict.fromkeys(s for s, _ in battle.played):
            if seat != state.turn and seat not in state.to_draw_after_turn:
                state.to_draw_after_turn.append(seat)
        state.battle = None
        value = sum(self.cards[c].value for c in prize.cards)
        events.append(
            Event(
                text=told(
                    state.names[winner],
                    self.title(prize.asset),
                    len(prize.cards),
                    self.money(value),
                )
            )
        )


def take_card(hand: list[str], card: str) -> None:
    try:
        hand.remove(card)
    except ValueError:
        raise IllegalAction(t("You don't hold that card.")) from None
