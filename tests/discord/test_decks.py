"""Decks through the real discord.py code: /deck, the lobby's Choose deck, /play deck:,
and /card."""

from __future__ import annotations

import re

from bot.service.decks import MOST_DECKS
from games import GAMES
from games.braverse.decks import ready_decks
from tests.discord.conftest import make_bot, table_of

RUSH = list(ready_decks()["rush"].cards)
FORT = list(ready_decks()["fort"].cards)
TEMPO = list(ready_decks()["tempo"].cards)

# Line 7 names no card; 58 cards are read, 49 of them FLIP, five Fern Shamans.
BROKEN = """# Too many FLIPs
4 S1-003 Spark Tumbler
4x S1-007
x4 S1-009
Sunny Scribe x4
4 golden herald
S9-999

Cookies:
4 S1-024
4 S1-033
5 S1-036
4 S1-039
4 S1-048
4 S1-051
4 S1-054
4 S1-001
4 S1-002
1 S1-004
"""


async def import_deck(fake, user, name: str, text: str):  # type: ignore[no-untyped-def]
    await fake.slash(user, "deck import", name=name)
    modal = fake.last_modal(user)
    assert modal.title == "Import a deck"
    await fake.submit_modal(user, {"deck:name": name, "deck:cards": text})
    return fake.last_reply(user)


