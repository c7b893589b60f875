"""Soak test: thousands of random mods; every one that validates must play (target: 0 failures).

Each mod is random DSL effects from the registry in track slots, Nests, leader cards, flock powers, Wildcards and
Season cards (interpreter/analysis/random_mods.py). A mod that `kcd validate` refuses is counted as refused; one
that validates is played for `--decisions` decisions (standard or solo, random flocks, sides and choices), and
any exception, refused legal option, or effect nesting past the checker's bound is a failure, printed with the
seed that reproduces it. Prints counts, wall and CPU time; asserts nothing.

    nice -n 10 .venv/bin/python benchmarks/soak_mods.py 300 [--seed 0] [--decisions 150]
"""
from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kcd.core import paths  # noqa: E402
from kcd.content import clear_caches  # noqa: E402
from kcd.content.loader import build  # noqa: E402
from kcd.analysis.random_mods import mod_files, play_mod, write_mod  # noqa: E402
from kcd.apps.cli.play_options import seed_arg  # noqa: E402


def main() -> None:
    """Play `count` random mods and print how many validated, played and failed."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("count", type=int, nargs="?", default=1000, help="random mods to try (default 1000)")
    parser.add_argument("--seed", type=seed_arg, default=0, help="seed of the first mod; mod i uses seed + i")
    parser.add_argument("--decisions", type=int, default=150, help="decisions to play per valid mod")
    args = parser.parse_args()
    start, cpu0 = time.perf_counter(), time.process_time()
    valid = failures = decisions = 0
    refused: Counter[str] = Counter()
    deepest = 0
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "content"
        shutil.copytree(paths.content_dir(), root)
        shutil.copytree(paths.schemas_dir(), Path(tmp) / "schemas")
        for i in range(args.count):
            seed = args.seed + i
            rng = random.Random(seed)
            pack = f"soak{seed}"
            write_mod(root, pack, mod_files(rng, pack))
            outcome = play_mod(root, pack, rng, decisions=args.decisions)
            if not outcome.valid:
                codes = {d.code for d in build(root, (f"mods/{pack}",)).diagnostics if d.severity == "error"}
                refused.update(codes)
            else:
                valid += 1
                decisions += outcome.decisions
                deepest = max(deepest, outcome.max_depth)
                if outcome.failure is not None:
                    failures += 1
                    print(f"FAIL seed {seed}: {outcome.failure}", flush=True)
            shutil.rmtree(root / "mods" / pack)
            if i % 25 == 24:
                clear_caches()
                print(f"  {i + 1} mods: {valid} valid, {failures} failures", file=sys.stderr, flush=True)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu0
    print(f"random mods: {args.count}, valid and played: {valid} ({decisions} decisions, deepest nesting {deepest}), "
          f"refused: {args.count - valid} (by code: {dict(refused.most_common())})")
    print(f"failures: {failures}")
    print(f"wall {wall:.1f} s, cpu {cpu:.1f} s ({cpu / max(args.count, 1):.2f} s cpu a mod)")


if __name__ == "__main__":
    main()
