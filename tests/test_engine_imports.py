"""No import circle in interpreter/engine, and none dodged by a function-level import: the
verbs register into one table the runtime is handed (interpreter/engine/verb_table.py)."""
from __future__ import annotations

import ast
from pathlib import Path

from test_engine_support import ruleset

from kcd.dsl.registry import CORE_PRIMITIVES
from kcd.engine import Game
from kcd.engine.verb_table import TABLE

ENGINE = Path(__file__).resolve().parent.parent / "interpreter" / "engine"


def _module(path: Path) -> str:
    parts = ["kcd", "engine", *path.relative_to(ENGINE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _graph() -> tuple[dict[str, set[str]], list[str]]:
    """Engine module -> engine modules it imports (anywhere in the file), and the function-level imports."""
    paths = {_module(p): p for p in ENGINE.rglob("*.py")}
    edges: dict[str, set[str]] = {m: set() for m in paths}
    nested: list[str] = []
    for mod, path in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = set(map(id, tree.body))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [f"{node.module}.{a.name}" for a in node.names] + [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            targets = {n if n in paths else n.rpartition(".")[0] for n in names}
            targets = {t for t in targets if t in paths and t != mod and not mod.startswith(t + ".")}
            edges[mod] |= targets
            if targets and id(node) not in top:
                nested.append(f"{path.name}:{node.lineno}")
    return edges, nested


def test_no_import_cycle_in_the_engine():
    edges, _ = _graph()
    assert len(edges) > 30
    state: dict[str, int] = {}

    def visit(m: str, trail: list[str]) -> None:
        state[m] = 1
        for n in sorted(edges[m]):
            assert state.get(n) != 1, "import cycle: " + " -> ".join(trail[trail.index(n):] + [n]) \
                if n in trail else f"import cycle through {n}"
            if n not in state:
                visit(n, trail + [n])
        state[m] = 2

    for m in sorted(edges):
        if m not in state:
            visit(m, [m])


def test_no_function_level_engine_imports():
    _, nested = _graph()
    assert nested == []


def test_every_registry_verb_is_in_the_table_the_runtime_is_handed():
    game = Game.new(ruleset(), players=["red", "green"], seed=1)
    assert game.rt.verbs is TABLE
    verbs = [p.id for p in CORE_PRIMITIVES if p.kind == "verb"]
    assert len(verbs) > 15 and [v for v in verbs if v not in TABLE.run] == []


def test_nothing_below_the_apps_imports_them():
    """Only the command line (interpreter/apps/cli/) imports the apps `kcd.apps.editor` and `kcd.apps.service`: the engine,
    content, language and analysis layers never import upward."""
    package = ENGINE.parent
    upward = []
    for path in package.rglob("*.py"):
        if "apps" in path.relative_to(package).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                [a.name for a in node.names] if isinstance(node, ast.Import) else []
            upward += [f"{path.relative_to(package)}:{node.lineno} imports {n}" for n in names
                       if n.startswith(("kcd.apps.editor", "kcd.apps.service"))]
    assert len(list(package.rglob("*.py"))) > 50
    assert upward == []


# The layers of the one package `kcd`, lowest first (docs/ARCHITECTURE "Package layout"): a module imports only
# its own layer and the layers below it. `testing` (fixtures for those who test the engine, a mod or a front-end)
# is the top: it may import every layer, the apps too, and no product imports it.
LAYERS = ("core", "dsl", "content", "engine", "modes", "analysis", "rl", "apps", "testing")
# The only upward edges: the engine's Game loads the built-in modes (so `Game.new(mode="solo")` works without
# importing them first) and names their interface in one annotation.
UPWARD_ALLOWED = {("kcd.engine.game", "kcd.modes"), ("kcd.engine.game", "kcd.modes.base"),
                  ("kcd.engine.game", "kcd.modes.standard"), ("kcd.engine.game", "kcd.modes.solo"),
                  ("kcd.engine.game", "kcd.modes.vto")}


def _layer_modules() -> dict[str, Path]:
    """kcd module name -> file, for the engine package and the two apps installed under it."""
    root = ENGINE.parent.parent
    out = {}
    for folder, prefix in (("interpreter", "kcd"), ("editor", "kcd.apps.editor"), ("service", "kcd.apps.service")):
        for path in (root / folder).rglob("*.py"):
            parts = path.relative_to(root / folder).with_suffix("").parts
            if "pages" in parts or parts[-1] == "Home":
                parts = ()  # the Streamlit pages are scripts of the editor
            name = ".".join((prefix, *(parts[:-1] if parts and parts[-1] == "__init__" else parts)))
            out[name if parts or folder == "interpreter" else f"{prefix}.{path.stem}"] = path
    return out


def _layer_of(module: str) -> int | None:
    """The layer index of a kcd module (None for the top package `kcd` itself)."""
    parts = module.split(".")
    if len(parts) < 2:
        return None
    return LAYERS.index(parts[1])


def test_every_layer_imports_only_the_layers_below_it():
    modules = _layer_modules()
    assert set(LAYERS) <= {m.split(".")[1] for m in modules if m.count(".")}
    upward = []
    for mod, path in sorted(modules.items()):
        here = _layer_of(mod)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("kcd"):
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names if a.name.startswith("kcd")]
            else:
                continue
            for name in names:
                target = name if name in modules else name.rpartition(".")[0]
                if target not in modules or (mod, target) in UPWARD_ALLOWED:
                    continue
                there = _layer_of(target)
                if here is not None and there is not None and there > here:
                    upward.append(f"{path.name}:{node.lineno} {mod} ({LAYERS[here]}) imports {target}")
    assert upward == []


def _imported(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import in a file, anywhere in it, `from a import b` as `a` and `a.b`."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            out += [(node.lineno, node.module), *((node.lineno, f"{node.module}.{a.name}") for a in node.names)]
        elif isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
    return out


def test_no_product_module_imports_kcd_testing():
    """kcd.testing is for tests: no module of the engine, the analysis, the adapters or the apps imports it (nor the
    top package `kcd`, which has no layer), anywhere in a file."""
    modules = _layer_modules()
    assert "kcd.testing" in modules and "kcd.apps.editor" in modules
    found = [f"{path.relative_to(ENGINE.parent.parent)}:{line} imports {name}"
             for mod, path in sorted(modules.items()) if mod != "kcd.testing" and not mod.startswith("kcd.testing.")
             for line, name in _imported(path) if name == "kcd.testing" or name.startswith("kcd.testing.")]
    assert found == []


def test_the_layer_rules_catch_an_import_of_kcd_testing(tmp_path: Path):
    """The check above reads imports as the layer test does: a product file importing kcd.testing is found."""
    product = tmp_path / "product.py"
    product.write_text("import json\n\ndef f():\n    from kcd.testing import steps\n    import kcd.testing.hidden\n",
                       encoding="utf-8")
    assert [n for _, n in _imported(product) if n.startswith("kcd.testing")] == \
        ["kcd.testing", "kcd.testing.steps", "kcd.testing.hidden"]
    assert _layer_of("kcd.testing.playthrough") > _layer_of("kcd.apps.service.hub") > _layer_of("kcd.rl.openspiel")


def test_the_mode_registry_imports_nothing_from_kcd():
    """The registry the engine reads (kcd.engine.mode_registry) imports nothing, so reading it loads no mode."""
    registry = ENGINE / "mode_registry.py"
    tree = ast.parse(registry.read_text(encoding="utf-8"))
    assert not [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
                and any((getattr(n, "module", None) or a.name).startswith("kcd") for a in n.names)]
