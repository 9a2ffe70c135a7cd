"""The sentences that differ between the two Cover games, each a message of its own.

Cover Your Assets forms sets, challenges and counts dollars; Cover Your Cookies starts
Batches, swipes and counts Dough. A translation words each game's sentence its own way, so
neither is glued from the other's words: every sentence that names a set or a challenge is
here twice, once per game (``CookiesWords`` overrides each of ``AssetsWords``' methods that
says set, challenge, asset or wild).

Arguments: names are plain strings (a player's own), cards and money are Texts.
"""

from __future__ import annotations

from games.core.text import Text, t, tc, tn


class AssetsWords:
    """Cover Your Assets' words."""

    # --- a turn ---------------------------------------------------------------------------
    def turn(self) -> Text:
        return t("Your turn: form a set, challenge a top set, or discard.")

    def form_group(self) -> Text:
        """The hand's heading for the moves that lay down a set."""
        return t("Form a set")

    def challenge_group(self) -> Text:
        return tc("group", "Challenge")

    def pair(self, high: str, low: str) -> Text:
        return t("Set: {card} + {other}", card=high, other=low)

    def take(self, card: str, top: str) -> Text:
        return t("Set: {card} + discard {top}", card=card, top=top)

    def improve(self, card: str) -> Text:
        return t("Improve your top set with {card}", card=card)

    def formed(self, how: str, name: str, cards: str) -> Text:
        """A set laid down: from the hand (``how`` ""), or with the discard's top card."""
        if how == "discard":
            return t("{name} formed a set with the discard: {cards}.", name=name, cards=cards)
        return t("{name} formed a set: {cards}.", name=name, cards=cards)

    def sets(self, n: int) -> Text:
        return tn("{n} set", "{n} sets", n=n)

    def no_sets_yet(self) -> Text:
        return t("*no sets yet*")

    def no_sets(self) -> Text:
        return t("no sets")

    def under_it(self, n: int) -> Text:
        return tn("{n} set under it", "{n} sets under it", n=n)

    def first_safe(self) -> Text:
        return t("its first set: safe")

    def stack_footer(self, money: str, n: int) -> Text:
        return tn(
            "Your stack: {money} in {n} set", "Your stack: {money} in {n} sets", n=n, money=money
        )

    def stack_short(self, money: str, n: int) -> Text:
        return tn("Your stack {money} · {n} set", "Your stack {money} · {n} sets", n=n, money=money)

    # --- why a move is refused ---------------------------------------------------------
    def pair_rule(self) -> Text:
        return t("A set is two identical assets, or an asset and a wild, never two wilds.")

    def need_own_set(self) -> Text:
        return t("You must form at least one set of your own before you can challenge.")

    def challenge_rule(self) -> Text:
        return t("You can only challenge a top set that is not the bottom set, with a match.")

    def under_way(self) -> Text:
        return t("A challenge is under way: answer it first.")

    # --- a challenge ---------------------------------------------------------------------
    def challenge_option(self, name: str, asset: str, cards: str, depth: int) -> Text:
        if depth:
            return t(
                "Challenge {name}'s {asset} (second from top) with {cards}",
                name=name,
                asset=asset,
                cards=cards,
            )
        return t("Challenge {name}'s {asset} with {cards}", name=name, asset=asset, cards=cards)

    def defend_prompt(self, name: str, asset: str, cards: str, two: bool) -> Text:
        if two:
            return t(
                "{name} challenges your {asset} set with {cards}. Defend it (two cards, or a "
                "Penny Jar), or let it go?",
                name=name,
                asset=asset,
                cards=cards,
            )
        return t(
            "{name} challenges your {asset} set with {cards}. Defend it, or let it go?",
            name=name,
            asset=asset,
            cards=cards,
        )

    def again_prompt(self, name: str, asset: str, cards: str, two: bool) -> Text:
        if two:
            return t(
                "{name} defended the {asset} set with {cards}. Challenge again (two cards, or a "
                "Penny Jar), or give up?",
                name=name,
                asset=asset,
                cards=cards,
            )
        return t(
            "{name} defended the {asset} set with {cards}. Challenge again, or give up?",
            name=name,
            asset=asset,
            cards=cards,
        )

    def challenged(self, name: str, target: str, asset: str, cards: str, depth: int) -> Text:
        if depth:
            return t(
                "⚔️ {name} challenged {target}'s {asset} set (second from top) with {cards}.",
                name=name,
                target=target,
                asset=asset,
                cards=cards,
            )
        return t(
            "⚔️ {name} challenged {target}'s {asset} set with {cards}.",
            name=name,
            target=target,
            asset=asset,
            cards=cards,
        )

    def again(self, name: str, cards: str) -> Text:
        return t("{name} challenged again with {cards}.", name=name, cards=cards)

    def let_go(self, name: str) -> Text:
        return t("{name} let the set go.", name=name)

    def gave_up(self, name: str) -> Text:
        return t("{name} gave up the challenge.", name=name)

    def stole(self, name: str, asset: str, cards: int, money: str) -> Text:
        return tn(
            "{name} stole the {asset} set ({n} card, {money}).",
            "{name} stole the {asset} set ({n} cards, {money}).",
            n=cards,
            name=name,
            asset=asset,
            money=money,
        )

    def won(self, name: str, asset: str, cards: int, money: str) -> Text:
        """A freshly drafted set won in its challenge (two and three players)."""
        return tn(
            "{name} won the {asset} set ({n} card, {money}).",
            "{name} won the {asset} set ({n} cards, {money}).",
            n=cards,
            name=name,
            asset=asset,
            money=money,
        )

    def kept(self, name: str, asset: str, cards: int, money: str) -> Text:
        return tn(
            "{name} kept the {asset} set ({n} card, {money}).",
            "{name} kept the {asset} set ({n} cards, {money}).",
            n=cards,
            name=name,
            asset=asset,
            money=money,
        )

    # --- the table -----------------------------------------------------------------------
    def challenging(self, challenger: str, defender: str, asset: str, where: str) -> Text:
        """The table's headline during a challenge; ``where``: "", "second" or "drafted"."""
        if where == "second":
            return t(
                "{challenger} is challenging {defender}'s {asset} set (second from top).",
                challenger=challenger,
                defender=defender,
                asset=asset,
            )
        if where == "drafted":
            return t(
                "{challenger} is challenging {defender}'s {asset} set (just drafted).",
                challenger=challenger,
                defender=defender,
                asset=asset,
            )
        return t(
            "{challenger} is challenging {defender}'s {asset} set.",
            challenger=challenger,
            defender=defender,
            asset=asset,
        )

    def waiting_for(self, name: str, two: bool) -> Text:
        if two:
            return t("Waiting for {name} (two cards, or a Penny Jar).", name=name)
        return t("Waiting for {name}.", name=name)

    def battle_title(self, challenger: str, defender: str, asset: str) -> Text:
        return t(
            "{challenger} vs {defender} for the {asset} set",
            challenger=challenger,
            defender=defender,
            asset=asset,
        )

    def challenging_tag(self) -> Text:
        return tc("ribbon", "CHALLENGING")

    def asset_kind(self) -> Text:
        """What a card picture says an asset is."""
        return tc("card kind", "Asset")

    def action_kind(self) -> Text:
        return tc("card kind", "Action")