async def test_import_reports_every_problem_at_once_and_saves_a_draft(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        reply = await import_deck(fake, ana, "Flippy", BROKEN)
        assert reply.ephemeral
        text = reply.text()
        assert "Saved Flippy as a draft" in text
        for sentence in (
            "Line 7: 'S9-999' is not a card here.",
            "The deck has 58 cards; it needs exactly 60.",
            "S1-036 Fern Shaman: 5 copies; at most 4 of one card number.",
            "49 FLIP cards; at most 16.",
        ):
            assert f"• {sentence}" in text, sentence
        reply = await import_deck(fake, ana, "Only Items", "4 S1-010\n4 S1-011\n")
        assert "• No Cookie card; a deck needs at least one." in reply.text()
        assert "• The deck has 8 cards; it needs exactly 60." in reply.text()
        decks = await bot.service.decks(ana.id)
        assert [d.name for d in decks] == ["Flippy", "Only Items"]
        await fake.slash(ana, "deck list")
        listed = fake.last_reply(ana).text()
        assert "**Flippy** · 📝 draft (58 cards): cannot be played yet" in listed
        assert "2/25 decks" in listed
        # Nothing readable: nothing saved, and the reason.
        await fake.slash(ana, "deck import", name="Junk")
        await fake.submit_modal(ana, {"deck:cards": "hello world\n"})
        said = fake.last_reply(ana).text()
        assert said.startswith("No line of that text names a card here, so nothing was saved")
        assert "Line 1: 'hello world' is not a card here." in said
        assert len(await bot.service.decks(ana.id)) == 2
    fake.assert_clean()


async def test_copy_export_and_import_round_trip_then_delete(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        await fake.slash(ana, "deck copy", source="Y+G Fort", name="My Fort")
        assert "Saved **My Fort** (60 cards)" in fake.last_reply(ana).text()
        await fake.slash(ana, "deck export", name="my fort")
        exported = fake.last_reply(ana).text()
        listing = re.search(r"```\n(.*)```", exported, re.DOTALL)
        assert listing is not None and "# Cookies" in listing.group(1)
        reply = await import_deck(fake, ana, "Fort Again", listing.group(1))
        assert "💾 Saved Fort Again" in reply.text() and "ready to play" in reply.text()
        again = await bot.service.deck(ana.id, "Fort Again")
        assert sorted(again.cards) == sorted(FORT)
        await fake.slash(ana, "deck show", name="Fort Again")
        shown = fake.last_reply(ana).text()
        assert "✅ Ready to play · 60 cards" in shown and "Oakheart Warden" in shown
        await fake.slash(ana, "deck delete", name="MY FORT")
        assert fake.last_reply(ana).text() == "🗑️ Deleted **My Fort**."
        await fake.slash(ana, "deck delete", name="My Fort")
        assert "You have no deck called 'My Fort'" in fake.last_reply(ana).text()
        assert [d.name for d in await bot.service.decks(ana.id)] == ["Fort Again"]
        choices = await fake.autocomplete(ana, "deck show", "name", "fort")
        assert [c["name"] for c in choices] == ["Y+G Fort (ready deck)", "Fort Again"]
    fake.assert_clean()


async def test_an_import_form_opened_before_a_restart_still_saves(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)):
        await fake.slash(ana, "deck import", name="Later")
    async with fake.running(make_bot(db)) as bot:
        await fake.submit_modal(ana, {"deck:cards": "\n".join(RUSH)})
        assert "💾 Saved Later" in fake.last_reply(ana).text()
        assert (await bot.service.deck(ana.id, "later")).cards == RUSH
    fake.assert_clean()


async def test_a_player_keeps_at_most_twenty_five_decks(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        for n in range(MOST_DECKS):
            await bot.service.save_deck(ana.id, "braverse", f"Deck {n}", RUSH)
        await fake.slash(ana, "deck copy", source="rush", name="Twenty-six")
        reply = fake.last_reply(ana)
        assert reply.ephemeral
        assert reply.text() == (
            "You already have 25 decks, the most one player may keep. "
            "Delete one with /deck delete first."
        )
        await fake.slash(ana, "deck copy", source="rush", name="x" * 33)
        assert "at most 32 characters" in fake.last_reply(ana).text()
    fake.assert_clean()


async def test_decks_follow_their_owner_to_another_server(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        await fake.slash(ana, "deck copy", source="tempo", name="Travel")
    other = type(fake)(guild_name="Another Guild")
    other_ana = other.add_user("ana")
    other_ana.id = ana.id  # the same Discord user on another server
    async with other.running(make_bot(db)) as bot:
        await other.slash(other_ana, "deck list")
        assert "**Travel**" in other.last_reply(other_ana).text()
        assert (await bot.service.deck(ana.id, "travel")).cards == TEMPO
    other.assert_clean()


async def test_lobby_choose_deck_a_draft_refused_at_start_then_a_ready_one(fake, db) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await import_deck(fake, ben, "Half", "4 S1-001\n")
        await fake.slash(ben, "deck copy", source="fort", name="Ben Fort")
        await fake.slash(ana, "play", game="braverse")
        lobby = table_of(fake)
        # Nobody chose: the lobby says which ready deck each seat plays.
        assert "1. Ana · host · R+Y Rush (ready deck, none chosen)" in lobby.text()
        picker = next(s for s in lobby.selects() if s["custom_id"].startswith("cj:seatpick:"))
        assert picker["placeholder"] == "Choose deck (for your own seat)"
        await fake.select(ben, lobby, picker["custom_id"], ["mine"])
        assert fake.last_reply(ben).text() == "Press **Join** first, then choose your deck."
        await fake.click(ben, lobby, lobby.find_button("Join"))
        assert "2. Ben · B+G Tempo (ready deck, none chosen)" in table_of(fake).text()
        await fake.select(ben, table_of(fake), picker["custom_id"], ["mine"])
        private = fake.last_reply(ben)
        assert private.ephemeral
        mine = next(s for s in private.selects() if s["custom_id"].startswith("cj:mypick:"))
        labels = [o["label"] for o in mine["options"]]
        assert labels == ["Ben Fort", "Half (draft: cannot be played)"]
        await fake.select(ben, private, mine["custom_id"], ["mine:Half"])
        said = fake.last_reply(ben).text()
        assert said.startswith("You play **Half** at this table. It is a draft")
        assert "• The deck has 4 cards; it needs exactly 60." in said
        assert "2. Ben · deck 'Half'" in table_of(fake).text()
        await fake.click(ana, table_of(fake), table_of(fake).find_button("Start"))
        refused = fake.last_reply(ana)
        assert refused.ephemeral
        assert refused.text().startswith("Ben's deck 'Half' is a draft and cannot be played:")
        assert "· lobby" in table_of(fake).text()
        # A ready deck from the public select, and the host's own pick: Start works.
        await fake.select(ana, table_of(fake), picker["custom_id"], ["fort"])
        await fake.select(ben, table_of(fake), picker["custom_id"], ["tempo"])
        assert "1. Ana · host · Y+G Fort" in table_of(fake).text()
        await fake.click(ana, table_of(fake), table_of(fake).find_button("Start"))
        record = await bot.service.store.open_in_channel(fake.general.id)
        options = GAMES["braverse"].load_options(record.options)
        assert record.status == "active"
        assert [list(d) for d in options.decks] == [FORT, TEMPO]
    fake.assert_clean()


async def test_play_with_a_deck_and_with_no_set_up_at_all(fake, db) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await fake.slash(ana, "deck copy", source="fort", name="Walls")
        offered = await fake.autocomplete(ana, "play", "deck", "", game="braverse")
        assert [c["name"] for c in offered] == [
            "R+Y Rush (ready deck)",
            "B+G Tempo (ready deck)",
            "Y+G Fort (ready deck)",
            "Walls",
        ]
        await fake.slash(ana, "play", game="cover_your_assets", deck="Walls")
        assert "is played without decks" in fake.last_reply(ana).text()
        await fake.slash(ana, "play", game="braverse", deck="Nope")
        assert "There is no deck called 'Nope'" in fake.last_reply(ana).text()
        assert await bot.service.store.open_in_channel(fake.general.id) is None
        await fake.slash(ana, "play", game="braverse", deck="walls")
        lobby = table_of(fake)
        assert "1. Ana · host · deck 'Walls'" in lobby.text()
        await fake.click(ben, lobby, lobby.find_button("Join"))
        await fake.click(ana, lobby, lobby.find_button("Start"))
        record = await bot.service.store.open_in_channel(fake.general.id)
        options = GAMES["braverse"].load_options(record.options)
        assert [list(d) for d in options.decks] == [FORT, TEMPO]
    fake.assert_clean()


async def test_card_looks_a_card_up_by_number_or_name(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)):
        await fake.slash(ana, "card", name="S1-052")
        shown = fake.last_reply(ana)
        assert shown.ephemeral
        assert "S1-052 Ripple Sage — Cookie · Blue · LV2 · HP 3" in shown.text()
        assert "When attacked (1 Blue, rest this): The attack deals 1 less damage." in shown.text()
        await fake.slash(ana, "card", name="flare juggler")
        assert "FLIP (1 Red): Deal 2 damage to an opponent's Cookie." in fake.last_reply(ana).text()
        await fake.slash(ana, "card", name="Dragon")
        assert fake.last_reply(ana).text().startswith("No card called 'Dragon'.")
        offered = await fake.autocomplete(ana, "card", "name", "ripple")
        assert offered == [{"name": "S1-052 Ripple Sage", "value": "S1-052"}]
        # A typo: the names it is close to are offered and named, never guessed for.
        await fake.slash(ana, "card", name="Embr Pup")
        said = fake.last_reply(ana).text()
        assert said == "No card called 'Embr Pup'. Did you mean S1-002 Ember Pup?"
        offered = await fake.autocomplete(ana, "card", "name", "embr pup")
        assert offered == [{"name": "S1-002 Ember Pup", "value": "S1-002"}]
    fake.assert_clean()


async def test_play_with_a_draft_of_ones_own_says_at_once_it_cannot_start(fake, db) -> None:
    """As the lobby's own deck select does: the host hears now, privately, what keeps
    their pick from Start, instead of at Start with everyone waiting."""
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)):
        await import_deck(fake, ana, "Tiny", "4 S1-001\n")
        await fake.slash(ana, "play", game="braverse", deck="Tiny")
        assert "1. Ana · host · deck 'Tiny'" in table_of(fake).text()
        said = fake.last_reply(ana)
        assert said.ephemeral
        assert said.text().startswith("You play **Tiny** at this table. It is a draft")
        assert "• The deck has 4 cards; it needs exactly 60." in said.text()
        # A legal deck of one's own is said plainly.
        await fake.slash(ana, "cancel")
        await fake.slash(ana, "deck copy", source="fort", name="Ana Fort")
        await fake.slash(ana, "play", game="braverse", deck="Ana Fort")
        assert fake.last_reply(ana).text() == "You play **Ana Fort** at this table."
    fake.assert_clean()


