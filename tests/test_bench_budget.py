"""What the load bench counts against Discord's budget (bench/budget.py): the log lines it
tallies, when a lobby turned into its table, how workers' figures add up, and the command
line each worker of ``--processes`` gets."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace

from bench import budget
from bench.owed import Owed
from devtools.offline_discord import FakeDiscord, FakeMessage


def record(name: str, message: str, level: int = logging.WARNING) -> logging.LogRecord:
    return logging.LogRecord(name, level, __file__, 1, message, (), None)


def test_the_tally_counts_429_warnings_and_messages_given_up_not_other_warnings() -> None:
    tally = budget.LogTally()
    for name, message in [
        ("discord.http", "We are being rate limited. POST /x responded with 429. Retrying"),
        ("discord.http", "Global rate limit has been hit. Retrying in 0.5 seconds."),
        ("cogs.table.pings", "could not ping in channel 5"),
        ("cogs.table.notices", "could not post the end of match abc"),
        ("cogs.table.presenter", "gave up on the table of match abc: 429"),
        ("cogs.table.posting", "the table edit failed (503); trying again in 1.0 s"),
        ("bot.service", "could not ping, said someone else"),
    ]:
        tally.emit(record(name, message))
    assert tally.rate_limited == 1 and tally.global_hits == 1
    assert tally.lost == {"could not ping": 1, "could not post": 1, "gave up on": 1}
    assert len(tally.samples) == 2  # examples of what was lost: pings and results
    tally.clear()
    assert tally.rate_limited == 0 and not tally.lost and not tally.samples


def lobby(fake: FakeDiscord, channel_id: int, *, started: bool) -> FakeMessage:
    custom_id = "cj:do:x" if started else "cj:lobby:abc:start"
    row = {"type": 1, "components": [{"type": 2, "custom_id": custom_id, "label": "x"}]}
    message = FakeMessage(
        id=fake._new_id(),
        channel_id=channel_id,
        author_id=fake.bot_user.id,
        embeds=[{"title": "started" if started else "lobby"}],
        components=[row],
    )
    return message


def test_a_lobby_counts_as_turned_when_its_message_shows_the_table() -> None:
    fake = FakeDiscord(rate_limits=None)
    channel = fake.add_channel("t").id
    waiting = lobby(fake, channel, started=False)
    tables = {channel: waiting.id}
    watch = budget.TableWatch(fake, tables)
    watch.start_pressed(channel)
    watch.shown(waiting)  # still the lobby
    other = lobby(fake, channel, started=True)
    watch.shown(other)  # another message of the channel: not its table
    assert len(watch.lobby_to_table.values) == 0
    turned = lobby(fake, channel, started=True)
    turned.id = waiting.id
    watch.shown(turned)
    assert len(watch.lobby_to_table.values) == 1 and watch.never_turned == 0
    assert watch.said[channel][0] == budget.saying(turned.embeds)
    watch.start_pressed(channel)
    watch.stop()  # never turned before the run ended: counted, as too slow
    assert len(watch.lobby_to_table.values) == 2 and watch.never_turned == 1


def figures(**changed: object) -> budget.BudgetFigures:
    values: dict[str, object] = dict(
        game="toss_your_cookies",
        moves=100,
        budgeted=90,
        free=300,
        by_route={"patch_message": 60, "post_message": 30},
        refused=2,
        refused_by={"global POST": 2},
        warned=2,
        lost=0,
        lost_samples=[],
        lobby_p50=0.1,
        lobby_max=0.5,
        lobby_over=0,
        lobby_count=10,
        newest_max=2.0,
        newest_over=0,
        newest_count=10,
        failed=0,
        answer_p50=0.01,
        answer_p99=0.2,
        answer_max=0.4,
        target=1.5,
    )
    values.update(changed)
    return budget.BudgetFigures(**values)  # type: ignore[arg-type]


def test_two_workers_figures_add_up_to_one_applications() -> None:
    one = figures()
    two = figures(moves=50, budgeted=70, by_route={"patch_message": 70}, answer_max=1.5)
    both = budget.merged([budget.BudgetFigures.load(f.dump()) for f in (one, two)])
    assert both.moves == 150 and both.budgeted == 160 and both.processes == 2
    assert both.by_route == {"patch_message": 130, "post_message": 30}
    assert both.answer_max == 1.5 and both.lobby_count == 20
    assert round(both.budgeted_per_move, 3) == round(160 / 150, 3)


def test_each_worker_gets_the_command_line_without_the_parents_share() -> None:
    argv = ["--channels", "30", "--processes=2", "--pace", "human", "--budget", "10"]
    assert list(budget._without(argv, "--processes", "--channels")) == [
        "--pace",
        "human",
        "--budget",
        "10",
    ]


def test_the_options_read_the_command_line() -> None:
    import argparse

    parser = argparse.ArgumentParser()
    budget.add_arguments(parser)
    options = budget.options_from(parser.parse_args(["--budget", "off", "--pace", "human"]))
    assert options.per_second is None and options.rate_limits() is None and options.human
    limited = budget.options_from(parser.parse_args(["--budget", "10", "--match-pace", "live"]))
    limits = limited.rate_limits()
    assert limits is not None and limits.per_second == 10 and limited.target() == 1.0
    assert options.table_tokens
    assert not budget.options_from(parser.parse_args(["--table-tokens", "off"])).table_tokens


def test_the_games_table_says_which_game_is_over_its_target() -> None:
    within = figures(moves=100, budgeted=120, target=1.5)
    over = figures(game="cover_your_assets", moves=100, budgeted=160, target=1.5)
    lines = budget.games_table([within, over]).splitlines()
    assert lines[0].endswith("budget")
    assert lines[1].endswith("within") and lines[2].endswith("OVER")


def test_the_tally_counts_429_warnings_from_webhooks_and_the_bots_own_count() -> None:
    tally = budget.LogTally()
    for name, message in [
        ("discord.webhook.async_", "Webhook ID 1 is rate limited. Retrying in 0.50 seconds."),
        ("bot.outbox", "Discord refused 12 requests (429) in the last 60 s; each was tried"),
        ("bot.outbox", "something else"),
    ]:
        tally.emit(record(name, message))
    assert tally.rate_limited == 1 and tally.refusals_said == 1


def said(fake: FakeDiscord, channel_id: int, content: str, custom_id: str = "") -> FakeMessage:
    row = {"type": 1, "components": [{"type": 2, "custom_id": custom_id, "label": "x"}]}
    return FakeMessage(
        id=fake._new_id(),
        channel_id=channel_id,
        author_id=fake.bot_user.id,
        content=content,
        components=[row] if custom_id else [],
    )


def test_a_ping_is_delivered_by_a_message_in_its_channel_mentioning_its_people() -> None:
    fake = FakeDiscord(rate_limits=None)
    here, there = fake.add_channel("a").id, fake.add_channel("b").id
    owed = Owed()
    assert owed.expect(here, {7}) is None  # before the run: not counted
    owed.counting = True
    assert owed.expect(here, set()) is None  # nobody to mention: not a ping
    first = owed.expect(here, {7, 8})
    second = owed.expect(here, {9})
    assert first is not None and second is not None
    owed.seen(said(fake, there, "<@7>, your move"))  # another channel
    owed.seen(said(fake, here, "<@5>, your move"))  # someone else
    assert owed.pings_delivered == 0 and owed.pings_queued == 2
    owed.seen(said(fake, here, "🎯 <@8>, your move"))
    assert first.delivered and not second.delivered and owed.pings_delivered == 1
    second.returned = True  # the bot is done with it, and Discord never had it
    assert owed.pings_lost == 1 and owed.pings_queued == 0 and owed.pings_owed == 2


def test_a_result_is_delivered_by_a_new_message_with_its_rematch_button() -> None:
    fake = FakeDiscord(rate_limits=None)
    channel = fake.add_channel("a").id
    owed = Owed()
    owed.counting = True
    for match_id in ("m1", "m2"):
        change = SimpleNamespace(kind="finished", match=SimpleNamespace(match_id=match_id))
        asyncio.run(owed.listen(change))  # type: ignore[arg-type]
    asyncio.run(owed.listen(SimpleNamespace(kind="action", match=None)))  # type: ignore[arg-type]
    owed.posted(said(fake, channel, "won", "cj:rematch:m1"))
    owed.posted(said(fake, channel, "ping", "cj:hand:m2"))
    assert owed.results_owed == {"m1", "m2"} and owed.results_lost == 1


def test_what_was_owed_and_not_delivered_is_missing_and_adds_up_over_workers() -> None:
    one = figures(pings_owed=10, pings_delivered=9, pings_queued=1, results_owed=2)
    two = figures(pings_owed=5, pings_delivered=5, results_owed=3, results_delivered=3, errors=1)
    both = budget.merged([one, two])
    assert (both.pings_owed, both.pings_delivered, both.pings_queued) == (15, 14, 1)
    assert both.missing == 1 + 2 and both.errors == 1
    assert budget.games_table([both]).splitlines()[1].split()[-6:-4] == ["3", "0"]
    assert budget.games_table([both]).splitlines()[1].split()[-2] == "1"


def test_the_histogram_counts_the_answers_over_a_limit() -> None:
    from bench.load import Histogram

    answers = Histogram(step=1e-3)
    for seconds in (0.2, 2.9, 3.0, 3.5, 60.0):
        answers.add(seconds)
    assert answers.over(3.0) == 2


def test_rss_growth_after_the_first_minute_sets_the_caches_filling_apart() -> None:
    from bench.load import growth_after_minute

    rss = [100.0, 110.0, 125.0, 150.0]  # 30-second windows: the first minute ends at 110
    caches = [(1.0, 2.0), (4.0, 2.0), (20.0, 3.0), (32.0, 3.0)]
    growth, filled, kept = growth_after_minute(rss, caches)
    assert growth == 40.0 and filled == 29.0 and kept[0] == (4.0, 2.0)
    assert growth_after_minute(rss[:1], caches[:1])[:2] == (0.0, 0.0)


def test_the_bot_is_told_the_budget_and_how_many_processes_share_it() -> None:
    import argparse

    from bot.config import Settings

    parser = argparse.ArgumentParser()
    budget.add_arguments(parser)
    worker = budget.options_from(parser.parse_args(["--budget", "10", "--sharing", "2"]))
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        discord_token="fake-token",
        **worker.bot_settings(),
    )
    assert settings.request_share == 5.0
    assert "process 1 of 2" in worker.describe()
    assert budget.options_from(parser.parse_args(["--budget", "off"])).bot_settings() == {}


def test_a_failed_click_says_why() -> None:
    from bench.load import why_failed

    assert why_failed(None, None).startswith("no first answer")
    assert why_failed(0.2, None).startswith("acknowledged, never answered")
    assert why_failed(0.2, 0.3).startswith("answered, but")


def test_a_worker_plays_its_share_without_a_baseline_of_its_own() -> None:
    argv = ["--channels", "300", "--processes", "2", "--baseline", "30", "--budget", "10"]
    options = budget.BudgetOptions(10.0, processes=2)
    first, second = budget.worker_argvs(argv, options, 301, "ledger.json")
    assert first[:2] == ["--budget", "10"] and "30" not in first
    for number, argv_of in enumerate((first, second)):
        pairs = dict(zip(argv_of[::2], argv_of[1::2], strict=True))
        assert pairs["--baseline"] == "0" and pairs["--processes"] == "1"
        assert pairs["--sharing"] == "2" and pairs["--worker"] == str(number)
    assert (first[first.index("--channels") + 1], second[second.index("--channels") + 1]) == (
        "151",
        "150",
    )