class CookiesWords(AssetsWords):
    """Cover Your Cookies' words: Batches, swipes, Cookies and Milks, Mixers."""

    def turn(self) -> Text:
        return t("Your turn: start a Batch, swipe a top Batch, or discard.")

    def form_group(self) -> Text:
        return t("Start a Batch")

    def challenge_group(self) -> Text:
        return tc("group", "Swipe")

    def pair(self, high: str, low: str) -> Text:
        return t("Batch: {card} + {other}", card=high, other=low)

    def take(self, card: str, top: str) -> Text:
        return t("Batch: {card} + discard {top}", card=card, top=top)

    def improve(self, card: str) -> Text:
        return t("Add {card} to your top Batch", card=card)

    def formed(self, how: str, name: str, cards: str) -> Text:
        if how == "discard":
            return t("{name} started a Batch with the discard: {cards}.", name=name, cards=cards)
        if how == "single":
            return t(
                "{name} started a Batch with a single Cookie: {cards}.", name=name, cards=cards
            )
        if how == "row":
            return t("{name} started a Batch from the row: {cards}.", name=name, cards=cards)
        return t("{name} started a Batch: {cards}.", name=name, cards=cards)

    def sets(self, n: int) -> Text:
        return tn("{n} Batch", "{n} Batches", n=n)

    def no_sets_yet(self) -> Text:
        return t("*no Batches yet*")

    def no_sets(self) -> Text:
        return t("no Batches")

    def under_it(self, n: int) -> Text:
        return tn("{n} Batch under it", "{n} Batches under it", n=n)

    def first_safe(self) -> Text:
        return t("its first Batch: safe")

    def stack_footer(self, money: str, n: int) -> Text:
        return tn(
            "Your stack: {money} in {n} Batch",
            "Your stack: {money} in {n} Batches",
            n=n,
            money=money,
        )

    def stack_short(self, money: str, n: int) -> Text:
        return tn(
            "Your stack {money} · {n} Batch", "Your stack {money} · {n} Batches", n=n, money=money
        )

    def pair_rule(self) -> Text:
        return t("A Batch is two identical Cookies, or a Cookie and a Milk, never two Milks.")

    def need_own_set(self) -> Text:
        return t("You must start at least one Batch of your own before you can swipe.")

    def challenge_rule(self) -> Text:
        return t("You can only swipe a top Batch that is not the bottom Batch, with a match.")

    def under_way(self) -> Text:
        return t("A swipe is under way: answer it first.")

    def challenge_option(self, name: str, asset: str, cards: str, depth: int) -> Text:
        # Cover Your Cookies has no second-from-top swipe.
        return t("Swipe {name}'s {asset} with {cards}", name=name, asset=asset, cards=cards)

    def defend_prompt(self, name: str, asset: str, cards: str, two: bool) -> Text:
        if two:
            return t(
                "{name} swipes your {asset} Batch with {cards}. Defend it (two cards, or a "
                "Chocolate Milk), or let it go?",
                name=name,
                asset=asset,
                cards=cards,
            )
        return t(
            "{name} swipes your {asset} Batch with {cards}. Defend it, or let it go?",
            name=name,
            asset=asset,
            cards=cards,
        )

    def again_prompt(self, name: str, asset: str, cards: str, two: bool) -> Text:
        if two:
            return t(
                "{name} defended the {asset} Batch with {cards}. Swipe again (two cards, or a "
                "Chocolate Milk), or give up?",
                name=name,
                asset=asset,
                cards=cards,
            )
        return t(
            "{name} defended the {asset} Batch with {cards}. Swipe again, or give up?",
            name=name,
            asset=asset,
            cards=cards,
        )

    def challenged(self, name: str, target: str, asset: str, cards: str, depth: int) -> Text:
        # The attempt, not the take: "Dev swiped Cleo's Batch" then "Cleo kept the Batch"
        # read as a contradiction; the rulebook says "attempt to swipe".
        return t(
            "⚔️ {name} tried to swipe {target}'s {asset} Batch with {cards}.",
            name=name,
            target=target,
            asset=asset,
            cards=cards,
        )

    def again(self, name: str, cards: str) -> Text:
        return t("{name} tried to swipe again with {cards}.", name=name, cards=cards)

    def let_go(self, name: str) -> Text:
        return t("{name} let the Batch go.", name=name)

    def gave_up(self, name: str) -> Text:
        return t("{name} gave up the swipe.", name=name)

    def stole(self, name: str, asset: str, cards: int, money: str) -> Text:
        return tn(
            "{name} swiped the {asset} Batch ({n} card, {money}).",
            "{name} swiped the {asset} Batch ({n} cards, {money}).",
            n=cards,
            name=name,
            asset=asset,
            money=money,
        )

    def won(self, name: str, asset: str, cards: int, money: str) -> Text:
        return self.stole(name, asset, cards, money)  # no drafts in Cover Your Cookies

    def kept(self, name: str, asset: str, cards: int, money: str) -> Text:
        return tn(
            "{name} kept the {asset} Batch ({n} card, {money}).",
            "{name} kept the {asset} Batch ({n} cards, {money}).",
            n=cards,
            name=name,
            asset=asset,
            money=money,
        )

    def challenging(self, challenger: str, defender: str, asset: str, where: str) -> Text:
        return t(
            "{challenger} is swiping {defender}'s {asset} Batch.",
            challenger=challenger,
            defender=defender,
            asset=asset,
        )

    def waiting_for(self, name: str, two: bool) -> Text:
        if two:
            return t("Waiting for {name} (two cards, or a Chocolate Milk).", name=name)
        return t("Waiting for {name}.", name=name)

    def battle_title(self, challenger: str, defender: str, asset: str) -> Text:
        return t(
            "{challenger} vs {defender} for the {asset} Batch",
            challenger=challenger,
            defender=defender,
            asset=asset,
        )

    def challenging_tag(self) -> Text:
        return tc("ribbon", "SWIPING")

    def asset_kind(self) -> Text:
        return tc("card kind", "Cookie")

    def action_kind(self) -> Text:
        return tc("card kind", "Mixer")
