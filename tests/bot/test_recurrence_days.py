"""Weekdays as organisers type them in every language we ship (CLDR's names, by Babel),
and a schedule's days named back in the reader's language."""

from __future__ import annotations

import pytest

from bot.errors import UserError
from bot.recurrence import days_text, parse_days
from games.core.text import Text
from games.core.translations import PSEUDO, render


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("fri", "4"),
        ("Friday", "4"),
        ("mon, thu", "0,3"),
        ("thurs", "3"),
        # Korean: whole names, one-syllable ones, run together as people write them.
        ("금요일", "4"),
        ("월, 목", "0,3"),
        ("월수금", "0,2,4"),
        ("월요일과 목요일", "0,3"),
        ("토·일", "5,6"),
        # Japanese: kanji names, 曜 without 日, the ideographic comma, 月水金.
        ("金曜日", "4"),
        ("月曜、木曜", "0,3"),
        ("月水金", "0,2,4"),
        ("月曜日と木曜日", "0,3"),
        # Spanish: any case, accents optional.
        ("Viernes", "4"),
        ("miércoles", "2"),
        ("miercoles", "2"),
        ("lunes y jueves", "0,3"),
        ("SÁB, dom", "5,6"),
        # Brazilian Portuguese: the long names, the short ones and CLDR's abbreviations.
        ("sexta-feira", "4"),
        ("segunda e quinta", "0,3"),
        ("terça", "1"),
        ("terca", "1"),
        ("sáb., dom.", "5,6"),
        ("2027-01-15", "2027-01-15"),
    ],
)
def test_days_are_read_in_every_language(typed: str, stored: str) -> None:
    assert parse_days(typed) == stored


@pytest.mark.parametrize("typed", ["someday", "", "m", "월욜", "月と火曜x", "lunes o", "fri, 2027"])
def test_what_names_no_day_is_refused_in_one_sentence(typed: str) -> None:
    with pytest.raises(UserError) as refused:
        parse_days(typed)
    for language in ("en", "ko", "ja", "es", "pt_BR"):
        said = render(refused.value.text, language)
        assert "2027-01-15" in said and "\n" not in said
    # The examples are days in the reader's own words.
    assert "`금요일`" in render(refused.value.text, "ko")
    assert "`viernes`" in render(refused.value.text, "es")
    assert "`Friday`" in render(refused.value.text, "en")


def test_a_schedules_days_are_named_in_the_readers_language() -> None:
    days = days_text("0,3,4")
    assert days == "every Monday, Thursday and Friday"
    assert render(days, "ko") == "매주 월요일, 목요일 및 금요일"
    assert render(days, "ja") == "毎週月曜日、木曜日、金曜日"
    assert render(days, "es") == "cada lunes, jueves y viernes"
    assert render(days, "pt_BR") == "segunda-feira, quinta-feira e sexta-feira, toda semana"
    assert "Monday" not in render(days, PSEUDO) and "Ṁöñðàý" in render(days, PSEUDO)
    # Kept as data: stored, read back, still the days.
    assert render(Text.from_data(days.data()), "es") == "cada lunes, jueves y viernes"
    assert render(days_text("2027-01-15"), "es") == "el 2027-01-15"
