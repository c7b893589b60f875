"""Testing the engine, a mod or a front-end (`kcd.testing`): fixtures that products never import.

Like OpenSpiel's `random_sim_test` and PettingZoo's `api_test`, for Kiwi Chow Down:

- `random_sim_test(pack_or_ruleset, games=4, seed=0)` plays random games of every mode the content offers and
  checks every decision (docs/MODDING.md "Testing your pack"): no crash, no loop, an end; the engine's invariants;
  a clone and a loaded save that equal the game and go on like it; wrong answers refused without a trace; views
  that show nobody what they cannot see. `checked_game` is one such game with the arguments you choose.
- `play_random(game, seed, check)` plays a `Game` you built to its end, calling your check after every decision.
- `steps(rt, entry)` and `drive(gen, answers)` run one program of the rules machine by hand and answer its
  decisions (a rule test).
- `indistinguishable(state, viewer, rng)` deals again what one viewer cannot see; `views_leak(game, rng)` says
  where a view depends on it; `mangled_id` makes the wrong answers the refusal check sends.

This layer sits at the top, beside the apps: it may import every layer, and nothing in `kcd` imports it.
"""
from kcd.testing.hidden import first_difference, indistinguishable, reserves_revealed, views_leak
from kcd.testing.playthrough import (CHECKS, CheckFailed, Checker, SimTestReport, checked_game, describe,
                                     invariant_problems, load_target, mangled_id, play_random, random_sim_test,
                                     refusal_problem, sim_plan)
from kcd.testing.programs import drive, steps

__all__ = ["CHECKS", "CheckFailed", "Checker", "SimTestReport", "checked_game", "describe", "drive", "first_difference",
           "indistinguishable", "invariant_problems", "load_target", "mangled_id", "play_random", "random_sim_test",
           "refusal_problem", "reserves_revealed", "sim_plan", "steps", "views_leak"]
