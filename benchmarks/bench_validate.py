"""Benchmark of content validation: cold load of the base set in a fresh process, and re-validating one edited file.

Targets: < 300 ms cold, < 50 ms for one changed file (`validate_text`, the editor's live check).
Plain script, prints figures, asserts nothing:  .venv/bin/python benchmarks/bench_validate.py [--runs N]
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_COLD = (
    "import time; t0 = time.perf_counter()\n"
    "from kcd.content import load_ruleset\n"
    "rs = load_ruleset()\n"
    "print(f'{time.perf_counter() - t0:.6f} {rs.item_count}')\n"
)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _cold(runs: int, env: dict[str, str]) -> tuple[list[float], list[float], list[float], int]:
    """Per fresh process: wall time, CPU time (user+sys; robust when other jobs share the machine) and
    the in-process import+load wall time."""
    wall: list[float] = []
    cpu: list[float] = []
    inner: list[float] = []
    items = 0
    for _ in range(runs):
        start, cpu0 = time.perf_counter(), _children_cpu()
        out = subprocess.run([sys.executable, "-c", _COLD], capture_output=True, text=True, env=env, check=True)
        wall.append(time.perf_counter() - start)
        cpu.append(_children_cpu() - cpu0)
        seconds, count = out.stdout.split()
        inner.append(float(seconds))
        items = int(count)
    return wall, cpu, inner, items


def _startup(runs: int, env: dict[str, str]) -> tuple[list[float], list[float]]:
    """Wall and CPU time of a fresh interpreter doing nothing (to read the cold figures against)."""
    times, cpu = [], []
    for _ in range(runs):
        start, cpu0 = time.perf_counter(), _children_cpu()
        subprocess.run([sys.executable, "-c", "pass"], check=True, env=env)
        times.append(time.perf_counter() - start)
        cpu.append(_children_cpu() - cpu0)
    return times, cpu


def _one_file(runs: int) -> tuple[list[float], list[float], int]:
    """validate_text of an edited nests.yaml: a new text each time (no result reuse) and an unchanged one."""
    from kcd.core import paths
    from kcd.content import load_ruleset, validate_text

    load_ruleset()  # the editor has the set loaded already
    target = paths.content_dir() / "base" / "nests.yaml"
    text = target.read_text(encoding="utf-8")
    changed: list[float] = []
    same: list[float] = []
    count = 0
    for i in range(runs):
        edited = text.replace("vp: 1", f"vp: {i % 5 + 1}", 1) + f"\n# edit {i}\n"
        start = time.perf_counter()
        count = len(validate_text(target, edited))
        changed.append(time.perf_counter() - start)
        start = time.perf_counter()
        validate_text(target, edited)
        same.append(time.perf_counter() - start)
    return changed, same, count


def _fmt(values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return f"median {statistics.median(ms):7.1f} ms   min {min(ms):7.1f} ms   max {max(ms):7.1f} ms"


def main() -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    root = Path(__file__).resolve().parent.parent
    pycache = tempfile.TemporaryDirectory()
    # As installed: bytecode compiled once and reused (kept out of the tree), whatever the caller's env says.
    env = dict(os.environ, PYTHONPATH=str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               PYTHONPYCACHEPREFIX=pycache.name)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, load average {os.getloadavg()[0]:.2f}")
    wall, cpu = _startup(args.runs, env)
    print(f"interpreter start (python -c pass), wall:      {_fmt(wall)}")
    print(f"interpreter start (python -c pass), cpu:       {_fmt(cpu)}")
    with tempfile.TemporaryDirectory() as cache:
        nocache = dict(env, KCD_NO_CACHE="1")
        _cold(1, nocache)  # compiles the bytecode
        wall, cpu, inner, items = _cold(args.runs, nocache)
        print(f"cold load, no cache, whole process wall:       {_fmt(wall)}   ({items} items)")
        print(f"cold load, no cache, whole process cpu:        {_fmt(cpu)}")
        print(f"cold load, no cache, imports + load (wall):    {_fmt(inner)}")
        cached = dict(env, KCD_CACHE_DIR=cache)
        _cold(1, cached)  # fills the schema-result cache
        wall, cpu, inner, items = _cold(args.runs, cached)
        print(f"cold load, schema cache warm, process wall:    {_fmt(wall)}")
        print(f"cold load, schema cache warm, process cpu:     {_fmt(cpu)}")
        print(f"cold load, schema cache warm, imports + load:  {_fmt(inner)}")
    os.environ["KCD_NO_CACHE"] = "1"
    changed, same, count = _one_file(args.runs * 3)
    print(f"validate_text, one edited file (new text):     {_fmt(changed)}   ({count} diagnostics)")
    print(f"validate_text, same text again:                {_fmt(same)}")
    print("targets: cold < 300 ms, one file < 50 ms")
    pycache.cleanup()


if __name__ == "__main__":
    main()