async def test_a_draft_keeps_a_lobby_open_and_each_refusal_says_who_can_fix_it(fake, db) -> None:
    """/play deck: with a draft and bots for every seat told the host twice, the second
    time of "Ana's deck" as of someone else; Start refused for a guest's draft told the
    host to "pick another", which only the guest can."""
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)):
        await import_deck(fake, ana, "Tiny", "4 S1-001\n")
        before = len(fake.ephemerals(ana))
        await fake.slash(ana, "play", game="braverse", deck="Tiny", bots=1)
        said = [m.text() for m in fake.ephemerals(ana)[before:]]
        assert said == [
            "You play **Tiny** at this table. It is a draft, so the match cannot start with "
            "it until it is fixed:\n• The deck has 4 cards; it needs exactly 60.\n"
            "Fix it with /deck import under the same name, or pick another with "
            "**Choose deck**."
        ]
        assert "· lobby" in table_of(fake).text()  # still open, nothing started
        await fake.click(ana, table_of(fake), table_of(fake).find_button("Start"))
        assert fake.last_reply(ana).text() == (
            "Your deck 'Tiny' is a draft and cannot be played: The deck has 4 cards; it "
            "needs exactly 60. Pick another with **Choose deck**, or fix it with /deck import."
        )
        await fake.slash(ana, "cancel")
        # A guest's draft: the host hears who can fix it.
        await import_deck(fake, ben, "Half", "4 S1-001\n")
        await fake.slash(ana, "play", game="braverse")
        lobby = fake.public_messages(fake.general)[-1]
        await fake.click(ben, lobby, lobby.find_button("Join"))
        picker = next(s for s in lobby.selects() if s["custom_id"].startswith("cj:seatpick:"))
        await fake.select(ben, lobby, picker["custom_id"], ["mine"])
        private = fake.last_reply(ben)
        await fake.select(ben, private, private.selects()[0]["custom_id"], ["mine:Half"])
        await fake.click(ana, lobby, lobby.find_button("Start"))
        assert fake.last_reply(ana).text() == (
            "Ben's deck 'Half' is a draft and cannot be played: The deck has 4 cards; it "
            "needs exactly 60. Ben can pick another with **Choose deck**, or fix it with "
            "/deck import."
        )
    fake.assert_clean()


