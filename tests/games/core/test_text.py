"""Text, the catalogs and the pseudo-locale: a message rendered in each reader's language."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest
from pydantic import BaseModel

from games.core.text import Names, Num, Text, Words, placeholders, plain, t, tc, tn
from games.core.translations import (
    LANGUAGES,
    PLURAL_FORMS,
    catalog,
    language_for,
    pseudo,
    read_catalog,
    render,
    render_in,
)

PO = """\
msgid ""
msgstr ""
"Language: {code}\\n"
"Content-Type: text/plain; charset=utf-8\\n"
"Plural-Forms: {forms}\\n"

msgid "{{name}} draws a card."
msgid_plural "{{name}} draws {{n}} cards."
msgstr[0] "{one}"
msgstr[1] "{other}"

msgctxt "card"
msgid "Gold"
msgstr "{gold}"

msgid "{{who}} cover {{card}}."
msgstr "{cover}"

#, fuzzy
msgid "Pass."
msgstr "{fuzzy}"
"""


def book(tmp_path: Path, code: str, **strings: str):
    path = tmp_path / f"{code}.po"
    path.write_text(PO.format(code=code, forms=PLURAL_FORMS[code], **strings))
    return read_catalog(code, path)


@pytest.fixture
def portuguese(tmp_path: Path):
    return book(
        tmp_path,
        "pt_BR",
        one="{name} compra uma carta.",
        other="{name} compra {n} cartas.",
        gold="Ouro",
        cover="{card}: {who} cobrem.",
        fuzzy="Passe (fuzzy).",
    )


def test_a_text_is_its_english_and_keeps_its_message_and_arguments() -> None:
    line = tn("{name} draws a card.", "{name} draws {n} cards.", n=3, name="Ana")
    assert line == "Ana draws 3 cards."
    assert (line.msgid, line.plural, dict(line.args)) == (
        "{name} draws a card.",
        "{name} draws {n} cards.",
        {"n": 3, "name": "Ana"},
    )
    assert tn("{name} draws a card.", "{name} draws {n} cards.", n=1, name="Ana") == (
        "Ana draws a card."
    )


def test_plural_forms_follow_the_language_rule(portuguese) -> None:
    def draws(n: int) -> str:
        line = tn("{name} draws a card.", "{name} draws {n} cards.", n=n, name="Ana")
        return render_in(portuguese, line)

    # Brazilian Portuguese counts 0 and 1 alike (n > 1 is the plural), unlike English.
    assert draws(0) == "Ana compra uma carta."
    assert draws(1) == "Ana compra uma carta."
    assert draws(2) == "Ana compra 2 cartas."


def test_word_order_belongs_to_the_translation_and_nested_texts_translate(portuguese) -> None:
    line = t("{who} cover {card}.", who=Names(["Ana", "Ben", "Cleo"]), card=tc("card", "Gold"))
    assert line == "Ana, Ben and Cleo cover Gold."
    assert render_in(portuguese, line) == "Ouro: Ana, Ben e Cleo cobrem."


def test_a_fuzzy_or_missing_entry_falls_back_to_english(portuguese) -> None:
    assert render_in(portuguese, t("Pass.")) == "Pass."
    assert render_in(portuguese, t("Not in the catalog.")) == "Not in the catalog."


def test_a_text_shown_again_is_read_from_its_memo_without_the_catalog(monkeypatch) -> None:
    """A card's name or a button is rendered at move after move: in any language, the
    second time costs no catalog (a move in Korean cost 5 % more than in English)."""
    import games.core.translations as translations

    asked: list[str] = []

    def counted(code: str):  # type: ignore[no-untyped-def]
        asked.append(code)
        return catalog(code)

    monkeypatch.setattr(translations, "catalog", counted)
    button = tc("button", "Refresh")
    first = render(button, "ko")
    assert render(button, "ko") == first != "Refresh" and asked == ["ko"]
    assert render(button, "ja") != first and asked == ["ko", "ja"]  # each language apart
    escaped = render(button, "ko", str.upper)  # an escape is a rendering of its own
    assert render(button, "ko", str.upper) == escaped and asked == ["ko", "ja", "ko"]


def test_names_are_data_escaped_only_where_shown(portuguese) -> None:
    def stars(text: str) -> str:
        return text.replace("_", "\\_").replace("*", "\\*")

    line = t("{who} cover {card}.", who=Names(["dark_knight", "*Ana*"]), card=tc("card", "Gold"))
    assert render_in(portuguese, line, stars) == "Ouro: dark\\_knight e \\*Ana\\* cobrem."
    assert render(line, "en", stars) == "dark\\_knight and \\*Ana\\* cover Gold."
    assert render(line, "en") == "dark_knight and *Ana* cover Gold."  # a picture draws this
    assert render(plain("<img src=x>"), "ko", lambda s: s.replace("<", "&lt;")) == "&lt;img src=x>"


def test_numbers_and_lists_take_the_language_forms() -> None:
    line = t("{points} points for {who}", points=Num(1500.5), who=Names(["Ana", "Ben", "Cleo"]))
    assert line == "1,500.5 points for Ana, Ben and Cleo"
    spanish = render_in(catalog("es"), line)
    assert spanish.startswith("1.500,5 ") and spanish.endswith("Ana, Ben y Cleo")
    assert render_in(catalog("ja"), t("{who}", who=Names(["Ana", "Ben", "Cleo"]))) == (
        "Ana、Ben、Cleo"
    )
    assert t("{n}", n=2.5) == "2.5" and render_in(catalog("pt_BR"), t("{n}", n=2.5)) == "2,5"
    assert t("#{id}", id=12345) == "#12345"  # ids and years take no separator


def test_pseudo_is_accented_longer_bracketed_and_keeps_placeholders_and_markdown() -> None:
    out = pseudo("**Show hand** on the table: {n} cards <t:1700000000:R> `code` 🍪")
    assert out.startswith("⟦**") and out.endswith("⟧")
    assert "{n}" in out and "<t:1700000000:R>" in out and "`code`" in out and "🍪" in out
    assert not re.search(r"[A-Za-z]{2,}", re.sub(r"\{n\}|<t:[^>]+>|`code`", "", out))
    english = "Choose the card you keep for the next round"
    assert len(pseudo(english)) >= 1.35 * len(english)
    line = tn("{name} draws a card.", "{name} draws {n} cards.", n=2, name="Ana")
    assert render(line, "pseudo") == "⟦Ana ðŕàŵš 2 çàŕðš. ····⟧"


def test_a_text_survives_the_database_and_a_process_boundary() -> None:
    class Line(BaseModel):
        text: Words
        older: tuple[Words, ...] = ()

    line = t("{who} cover {card}.", who=Names(["Ana", "Ben"]), card=tc("card", "Gold"))
    kept = Line.model_validate_json(Line(text=line, older=("an old line",)).model_dump_json())
    assert isinstance(kept.text, Text) and kept.text.data() == line.data()
    assert kept.text == "Ana and Ben cover Gold."
    assert kept.older == ("an old line",) and type(kept.older[0]) is str
    crossed = pickle.loads(pickle.dumps(line))
    assert isinstance(crossed, Text) and crossed.data() == line.data()


def test_a_discord_locale_maps_to_a_shipped_language() -> None:
    assert [language_for(x) for x in ("ko", "ja", "es-ES", "es-419", "pt-BR", "en-US")] == [
        "ko",
        "ja",
        "es",
        "es",
        "pt_BR",
        "en",
    ]
    assert language_for("fr") == "en" and language_for(None) == "en"
    assert language_for("pseudo") == "pseudo"
    assert set(LANGUAGES) == {"en", *PLURAL_FORMS}


def test_placeholders_are_named() -> None:
    assert placeholders("{name} draws {n} cards.") == {"name", "n"}


def test_joined_lines_each_speak_the_language_and_survive_storage(portuguese) -> None:
    from games.core.text import joined

    block = joined([t("{who} cover {card}.", who=Names(["Ana"]), card=tc("card", "Gold")), "x_y"])
    assert block == "Ana cover Gold.\nx_y"
    assert render_in(portuguese, block, lambda s: s.replace("_", "\\_")) == (
        "Ouro: Ana cobrem.\nx\\_y"
    )
    assert Text.from_data(block.data()).data() == block.data()


def test_a_texts_json_form_is_made_once_and_its_copies_are_itself() -> None:
    """A state is written after every move with its whole log: each line's JSON form is
    made the first time and kept (a Text never changes), and a copy of the state shares
    its Texts instead of rebuilding them."""
    import copy

    from games.core.text import Names, Text, plain, t

    line = t(
        "{who} steals {cards} from {whom}.", who=plain("Ana"), cards=Names([t("Gold")]), whom="Ben"
    )
    first = line.data()
    assert first == {
        "t": "{who} steals {cards} from {whom}.",
        "a": {"who": {"t": None, "a": {"": "Ana"}}, "cards": {"l": [{"t": "Gold"}]}, "whom": "Ben"},
    }
    assert line.data() is first
    assert copy.deepcopy(line) is line and copy.copy(line) is line
    assert copy.deepcopy({"log": [line]})["log"][0] is line
    again = Text.from_data(first)
    assert again == line and again.data() == first
