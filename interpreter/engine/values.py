"""What the rules machine's continuations hold, as plain data: the signals a continuation returns to the runner,
and the copying and encoding of their environments (interpreter/engine/machine.py, docs/machine.md).

A continuation's `resume(rt, value)` returns one of three signals to the runner (`machine.Runner`):

    Ask(player, kind, prompt, options)   ask a player (see `machine.Runner`)
    Call(frame)                          run a child continuation; its return value comes back as `value`
    Return(value)                        the program is done; `value` goes to its caller

What an environment may hold, so that copying and saving are generic and total: None, bools, ints, floats, strs;
lists, tuples, dicts, sets and frozensets of those; `Ctx`, `Turn` and `Ability` and classes registered with
`register_mutable` (copied with a memo, so continuations sharing one still share it in the copy); DSL AST nodes
(frozen: shared, never copied; a node of the compiled rules is saved by its address, `node_index`, one built during
play by its fields); typed Actions, Options and Decisions, and value classes registered with `register_value`
(frozen: shared). Nothing else: no Runtime, no State objects (read them from `rt` on each resume). Holding
anything else is an error of the program (`Uncopyable`, `Unsaveable`: EngineErrors naming the program, the env
name and the value's type), never a reason to replay.
"""
from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass
from typing import Any, Callable, Sequence, Union

from kcd.dsl import ast
from kcd.core.action_types import Action, action_from_dict
from kcd.engine.context import CTX_LOADED_AS, CTX_SAVED_AS, MAX_DEPTH, Ability, Ctx, EngineError, Turn
from kcd.core.decisions import Decision, Option, Text
from kcd.core.fastinit import fast_slots_init
from kcd.core.memo import PerOwner


# --- signals ------------------------------------------------------------------------------------------
@fast_slots_init
@dataclass(frozen=True, slots=True)
class Ask:
    """Ask `player` to choose one of `options`; the continuation is resumed with the chosen option's action.

    `always`: ask even when a single option is left. A question with one option is answered at once, so everyone
    sees that it was not asked; where the number of options depends on something hidden from others (a hand, the
    terrains of face-down markers), whether the player is asked must not, so the asking frame sets `always` when
    only public facts decide that it asks (docs/SECURITY.md)."""

    player: str
    kind: str
    prompt: Text   # a decisions.Text: built only when the Decision's prompt is read
    options: Sequence[Option[Any]]
    always: bool = False


@fast_slots_init
@dataclass(frozen=True, slots=True)
class Call:
    """Run `frame` (a machine.Cont) and resume with its return value."""

    frame: Any   # a machine.Cont, or None: nothing to run (the caller resumes at once with None)


@fast_slots_init
@dataclass(frozen=True, slots=True)
class Return:
    """The program is done; `value` goes to its caller."""

    value: Any = None


Signal = Union[Ask, Call, Return]
# `Return()`, shared: signals are frozen, and most frames end with no value (one allocation fewer each time)
RETURN = Return()

# --- copying ------------------------------------------------------------------------------------------
class Uncopyable(EngineError):
    """A continuation holds something that is not plain data (a State object, a generator, ...): an error of the
    program that stored it (the message names the program, the env name and the value's type)."""


_ATOMS = frozenset({type(None), bool, int, str, float})
# mutable plain-data classes copied with the memo (frames sharing one keep sharing the copy), by their save tag
MUTABLES: dict[str, type] = {"ctx": Ctx, "turn": Turn, "ability": Ability}
_MUTABLE_TAGS: dict[type, str] = {cls: tag for tag, cls in MUTABLES.items()}


def register_mutable(name: str) -> Callable[[type], type]:
    """Class decorator for a mutable dataclass of plain data a frame may hold and several frames may share (like
    Ctx and Turn): copied with the memo, saved by `name` with its fields (e.g. Kiwibot's segment plan)."""
    def decorate(cls: type) -> type:
        if name in MUTABLES and MUTABLES[name] is not cls or name in _TAGS:
            raise ValueError(f"mutable kind `{name}` is taken")
        MUTABLES[name] = cls
        _MUTABLE_TAGS[cls] = name
        return cls
    return decorate