async def test_an_import_report_keeps_the_decks_own_problems_and_says_how_to_go_on(
    fake, db
) -> None:
    """A paste of many lines that name no card buried the deck's own problems under a
    clipped wall of 'Line N' bullets; a paste of none said only that nothing named a card,
    run on in one paragraph, and not how to write one."""
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)):
        pasted = "\n".join(f"1 Official Card {i}" for i in range(1, 41)) + "\n4 S1-001\n"
        text = (await import_deck(fake, ana, "Mixed", pasted)).text()
        assert "• Line 10: 'Official Card 10' is not a card here." in text
        assert "Line 11:" not in text
        assert "• …and 30 more lines that name no card." in text
        assert "• The deck has 4 cards; it needs exactly 60." in text
        assert "…" not in text.replace("…and 30", "")  # nothing clipped
        await fake.slash(ana, "deck import", name="Nothing")
        await fake.submit_modal(ana, {"deck:cards": "\n".join(f"junk{i}" for i in range(12))})
        assert fake.last_reply(ana).text() == (
            "No line of that text names a card here, so nothing was saved:\n"
            + "".join(f"• Line {i + 1}: 'junk{i}' is not a card here.\n" for i in range(10))
            + "• …and 2 more lines that name no card.\n"
            "Write one line per card, as /deck export prints them; /deck copy starts a deck "
            "from a ready one instead."
        )
        await fake.slash(ana, "deck import", name="Blank")
        await fake.submit_modal(ana, {"deck:cards": " \n \n"})
        assert fake.last_reply(ana).text() == (
            "No line of that text names a card here, so nothing was saved.\n"
            "Write one line per card, as /deck export prints them; /deck copy starts a deck "
            "from a ready one instead."
        )
    fake.assert_clean()


