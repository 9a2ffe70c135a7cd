"""games.core's shared words in every language: counts, places, lists, the /rules opening,
the level names and the On/Off of a switch, each a whole message of the catalog."""

from __future__ import annotations

from games.core.levels import LEVEL_HINTS, LEVEL_NAMES
from games.core.options import BOOL_LABELS
from games.core.protocol import Outcome
from games.core.text import Names, joined, t
from games.core.translations import PSEUDO, render
from games.core.words import bullets, how_to_play_here, place, points


def test_a_place_reads_as_an_ordinal_in_english_and_as_a_rank_elsewhere() -> None:
    assert [place(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"
    ]  # fmt: skip
    assert render(place(2), "ko") == "2위"
    assert render(place(3), "ja") == "3位"
    assert render(place(21), "pt_BR") == "21º"


def test_points_take_the_plural_of_each_language() -> None:
    assert (
        points(1) == "1 point" and points(2.5) == "2.5 points" and points(3, short=True) == "3 pts"
    )
    assert render(points(1), "es") == "1 punto"
    assert render(points(2.5), "es") == "2,5 puntos"
    assert render(points(2), "ko") == "2점"


def test_the_rules_open_with_how_to_play_here_in_the_readers_language() -> None:
    opening = how_to_play_here(
        t(
            "On your turn pick a move there (form a set, discard, challenge); when your set is "
            "challenged, answer in the same view."
        )
    )
    assert opening.startswith("**How to play here**\n1. Press **Show hand**")
    assert opening.endswith(
        "answer in the same view.\n"
        "3. You are pinged when it is your move; the table shows what everyone may see.\n\n"
    )
    korean = render(opening, "ko")
    assert korean.splitlines()[:2] == [
        "**여기서 하는 법**",
        "1. 테이블에서 **패 보기**를 눌러요: 나만 보는 내 카드와 할 수 있는 수예요.",
    ]
    assert korean.splitlines()[2].startswith("2. 내 차례에 거기서 수를 골라요")


def test_joined_lines_render_each_in_the_language_and_keep_their_layout() -> None:
    lines = bullets([t("It is not your turn."), "Ana_b"])
    assert lines == "• It is not your turn.\n• Ana_b"
    assert render(lines, "ja") == "• あなたの手番ではありません。\n• Ana_b"
    # A name is data: escaped where the edge escapes, never translated nor pseudo'd.
    assert render(lines, PSEUDO, escape=lambda s: s.replace("_", "\\_")).endswith("• Ana\\_b")
    assert render(joined((), " · ")) == ""


def test_a_forfeit_names_who_left_in_the_languages_list() -> None:
    outcome = Outcome.by_forfeit(["Ana", "Ben", "Cleo"], {1, 2})
    assert outcome.reason == "Ben and Cleo forfeited."
    assert render(outcome.reason, "ko") == "Ben 및 Cleo 님이 기권했어요."
    assert render(outcome.reason, PSEUDO).startswith("⟦Ben àñð Cleo")
    assert "and" not in render(outcome.reason, PSEUDO).replace("àñð", "")


def test_levels_and_switches_are_words_of_the_catalog() -> None:
    assert [render(LEVEL_NAMES[level], "ko") for level in ("easy", "normal", "hard")] == [
        "쉬움", "보통", "어려움"
    ]  # fmt: skip
    assert render(LEVEL_HINTS["hard"], "es") == "piensa unas jugadas a futuro; un reto de verdad"
    assert render(BOOL_LABELS[True], "pt_BR") == "Ligado"


def test_a_text_rendered_in_one_language_is_not_given_in_another() -> None:
    """Renderings are kept per language and escape: asking again in another must not
    return the first one."""
    said = t("{names}'s turn.", names=Names(["Ana", "Ben_x"]))
    assert render(said, "ko") == "Ana 및 Ben_x 님의 차례예요."
    assert render(said, "ja") == "Ana、Ben_xさんの手番です。"
    assert (
        render(said, "ko", escape=lambda s: s.replace("_", "\\_"))
        == "Ana 및 Ben\\_x 님의 차례예요."
    )
    assert render(said, "ko") == "Ana 및 Ben_x 님의 차례예요."
    assert render(said) == "Ana and Ben_x's turn."


def test_a_view_keeps_its_out_line_as_a_message() -> None:
    from games.core.views import TableView

    view = TableView.model_validate({"out": t("It is not your turn.")})
    assert render(view.out, "ko") == "내 차례가 아니에요."
    stored = TableView.model_validate_json(view.model_dump_json())
    assert render(stored.out, "ja") == "あなたの手番ではありません。"