_CONTAINERS_NAMES = ("tuple", "set", "frozenset")
# the tags of a save's values other than the registered mutables' names (which must not take one)
_TAGS = frozenset({"dict", "ref", "node", "ast", "value", "action", "option", "decision", "float",
                   *_CONTAINERS_NAMES})
_SHARED: set[type] = {Option, Decision}
VALUES: dict[str, type] = {}      # registered value classes by their save name
_VALUE_NAMES: dict[type, str] = {}


def register_value(name: str) -> Callable[[type], type]:
    """Class decorator for a frozen dataclass of plain data a frame may hold (shared by copies, saved by name)."""
    def decorate(cls: type) -> type:
        VALUES[name] = cls
        _VALUE_NAMES[cls] = name
        _SHARED.add(cls)
        _AS_IS.add(cls)
        return cls
    return decorate


def _is_node(value: Any) -> bool:
    return type(value).__module__ == ast.__name__


def _shared(value: Any) -> bool:
    kind = type(value)
    return kind in _ATOMS or kind in _SHARED or isinstance(value, Action) or _is_node(value)


# Kinds copied as they are: the atoms, the registered values, and (added on first sight by `_copy`) the DSL
# node and Action classes, so a frame's field is one set lookup away from being shared
_AS_IS: set[type] = set(_ATOMS) | _SHARED


def _copy(value: Any, memo: dict[int, Any]) -> Any:
    kind = type(value)
    if kind in _AS_IS or kind in _SHARED:
        return value
    if kind is list:
        return [v if type(v) in _AS_IS else _copy(v, memo) for v in value]
    if kind is dict:
        return {k: v if type(v) in _AS_IS else _copy(v, memo) for k, v in value.items()}
    if kind is tuple:
        for v in value:
            if type(v) not in _AS_IS:
                break
        else:
            return value   # atoms, values, nodes: shared (a loop's items, mostly)
        items = tuple(_copy(v, memo) for v in value)
        return value if all(a is b for a, b in zip(items, value)) else items
    if kind is set:
        return set(value) if all(type(v) in _ATOMS for v in value) else {_copy(v, memo) for v in value}
    if kind is frozenset:
        for v in value:
            if type(v) not in _AS_IS:
                break
        else:
            return value   # atoms, values, nodes, actions: shared
        items = tuple(value)
        copies = tuple(_copy(v, memo) for v in items)
        return value if all(a is b for a, b in zip(copies, items)) else frozenset(copies)
    if kind in _MUTABLE_TAGS:
        done = memo.get(id(value))
        if done is None:
            done = object.__new__(kind)
            memo[id(value)] = done
            done.__dict__ = _copy_fields(value.__dict__, memo, kind)
        return done
    if isinstance(value, Action) or _is_node(value):
        _AS_IS.add(kind)   # immutable by construction (frozen dataclasses): shared from now on
        return value
    raise Uncopyable(_type_name(kind))


def _type_name(kind: type) -> str:
    """A class as messages name it: `module.Class`."""
    return f"{kind.__module__}.{kind.__qualname__}"


# Field annotations whose values are immutable by type (mypy checks every assignment in CI), so a copy shares them
# without looking: most of a frame's and a Ctx's fields (pc, flock, step, hex, card, source, depth, suppressed)
_IMMUTABLE_TYPES = frozenset({"int", "str", "bool", "float", "str | None", "int | None", "bool | None",
                              "frozenset[str]", "tuple[str, ...]"})
# class -> (how many fields it has, the fields that may hold something mutable), from its dataclass fields
_COPY_SPECS: dict[type, tuple[int, tuple[str, ...]]] = {}


def _copy_spec(kind: type) -> tuple[int, tuple[str, ...]]:
    """The copy spec of a frame or mutable class (`_COPY_SPECS`): a field is looked at unless its annotation is
    one of `_IMMUTABLE_TYPES`; an object with other keys than its fields is copied key by key."""
    spec = _COPY_SPECS.get(kind)
    if spec is None:
        fields = dataclasses.fields(kind) if dataclasses.is_dataclass(kind) else ()
        look = tuple(f.name for f in fields if str(f.type) not in _IMMUTABLE_TYPES)
        spec = _COPY_SPECS[kind] = (len(fields) if fields else -1, look)
    return spec


