"""The structure drawing has no import circle: every arrow between the project's modules
points one way, type-checking imports included (.importlinter names which ways)."""

from __future__ import annotations

import grimp
import networkx as nx

PACKAGES = ("bot", "cogs", "games", "bench", "devtools")


def test_no_module_imports_itself_in_a_circle() -> None:
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    arrows = nx.DiGraph()
    for module in graph.modules:
        arrows.add_node(module)
        arrows.add_edges_from(
            (module, imported) for imported in graph.find_modules_directly_imported_by(module)
        )
    circles = [
        sorted(found) for found in nx.strongly_connected_components(arrows) if len(found) > 1
    ]
    assert circles == [], "modules that import each other, around a circle: " + "; ".join(
        " ".join(circle) for circle in circles
    )
