"""Kiwi Chow Down for learning agents: a fixed action index, observation tensors, returns, determinisation.

The adapters need the `rl` extra (`pip install -e '.[rl]'`): `kcd.rl.pettingzoo` (a PettingZoo AEC
environment) and `kcd.rl.openspiel` (an OpenSpiel python game, `kiwi_chow_down`). docs/RL.md walks
through all of it.
"""
from kcd.analysis.determinize import determinize
from kcd.rl.actions import ActionSpace, action_space
from kcd.rl.observation import (ObservationSpace, information_state_tensor, observation_space,
                                        observation_tensor)
from kcd.rl.rewards import returns, shaped_reward, vp_difference

__all__ = ["ActionSpace", "ObservationSpace", "action_space", "determinize", "information_state_tensor",
           "observation_space", "observation_tensor", "returns", "shaped_reward", "vp_difference"]