def _copy_fields(source: dict[str, Any], memo: dict[int, Any], kind: type) -> dict[str, Any]:
    """A copy of an object's fields, each value through `_copy`: the dict is copied at once and only the fields
    that may hold something mutable (by their annotation) and do are replaced."""
    out = source.copy()
    as_is = _AS_IS
    size, look = _COPY_SPECS.get(kind) or _copy_spec(kind)
    if len(source) == size:
        for k in look:
            v = source[k]
            if type(v) not in as_is:
                out[k] = _copy(v, memo)
        return out
    for k, v in source.items():   # keys beyond the declared fields: each one looked at
        if type(v) not in as_is:
            out[k] = _copy(v, memo)
    return out


# --- saving: frames as JSON data ----------------------------------------------------------------------
# (nodes, addresses) of each live Rules, dropped with it (interpreter/core/memo.py PerOwner): it was kept for every
# Rules a process ever saved with
_INDEX = PerOwner()


def node_index(rules: Any) -> tuple[list[Any], dict[int, int]]:
    """Every DSL node of the compiled rules in a fixed order (the walk of the rules' fields), and the address of
    each by identity: how a save names the node a frame runs. Built once per Rules."""
    cached: tuple[list[Any], dict[int, int]] | None = _INDEX.get(rules)
    if cached is not None:
        return cached
    nodes: list[Any] = []
    where: dict[int, int] = {}
    seen: set[int] = set()

    def walk(value: Any) -> None:
        kind = type(value)
        if kind in _ATOMS or id(value) in seen:
            return
        seen.add(id(value))
        if _is_node(value):
            if kind is not ast.Span and kind is not ast.Word:
                where[id(value)] = len(nodes)
                nodes.append(value)
            for f in dataclasses.fields(value):
                walk(getattr(value, f.name))
        elif kind is dict:
            for v in value.values():
                walk(v)
        elif kind in (list, tuple, set, frozenset):
            for v in (sorted(value, key=repr) if kind in (set, frozenset) else value):
                walk(v)
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            for f in dataclasses.fields(value):
                walk(getattr(value, f.name))

    walk(rules)
    built: tuple[list[Any], dict[int, int]] = _INDEX.put(rules, (nodes, where))
    return built


class Unsaveable(EngineError):
    """A continuation holds something no save can write (a State object, a generator, ...): an error of the program
    that stored it (the message names the program, the env name and the value's type)."""


# the DSL node classes by name: a node built during play (not in the rules' `node_index`) is saved by its fields
AST_CLASSES: dict[str, type] = {name: cls for name, cls in vars(ast).items()
                                if isinstance(cls, type) and cls.__module__ == ast.__name__
                                and dataclasses.is_dataclass(cls)}
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(kind: type) -> tuple[str, ...]:
    """A node class's field names, in their order (read once per class)."""
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = _FIELD_NAMES[kind] = tuple(f.name for f in dataclasses.fields(kind))
    return names


def _encode(value: Any, where: dict[int, int], refs: dict[int, int]) -> Any:
    kind = type(value)
    if kind in _ATOMS:
        if kind is float:
            return {"$": "float", "v": value.hex()}   # exact, and a save holds no JSON float
        return value
    if kind is list:
        return [_encode(v, where, refs) for v in value]
    if kind in (tuple, set, frozenset):
        items = sorted(value, key=repr) if kind is not tuple else value
        return {"$": kind.__name__, "v": [_encode(v, where, refs) for v in items]}
    if kind is dict:
        return {"$": "dict", "v": [[_encode(k, where, refs), _encode(v, where, refs)] for k, v in value.items()]}
    if kind in _MUTABLE_TAGS:
        ref = refs.get(id(value))
        if ref is not None:
            return {"$": "ref", "r": ref}
        refs[id(value)] = ref = len(refs)
        if kind is Ctx:   # a few fields saved under the names format 4 gave them
            return {"$": "ctx", "r": ref,
                    "v": {CTX_SAVED_AS.get(k, k): _encode(v, where, refs) for k, v in value.__dict__.items()}}
        return {"$": _MUTABLE_TAGS[kind], "r": ref,
                "v": {k: _encode(v, where, refs) for k, v in value.__dict__.items()}}
    if isinstance(value, Action):
        return {"$": "action", "v": value.to_dict()}
    if kind is Option:
        action = value.action
        return {"$": "option", "id": value.id, "label": value.label,
                "v": action.to_dict() if action is not None else None}
    if kind in _VALUE_NAMES:
        return {"$": "value", "k": _VALUE_NAMES[kind],
                "v": {f.name: _encode(getattr(value, f.name), where, refs) for f in dataclasses.fields(value)}}
    if _is_node(value):
        address = where.get(id(value))
        if address is not None:
            return {"$": "node", "a": address}
        # built during play (a phrase with its chosen players filled in, a call with its amounts evaluated): its
        # fields, the nodes of the rules among them by address
        return {"$": "ast", "k": kind.__name__,
                "v": {name: _encode(getattr(value, name), where, refs) for name in _field_names(kind)}}
    if kind is Decision:
        return {"$": "decision", "player": value.player, "kind": value.kind, "prompt": str(value.prompt),
                "v": [_encode(o, where, refs) for o in value.options]}
    raise Unsaveable(_type_name(kind))


