"""Named layers (issue 24 item 4), checked on the source: no import cycle among the modules of ``bot/``,
``cogs/`` and ``render/``, and no module outside ``bot/games/`` naming a game.

**Import graph.** Every ``import`` and ``from ... import`` counts, inside functions too (a deferred import
is still a dependency, and hiding one is how a cycle survives), except under ``if TYPE_CHECKING:`` (types
only, never run). ``from a import b`` where ``a.b`` is a module is an edge to ``a.b``; otherwise to ``a``.
A strongly connected component of more than one module is a cycle, and the test names its modules.

**Names of games.** The platform (``bot/core``, ``bot/discord_app``, ``bot/tools``, ``bot/web``, the other
modules directly under ``bot/``, ``cogs/``, ``render/``) reads every per-game fact from the registered
manifests, so none of its *code* names a game: no identifier (a variable, function, class, argument,
attribute or imported module) and no string literal holds a word that is a game's key, one of its string
domains or arena variants, or one of the names in :data:`GAME_WORDS`. Words are cut at anything that is
not a letter or digit and at lower-to-upper case changes (``GodstormBot`` is ``godstormbot``, ``godstorm``
and ``bot``; ``godstorm_dm_board`` holds ``godstorm``). The rule: *comments and docstrings may name a game
as an example* ("a Godstorm set-up round"), because they explain; code may not, because it decides. A
docstring is a string standing alone as a statement (a module's, class's, function's, or the one after
an assignment that documents it).
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from bot.games import registry
from bot.games.manifest import BENCH_FIGURES, Bench
from tests.toygame import MANIFEST as TOY

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("bot", "cogs", "render")

ALLOWED_CYCLES: tuple[frozenset[str], ...] = ()
"""Cycles tolerated while other work is in progress (a component passes only when all its modules lie
inside one entry), each with a comment naming whose it is. Empty: the last ones (``sessions <-> bots``,
Godstorm's text modules and ``game <-> view``) are gone; keep it so."""

GAME_WORDS = frozenset({"pobeda", "coldwar", "godstorm", "byallmeans", "bam", "risk", "classic", "toygame"})
"""Names of the games as code would spell them, besides what the manifests declare (``classic`` and
``risk`` are Godstorm's classic ruleset)."""


# ---- the import graph --------------------------------------------------------------------------------
def module_files(root: Path = ROOT) -> dict[str, Path]:
    """Every module of :data:`PACKAGES` by its dotted name (a package by its own name)."""
    out: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _run_time_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node, but none under ``if TYPE_CHECKING:`` (its ``else`` branch does run)."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def imports_of(name: str, source: str, modules: Iterable[str], is_package: bool = False) -> set[str]:
    """The modules among ``modules`` that module ``name`` (of text ``source``) imports at run time."""
    known = set(modules)

    def resolve(target: str) -> str | None:
        while target and target not in known:
            target = target.rpartition(".")[0]
        return target or None

    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _run_time_nodes(ast.parse(source)):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - (node.level - 1)] if package else []
                base = ".".join([*anchor, *([base] if base else [])])
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        for target in targets:
            resolved = resolve(target)
            if resolved is not None and resolved != name:
                found.add(resolved)
    return found


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    files = module_files(root)
    return {name: imports_of(name, path.read_text(encoding="utf-8"), files, path.name == "__init__.py")
            for name, path in files.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            advanced = False
            for succ in successors:
                if succ not in graph:
                    continue
                if succ not in index:
                    index[succ] = low[succ] = counter
                    counter += 1
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph[succ]))))
                    advanced = True
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _allowed(component: list[str]) -> bool:
    return any(set(component) <= allowed for allowed in ALLOWED_CYCLES)


def test_no_import_cycle() -> None:
    graph = import_graph()
    assert len(graph) > 100 and "bot.core.sessions" in graph["bot.discord_app.app"] | {
        m for deps in graph.values() for m in deps}
    bad = [" <-> ".join(component) for component in cycles(graph) if not _allowed(component)]
    assert not bad, "import cycles: " + "; ".join(bad)


def test_the_import_graph_sees_every_form() -> None:
    """The cycle check would pass vacuously if the parser missed an import form."""
    modules = {"pkg", "pkg.a", "pkg.b", "pkg.c", "pkg.d", "pkg.e"}
    source = ("import pkg.b\nfrom pkg import c\nfrom . import d\nfrom typing import TYPE_CHECKING\n"
              "if TYPE_CHECKING:\n    import pkg.e\nelse:\n    pass\ndef f() -> None:\n    from pkg.a import thing\n")
    assert imports_of("pkg.x", source, modules | {"pkg.x"}) == {"pkg.b", "pkg.c", "pkg.d", "pkg.a"}
    assert imports_of("pkg", "from .a import thing\n", modules, is_package=True) == {"pkg.a"}
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_the_allow_list_only_names_modules_that_exist() -> None:
    files = module_files()
    for allowed in ALLOWED_CYCLES:
        assert allowed <= set(files), sorted(allowed - set(files))


