"""Keep the translation catalogs in step with the code: ``python -m devtools.catalog CMD``.

- ``update``: extract every message from the code and templates, then add the new ones to
  each ``data/locales/<code>.po`` (untranslated) and drop those no longer used.
- ``missing CODE [FILE]``: the messages CODE lacks, as JSON to fill in (``str``: a string,
  or one string per plural form for a plural message).
- ``fill CODE FILE``: take the translations from such a JSON file into the catalog.
- ``check``: what the tests check: every message translated in every language, none fuzzy,
  the same placeholders as the English, one form per plural form, the glossary kept.
- ``merge-driver BASE OURS THEIRS PATH``: git's merge driver for ``*.po`` (see .gitattributes):
  two branches that each translated their own messages merge without a conflict.
"""

from __future__ import annotations

import ast
import json
import re
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

from games.core.text import placeholders
from games.core.translations import LANGUAGES, LOCALES_DIR, PLURAL_FORMS

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("games", "bot", "cogs")
KEYWORDS = {"t": None, "tn": (1, 2), "tc": ((1, "c"), 2), "tnc": ((1, "c"), 2, 3)}
TRANSLATED = tuple(code for code in LANGUAGES if code != "en")


@dataclass(frozen=True)
class Entry:
    id: str
    plural: str | None
    context: str | None

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.context, self.id)


def _python_files() -> Iterator[Path]:
    for package in SOURCES:
        yield from sorted((ROOT / package).rglob("*.py"))


def _template_files() -> Iterator[Path]:
    yield from sorted((ROOT / "bot" / "web" / "templates").glob("*.html"))


def _data_entries() -> Iterator[Entry]:
    """Words that live in data files, not code: the Braverse pool's card names and texts."""
    yield from data_messages()


def data_messages() -> Iterator[Entry]:
    # Each data file that carries words a player reads says which keys are words, and under
    # which context; games.core.cards loads the same keys through the catalog.
    pool = ROOT / "data" / "braverse" / "cards.toml"
    if not pool.exists():
        return
    with pool.open("rb") as handle:
        cards = tomllib.load(handle).get("cards", [])
    for card in cards:
        if isinstance(card.get("name"), str):
            yield Entry(card["name"], None, "card")


# Where each keyword's message, plural and context sit among its arguments.
_SHAPES = {"t": (0, None, None), "tn": (0, 1, None), "tc": (1, None, 0), "tnc": (1, 2, 0)}


def python_messages(path: Path) -> Iterator[tuple[str | tuple[str, str], str | None]]:
    """The messages of ``t``/``tn``/``tc``/``tnc`` calls, read from the syntax tree: a
    local variable called ``t`` (``for t in tables``) is no message, as it is to a
    tokenizer."""
    for node in ast.walk(ast.parse(path.read_text())):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        shape = _SHAPES.get(node.func.id)
        if shape is None:
            continue
        literal = [a.value if isinstance(a, ast.Constant) else None for a in node.args]
        message, plural, context = (
            literal[i] if i is not None and i < len(literal) else None for i in shape
        )
        if not isinstance(message, str):
            continue
        yield ((message, plural) if isinstance(plural, str) else message), context


def extract() -> list[Entry]:
    """Every message in the project, once, in a stable order."""
    found: dict[tuple[str | None, str], Entry] = {}

    def add(message: object, context: str | None) -> None:
        if isinstance(message, tuple):
            singular, plural = message[0], message[1]
        else:
            singular, plural = message, None
        if not singular:
            return
        entry = Entry(singular, plural, context)
        found.setdefault(entry.key, entry)

    for path in _python_files():
        for message, context in python_messages(path):
            add(message, context)
    for path in _template_files():
        for _, message, _, context in extract_from_file(
            "jinja2.ext:babel_extract", path, keywords=KEYWORDS
        ):
            add(message, context)
    for entry in _data_entries():
        found.setdefault(entry.key, entry)
    return sorted(found.values(), key=lambda e: (e.context or "", e.id))


def catalog_path(code: str) -> Path:
    return LOCALES_DIR / f"{code}.po"


def load(code: str) -> Catalog:
    path = catalog_path(code)
    if not path.exists():
        return _new_catalog(code)
    with path.open("rb") as handle:
        return read_po(handle, locale=code)