class FrameDataError(ValueError):
    """Saved frames that do not describe frames of this engine (the message says where)."""


_CONTAINERS = {"tuple": tuple, "set": set, "frozenset": frozenset}


def _decode(value: Any, nodes: list[Any], refs: dict[int, Any], where: str) -> Any:
    kind = type(value)
    if kind in _ATOMS:
        if kind is float:
            raise FrameDataError(f"{where}: not a whole number")
        return value
    if kind is list:
        return [_decode(v, nodes, refs, f"{where}/{i}") for i, v in enumerate(value)]
    if kind is not dict or not isinstance(value.get("$"), str):
        raise FrameDataError(f"{where}: not frame data")
    tag = value["$"]
    try:
        if tag in _CONTAINERS:
            items = [_decode(v, nodes, refs, f"{where}/{i}") for i, v in enumerate(value["v"])]
            return _CONTAINERS[tag](items)
        if tag == "dict":
            return {_decode(k, nodes, refs, where): _decode(v, nodes, refs, f"{where}/{i}")
                    for i, (k, v) in enumerate(value["v"])}
        if tag == "ref":
            return refs[value["r"]]
        if tag in MUTABLES:
            cls = MUTABLES[tag]
            if value["r"] != len(refs):
                raise FrameDataError(f"{where}: {tag} reference {str(value['r'])[:20]} out of order")
            obj: Any = object.__new__(cls)
            refs[value["r"]] = obj
            fields = value["v"]
            names = [f.name for f in dataclasses.fields(cls)]
            if isinstance(fields, dict) and cls is Ctx and "during" not in fields:
                fields = {**fields, "during": None}   # a save from before `this action:`
            if isinstance(fields, dict) and cls is Ctx:
                fields = {CTX_LOADED_AS.get(k, k): v for k, v in fields.items()}   # its saved field names
            if not isinstance(fields, dict) or set(fields) != set(names):
                raise FrameDataError(f"{where}: a {tag} has the fields {', '.join(names)}")
            for name in names:
                obj.__dict__[name] = _decode(fields[name], nodes, refs, f"{where}/{name}")
            if cls in (Ctx, Turn, Ability):
                _check_context(obj, where)
            else:
                check = getattr(obj, "check_data", None)   # a registered class's own field check, if any
                if check is not None:
                    check(where)
            return obj
        if tag == "action":
            return action_from_dict(value["v"])
        if tag == "option":
            action = action_from_dict(value["v"])
            if not isinstance(value["id"], str) or action.id() != value["id"] or not isinstance(value["label"], str):
                raise FrameDataError(f"{where}: an option whose id is not its action's")
            return Option(value["id"], value["label"], action)
        if tag == "value":
            cls = VALUES[value["k"]]
            fields = value["v"]
            names = [f.name for f in dataclasses.fields(cls)]
            if not isinstance(fields, dict) or set(fields) != set(names):
                raise FrameDataError(f"{where}: a {value['k']} has the fields {', '.join(names)}")
            return cls(**{n: _decode(fields[n], nodes, refs, f"{where}/{n}") for n in names})
        if tag == "node":
            address = value["a"]
            if type(address) is not int or not 0 <= address < len(nodes):
                raise FrameDataError(f"{where}: no DSL node {str(address)[:20]} in these rules")
            return nodes[address]
        if tag == "ast":
            return _decode_node(value, nodes, refs, where)
        if tag == "float":
            if type(value["v"]) is not str:
                raise FrameDataError(f"{where}: bad float data")
            return float.fromhex(value["v"])
        if tag == "decision":
            options = [_decode(v, nodes, refs, f"{where}/{i}") for i, v in enumerate(value["v"])]
            texts = (value["player"], value["kind"], value["prompt"])
            if not all(type(t) is str for t in texts) or not all(type(o) is Option for o in options):
                raise FrameDataError(f"{where}: a decision is a player, a kind, a prompt and options")
            return Decision(*texts, tuple(options))
    except FrameDataError:
        raise
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise FrameDataError(f"{where}: bad {tag} data ({type(exc).__name__})") from None
    raise FrameDataError(f"{where}: unknown tag {tag[:20]!r}")


