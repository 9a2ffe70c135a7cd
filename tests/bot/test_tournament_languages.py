"""An event's public posts speak the server's language and a click's answer the clicker's:
the sign-up, the standings, a round's pairings and the log are rendered from Texts, the
names in them as written; an organiser's refusal keeps its role mention whole."""

from __future__ import annotations

import pytest

from bot.errors import UserError
from bot.service import MatchService
from bot.service.tournaments import TournamentConfig, Tournaments
from cogs.speech import say
from cogs.tournaments.buttons import my_standing, pairings_message, signup_buttons
from cogs.tournaments.embeds import log_line, signup_embed, standings_embed
from games.core.translations import PSEUDO
from tests.bot.conftest import ANA, BEN, MOD

pytestmark = pytest.mark.parametrize("backend", ["sqlite"])  # no store code changed


@pytest.fixture
def events(service: MatchService) -> Tournaments:
    return Tournaments(service)


async def started(events: Tournaments) -> str:
    event = await events.create(
        guild_id=1,
        channel_id=77,
        organiser=MOD,
        game_key="cover_your_assets",
        config=TournamentConfig(pace="async", format="swiss", rounds=3),
    )
    for who in (ANA, BEN):
        await events.join(event.tournament_id, who)
    await events.add_bot(event.tournament_id, MOD)
    return event.tournament_id


async def test_the_sign_up_reads_in_korean_with_the_names_as_written(
    events: Tournaments,
) -> None:
    tid = await started(events)
    view = await events.view(tid)
    embed = signup_embed(view, "ko")
    assert embed.title == "🏆 Cover Your Assets 토너먼트"
    assert "참가 신청 중이에요. **참가**를 누르세요." in (embed.description or "")
    assert f"**주최자:** <@{MOD.user_id}>" in (embed.description or "")
    assert embed.fields[0].name == "참가자 (3/64)"
    assert ANA.name in embed.fields[0].value
    buttons = signup_buttons(view, "ko")
    assert buttons is not None
    assert buttons.children[0].item.label == "참가"  # type: ignore[attr-defined]
    # English stays as it was
    assert "Sign-up is open: press **Join**." in (signup_embed(view).description or "")


async def test_the_pairings_standings_and_log_leave_no_english_in_pseudo(
    events: Tournaments,
) -> None:
    tid = await started(events)
    await events.start(tid, MOD)
    view = await events.view(tid)
    embed, _ = pairings_message(view, 1, 0, None, PSEUDO)
    assert "Round" not in (embed.title or "") and "pairings" not in (embed.title or "")
    assert "Each table" not in (embed.footer.text or "")
    standings = standings_embed(view, 1, final=False, during=True, language=PSEUDO)
    assert "standings" not in (standings.title or "")
    rows = await events.store.audit(tid)
    said = [say(log_line(row), PSEUDO) for row in rows]
    assert said and not any("the tournament" in line for line in said)
    mine = say(await my_standing(events, tid, ANA.user_id), "es")
    assert mine.startswith("📊 Vas **#")


async def test_a_refusal_is_one_sentence_with_the_organiser_role_as_a_mention(
    service: MatchService, events: Tournaments
) -> None:
    tid = await started(events)
    await service.set_guild_defaults(1, MOD, {"organiser_role": 555})
    with pytest.raises(UserError) as refused:
        await events.start(tid, ANA)
    assert say(refused.value.text, "ja") == (
        "トーナメントを開始できるのは、主催者かサーバー管理権限か<@&555>ロールを持つ人だけです。"
    )
    assert str(refused.value.text) == (
        "Only the organiser or someone with Manage Server or the <@&555> role "
        "can start the tournament."
    )
