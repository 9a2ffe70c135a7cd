"""Korean particles after a name read right whether it ends in a vowel or a consonant."""

from __future__ import annotations

import pytest

from games.core.korean import particles
from games.core.text import t
from games.core.translations import catalog, render


@pytest.mark.parametrize(
    ("name", "subject", "object_", "topic", "towards"),
    [
        ("김철수", "김철수가", "김철수를", "김철수는", "김철수로"),
        ("민준", "민준이", "민준을", "민준은", "민준으로"),
        ("Ana", "Ana가", "Ana를", "Ana는", "Ana로"),
        ("Ben", "Ben이", "Ben을", "Ben은", "Ben으로"),
        ("서울", "서울이", "서울을", "서울은", "서울로"),  # ㄹ takes 로
        ("Player 2", "Player 2가", "Player 2를", "Player 2는", "Player 2로"),
        # A sound we cannot tell: both forms stay, as a Korean app writes them.
        ("田中太郎", "田中太郎이(가)", "田中太郎을(를)", "田中太郎은(는)", "田中太郎(으)로"),
    ],
)
def test_each_particle_follows_how_the_name_ends(name, subject, object_, topic, towards) -> None:
    def said(template: str) -> str:
        return particles(template, {"name": name}).format(name=name)

    assert said("{name}이(가) 와요.") == f"{subject} 와요."
    assert said("{name}을(를) 골라요.") == f"{object_} 골라요."
    assert said("{name}은(는) 쉬어요.") == f"{topic} 쉬어요."
    assert said("**{name}**(으)로 해요.") == f"**{name}**{towards[len(name) :]} 해요."


def test_with_and_copula_particles() -> None:
    assert particles("{a}와(과) {b}", {"a": "민준", "b": "x"}) == "{a}과 {b}"
    assert particles("{a}와(과) {b}", {"a": "김철수", "b": "x"}) == "{a}와 {b}"
    assert particles("**{a}**(이)라는 덱", {"a": "민준"}) == "**{a}**이라는 덱"
    assert particles("**{a}**(이)라는 덱", {"a": "Ana"}) == "**{a}**라는 덱"


def test_the_catalogs_sentences_choose_their_particles_as_rendered() -> None:
    ends = t("{player} ends their turn.", player="김철수")
    assert "이(가)" in str(catalog("ko").messages[(None, "{player} ends their turn.")])
    assert render(ends, "ko").startswith("김철수가 ")
    assert render(t("{player} ends their turn.", player="민준"), "ko").startswith("민준이 ")
    assert render(t("{player} ends their turn.", player="Ana"), "ko").startswith("Ana가 ")
    # Other languages' parentheses are left alone.
    assert render(ends, "ja") == render(ends, "ja").replace("이", "")