def _decode_node(value: dict[str, Any], nodes: list[Any], refs: dict[int, Any], where: str) -> Any:
    """A DSL node saved by its fields (built during play), each field of the type its class declares."""
    name = value["k"]
    cls = AST_CLASSES.get(name) if type(name) is str else None
    if cls is None:
        raise FrameDataError(f"{where}: no DSL node class {str(name)[:40]!r}")
    fields = value["v"]
    names = _field_names(cls)
    if not isinstance(fields, dict) or set(fields) != set(names):
        raise FrameDataError(f"{where}: a {name} node has the fields {', '.join(names)}")
    hints = _hints(cls)
    decoded = {}
    for field_name in names:
        item = _decode(fields[field_name], nodes, refs, f"{where}/{field_name}")
        if not _conforms(item, hints[field_name]):
            raise FrameDataError(f"{where}/{field_name}: not what a {name} node holds there")
        decoded[field_name] = item
    return cls(**decoded)


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    """A node class's field types, resolved once (the module writes them as strings)."""
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


def _conforms(value: Any, hint: Any) -> bool:
    """True when a decoded value is of the declared field type `hint` (unions, `tuple[X, ...]`, fixed tuples,
    classes; `object` and `Any` take any value): a loaded node is the shape the engine reads."""
    if hint is object or hint is Any:
        return True
    if hint is type(None) or hint is None:
        return value is None
    origin = typing.get_origin(hint)
    if origin is Union or origin is types.UnionType:
        return any(_conforms(value, h) for h in typing.get_args(hint))
    if origin is tuple:
        if type(value) is not tuple:
            return False
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_conforms(v, args[0]) for v in value)
        return len(args) == len(value) and all(_conforms(v, h) for v, h in zip(value, args))
    return isinstance(hint, type) and type(value) is hint   # exact: no bool for an int, no subclass


def _check_context(obj: Any, where: str) -> None:
    """The field types of a decoded Ctx, Turn or Ability (a wrong type would fail later, deep in play)."""
    def need(ok: bool, name: str) -> None:
        if not ok:
            raise FrameDataError(f"{where}/{name}: wrong type")
    d = obj.__dict__
    if type(obj) is Turn:
        need(type(d["moved"]) is set and all(type(v) is int for v in d["moved"]), "moved")
        need(type(d["leader_moved"]) is bool, "leader_moved")
        need(type(d["ability_used"]) is bool, "ability_used")
    elif type(obj) is Ability:
        need(type(d["start"]) is str, "start")
        need(d["landing"] is None or type(d["landing"]) is str, "landing")
        need(type(d["passed"]) is list and all(type(v) is str for v in d["passed"]), "passed")
    else:
        need(type(d["flock"]) is str, "flock")
        need(type(d["turn"]) is Turn, "turn")
        need(type(d["suppressed"]) is frozenset and all(type(v) is str for v in d["suppressed"]), "suppressed")
        need(type(d["depth"]) is int and 0 <= d["depth"] <= MAX_DEPTH, "depth")
        need(d["ability"] is None or type(d["ability"]) is Ability, "ability")
        need(type(d["no_vp"]) is bool, "no_vp")
        need(type(d["source"]) is str, "source")
        need(d["here"] is None or type(d["here"]) is str, "here")
        need(d["during"] is None or type(d["during"]) is tuple and all(_is_node(v) for v in d["during"]), "during")