# ---- games named outside bot/games/ ---------------------------------------------------------------------
def platform_files(root: Path = ROOT) -> list[Path]:
    games = root / "bot" / "games"
    files = [p for package in PACKAGES for p in sorted((root / package).rglob("*.py"))]
    return [p for p in files if games not in p.parents]


def game_words() -> frozenset[str]:
    words = set(GAME_WORDS)
    for manifest in [*registry.manifests(), TOY]:
        words.add(manifest.key)
        words.update(manifest.domains())
        words.update(manifest.arena)
    return frozenset(w.lower() for w in words)


def words_of(text: str) -> set[str]:
    """``text``'s words: cut at non-alphanumerics, and also at lower-to-upper case changes."""
    out = {w.lower() for w in re.split(r"[^A-Za-z0-9]+", text) if w}
    out |= {w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+", text)}
    return out


def _documentation(tree: ast.AST) -> set[int]:
    """The ids of the string constants that stand alone as statements (docstrings)."""
    return {id(node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)}


def _names(node: ast.AST) -> list[str]:
    """The identifiers and module names ``node`` itself introduces or uses."""
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, ast.keyword) and node.arg:
        return [node.arg]
    if isinstance(node, ast.alias):
        return [node.name, *([node.asname] if node.asname else [])]
    if isinstance(node, ast.ImportFrom) and node.module:
        return [node.module]
    return []


def games_named(source: str, words: frozenset[str]) -> list[tuple[int, str]]:
    """``(line, what)`` for each identifier or string literal of ``source`` holding one of ``words``."""
    tree = ast.parse(source)
    docs = _documentation(tree)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        texts = _names(node)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            texts = [node.value]
        for text in texts:
            if words_of(text) & words:
                found.append((line, text if len(text) < 60 else text[:57] + "..."))
    return found


def test_no_platform_module_names_a_game() -> None:
    files = platform_files()
    assert len(files) > 60 and not any(p.name == "manifest.py" for p in files)
    words = game_words()
    assert {"pobeda", "godstorm", "bam", TOY.key} <= words
    named = [f"{path.relative_to(ROOT)}:{line} {what!r}"
             for path in files for line, what in games_named(path.read_text(encoding="utf-8"), words)]
    assert not named, "\n".join(named)


def test_every_declared_measurement_is_one_the_bench_makes() -> None:
    """What replaced the games' names in the benchmarks: a manifest asks for measurements by name
    (:data:`bot.games.manifest.BENCH_FIGURES`); each name is one the tools look up, and no other is accepted."""
    tools = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "bot" / "tools").glob("bench*.py"))
    for figure in BENCH_FIGURES:
        assert f'"{figure}"' in tools, figure
    declared = {f for manifest in registry.manifests() for f in manifest.bench.figures}
    assert declared <= BENCH_FIGURES
    with pytest.raises(ValueError, match="unknown bench figures"):
        Bench(figures=frozenset({"platform", "pobeda_only"}))


@pytest.mark.parametrize(("source", "expected"), [
    ('x = "pobeda"\n', [(1, "pobeda")]),
    ('x = f"{k}_godstorm_dm_board"\n', [(1, "_godstorm_dm_board")]),
    ("from bot.games.coldwar.ai import ColdWarBot\n", [(1, "bot.games.coldwar.ai")]),
    ("def bench_byallmeans(bam_state: int) -> None:\n    pass\n", [(1, "bench_byallmeans"), (1, "bam_state")]),
    ("class GodstormBot:\n    pass\n", [(1, "GodstormBot")]),
    ('"""Pobeda as an example."""\n# godstorm in a comment\nX = 1\n"""A Cold War note."""\n', []),
    ('def f() -> str:\n    """Godstorm\'s board."""\n    return "lines"\n', []),
    ('x = "godstormy bambi classical"\n', []),
])
def test_the_name_scan_sees_code_not_documentation(source: str, expected: list[tuple[int, str]]) -> None:
    assert sorted(games_named(source, frozenset(GAME_WORDS))) == sorted(expected)


if __name__ == "__main__":  # python -m tests.platform.test_import_graph: print what the checks see
    for component in cycles(import_graph()):
        print("cycle:", " <-> ".join(component), "(allowed)" if _allowed(component) else "")
    for path in platform_files():
        for line, what in games_named(path.read_text(encoding="utf-8"), game_words()):
            print(f"{path.relative_to(ROOT)}:{line} {what!r}")
    sys.exit(0)