def _new_catalog(code: str) -> Catalog:
    catalog = Catalog(locale=code, project="Cookie Jar", fuzzy=False)
    _our_plurals(catalog, code)
    return catalog


def _our_plurals(catalog: Catalog, code: str) -> None:
    # Babel would take CLDR's count of plural forms (three for Spanish and Portuguese);
    # the catalogs state gettext's own (PLURAL_FORMS), and every entry has that many.
    catalog._num_plurals = _nplurals(code)
    catalog._plural_expr = PLURAL_FORMS[code].split("plural=", 1)[1].rstrip(";")


def save(code: str, catalog: Catalog, path: Path | None = None) -> None:
    catalog.project = "Cookie Jar"
    catalog.version = "1"
    catalog.fuzzy = False
    _our_plurals(catalog, code)
    catalog.header_comment = (
        f"# Cookie Jar's {code} catalog: one entry a message, its English id and its\n"
        f"# translation. Game terms follow {code}.glossary.toml; docs/translating.md says how."
    )
    catalog.copyright_holder = "Cookie Jar"
    catalog.msgid_bugs_address = ""
    catalog.last_translator = "Cookie Jar"
    catalog.language_team = code
    buffer = BytesIO()
    # Sorted and without source lines: a catalog changes only where its messages change.
    write_po(buffer, catalog, width=0, no_location=True, sort_output=True, ignore_obsolete=True)
    # No creation or revision dates: they would change, and conflict, at every update.
    lines = buffer.getvalue().decode().splitlines(keepends=True)
    dated = ('"POT-Creation-Date:', '"PO-Revision-Date:')
    (path or catalog_path(code)).write_text("".join(x for x in lines if not x.startswith(dated)))


def update() -> None:
    entries = extract()
    wanted = {entry.key: entry for entry in entries}
    for code in TRANSLATED:
        catalog = load(code)
        kept = {(m.context, _msgid(m)): m for m in catalog if m.id}
        fresh = _new_catalog(code)
        for key, entry in wanted.items():
            old = kept.get(key)
            msgid: str | tuple[str, str] = (
                (entry.id, entry.plural) if entry.plural is not None else entry.id
            )
            string: str | tuple[str, ...] = ""
            if old is not None and bool(old.pluralizable) == (entry.plural is not None):
                string = old.string
            elif entry.plural is not None:
                string = ("",) * _nplurals(code)
            fresh[msgid] = Message(msgid, string, context=entry.context)
        save(code, fresh)
    print(f"{len(entries)} messages in {len(TRANSLATED)} catalogs")


def _msgid(message: Message) -> str:
    return message.id[0] if isinstance(message.id, tuple) else message.id


def _nplurals(code: str) -> int:
    return int(PLURAL_FORMS[code].split("nplurals=")[1].split(";")[0])


def missing(code: str) -> list[dict[str, object]]:
    catalog = load(code)
    out: list[dict[str, object]] = []
    for message in catalog:
        if not message.id:
            continue
        empty = not all(message.string) if isinstance(message.string, tuple) else not message.string
        if empty or message.fuzzy:
            row: dict[str, object] = {"id": _msgid(message)}
            if message.context:
                row["ctx"] = message.context
            if isinstance(message.id, tuple):
                row["plural"] = message.id[1]
                row["str"] = [""] * _nplurals(code)
            else:
                row["str"] = ""
            out.append(row)
    return out


def fill(code: str, rows: list[dict[str, object]]) -> int:
    catalog = load(code)
    filled = 0
    for row in rows:
        message = catalog.get(row["id"], context=row.get("ctx"))
        if message is None:
            print(f"not in the catalog (run update?): {row['id']!r}", file=sys.stderr)
            continue
        value = row["str"]
        message.string = tuple(value) if isinstance(value, list) else value
        message.flags.discard("fuzzy")
        filled += 1
    save(code, catalog)
    return filled


