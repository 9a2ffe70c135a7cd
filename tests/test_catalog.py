"""The translation catalogs are complete and agree with the code, in every shipped language."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from devtools.catalog import ROOT, SOURCES, TRANSLATED, extract, problems

KEYWORDS = {"t": 1, "tn": 2, "tc": 2, "tnc": 3}


@pytest.fixture(scope="module")
def entries():
    return extract()


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_is_translated_with_its_placeholders_and_plural_forms(
    code: str, entries
) -> None:
    found = problems(code, entries)
    assert found == [], f"{len(found)} problems in {code}.po:\n" + "\n".join(found[:40])


def test_every_message_is_a_literal_the_extractor_can_read() -> None:
    """t(f"..."), t(name) or t("a" + b) would reach players untranslated: the extractor
    sees only literals."""
    bad: list[str] = []
    for package in SOURCES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text())
            for node in ast.walk(tree):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                    continue
                literals = KEYWORDS.get(node.func.id)
                if literals is None:
                    continue
                args = node.args[:literals]
                if len(args) < literals or not all(
                    isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args
                ):
                    bad.append(f"{Path(path).relative_to(ROOT)}:{node.lineno}")
    assert bad == []