async def test_copy_never_overwrites_a_deck_of_the_same_name(fake, db) -> None:
    """/deck copy onto a name already taken replaced that deck without a word, and the
    edits in it were gone; /deck import is the one way to replace a deck, and says so."""
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        await import_deck(fake, ana, "Mine", "\n".join(FORT))
        await fake.slash(ana, "deck copy", source="R+Y Rush", name="mine")
        assert fake.last_reply(ana).text() == (
            "You already have a deck called **Mine**. Give the copy another name, or "
            "/deck delete Mine first."
        )
        assert (await bot.service.deck(ana.id, "Mine")).cards == FORT
    fake.assert_clean()


async def test_a_ready_decks_name_mistyped_or_deleted_gets_a_way_on(fake, db) -> None:
    """A typo of a ready deck's name, or /deck delete of a ready deck, said only "You have
    no deck called …": a newcomer with no deck of their own was sent to an empty list."""
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)):
        await fake.slash(ana, "deck copy", source="R+Y Rsh", name="Mine")
        assert fake.last_reply(ana).text() == (
            "There is no deck called 'R+Y Rsh': the ready decks are R+Y Rush, B+G Tempo and "
            "Y+G Fort; /deck list shows your own."
        )
        await fake.slash(ana, "deck delete", name="r+y rush")
        assert fake.last_reply(ana).text() == (
            "R+Y Rush is a ready deck: it stays for everyone. /deck delete removes one of "
            "your own (/deck list shows them)."
        )
    fake.assert_clean()


async def test_a_deck_cannot_take_a_ready_decks_name(fake, db) -> None:
    """A deck of one's own called "R+Y Rush" was saved, then never found by name: /deck
    show, /deck export and /play deck: all read that name as the ready deck."""
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        await fake.slash(ana, "deck copy", source="R+Y Rush", name="r+y rush")
        assert fake.last_reply(ana).text() == (
            "'r+y rush' is taken by the ready deck R+Y Rush: give yours another name."
        )
        await fake.slash(ana, "deck import", name="Tempo")
        await fake.submit_modal(ana, {"deck:cards": "\n".join(TEMPO)})
        assert fake.last_reply(ana).text() == (
            "'Tempo' is taken by the ready deck B+G Tempo: give yours another name."
        )
        assert await bot.service.decks(ana.id) == []
    fake.assert_clean()


def test_the_import_forms_example_reads_as_a_list_in_every_language() -> None:
    """The form's example is in the reader's language, and is a list the importer reads."""
    from cogs.decks import example_list
    from games.braverse.cards import braverse_pool
    from games.braverse.decks import parse_deck
    from games.core.translations import SELECTABLE

    for language in SELECTABLE:
        parsed = parse_deck(example_list(language), braverse_pool())
        assert not parsed.unknown and len(parsed.cards) == 11, (language, parsed)
    assert "불씨 정찰병" in example_list("ko")