def problems(code: str, entries: list[Entry] | None = None) -> list[str]:
    """Every way the catalog of ``code`` falls short, one line each (empty: complete)."""
    entries = extract() if entries is None else entries
    catalog = load(code)
    found: list[str] = []
    header = catalog.mime_headers
    forms = dict(header).get("Plural-Forms", "")
    if forms.replace(" ", "") != PLURAL_FORMS[code].replace(" ", ""):
        found.append(f"{code}: Plural-Forms is {forms!r}, not {PLURAL_FORMS[code]!r}")
    for entry in entries:
        message = catalog.get(entry.id, context=entry.context)
        where = f"{code}: {entry.id!r}" + (f" ({entry.context})" if entry.context else "")
        if message is None:
            found.append(f"{where} is missing")
            continue
        if message.fuzzy:
            found.append(f"{where} is fuzzy")
        sources = [entry.id] if entry.plural is None else [entry.id, entry.plural]
        wanted = set().union(*(placeholders(s) for s in sources))
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if entry.plural is not None and len(strings) != _nplurals(code):
            found.append(f"{where} has {len(strings)} plural forms, not {_nplurals(code)}")
        for string in strings:
            if not string:
                found.append(f"{where} is untranslated")
                break
            try:
                used = placeholders(string)
            except ValueError as error:
                found.append(f"{where}: {error} in {string!r}")
                continue
            # A plural form may leave out {n} ("one card" for 1), never add a placeholder.
            if used - wanted or (entry.plural is None and used != wanted):
                found.append(f"{where}: placeholders {sorted(used)} != {sorted(wanted)}")
    found.extend(glossary_problems(code, catalog))
    return found


def glossary(code: str) -> dict[str, list[str]]:
    """``data/locales/<code>.glossary.toml``: each game term in English and the forms its
    translation may take (a plural, a particle...)."""
    path = LOCALES_DIR / f"{code}.glossary.toml"
    if not path.exists():
        return {}
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    terms: dict[str, list[str]] = {}
    for section in data.values():
        for english, forms in section.items():
            terms[english] = [forms] if isinstance(forms, str) else list(forms)
    return terms


def glossary_problems(code: str, catalog: Catalog) -> list[str]:
    found: list[str] = []
    terms = glossary(code)
    patterns = {
        english: re.compile(rf"(?<![\w{{]){re.escape(english)}(?![\w}}])") for english in terms
    }
    for message in catalog:
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for english, pattern in patterns.items():
            if not any(pattern.search(i) for i in ids):
                continue
            if not all(any(form in s for form in terms[english]) for s in strings if s):
                found.append(
                    f"{code}: {_msgid(message)!r} should say {english!r} as one of {terms[english]}"
                )
    return found


def merge_driver(base: str, ours: str, theirs: str, path: str) -> int:
    """Union of two catalogs: each side's translations kept; where both translated one
    message differently, ours wins (the branch being merged into). ``path`` is the
    catalog's own path (git hands the sides over in temporary files)."""
    code = Path(path).stem
    with open(ours, "rb") as handle:
        mine = read_po(handle, locale=code)
    with open(theirs, "rb") as handle:
        other = read_po(handle, locale=code)
    for message in other:
        if not message.id:
            continue
        have = mine.get(message.id, context=message.context)
        if have is None:
            mine[message.id] = message
            continue
        empty = not all(have.string) if isinstance(have.string, tuple) else not have.string
        if empty or have.fuzzy:
            have.string = message.string
            have.flags = set(message.flags)
    save(code, mine, Path(ours))
    return 0


def main(argv: list[str]) -> int:
    command, *args = argv or ["check"]
    if command == "update":
        update()
        return 0
    if command == "missing":
        rows = missing(args[0])
        text = json.dumps(rows, ensure_ascii=False, indent=1)
        if len(args) > 1:
            Path(args[1]).write_text(text)
            print(f"{len(rows)} messages to translate into {args[0]} written to {args[1]}")
        else:
            print(text)
        return 0
    if command == "fill":
        rows = json.loads(Path(args[1]).read_text())
        print(f"{fill(args[0], rows)} messages filled in {args[0]}")
        return 0
    if command == "check":
        entries = extract()
        found = [line for code in TRANSLATED for line in problems(code, entries)]
        print("\n".join(found) or f"{len(entries)} messages, every catalog complete")
        return 1 if found else 0
    if command == "merge-driver":
        return merge_driver(*args[:4])
    print(__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
