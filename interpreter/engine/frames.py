"""Explicit procedure frames: the running step as plain data, so a game can be copied and saved without replay.

Procedures are being rewritten as programs of the rules machine (interpreter/engine/machine.py, docs/machine.md):
their continuations (`machine.Cont`) sit on the same stack and the runner below drives them like frames; the
game copies, saves and loads stacks of both with `machine.copy_stack`, `stack_to_data` and `stack_from_data`.

A step procedure is a stack of frames. A `Frame` is a small state machine (`pc` says where it resumes) whose
fields are plain data; `resume(rt, value)` runs it until it needs something and returns a signal:

    Ask(player, kind, prompt, options)   ask a player (decisions.ask_action's semantics: see `Runner`)
    Call(frame)                          run a child frame; its return value comes back as `value`
    Return(value)                        this frame is done; `value` goes to its parent

`resume` is called first with None, then with the chosen option's typed action (after Ask) or the child's return
value (after Call). When `resume` raises, the runner pops the frame and calls `parent.fail(rt, exc)` (default:
re-raise), so a parent may catch an exception of its children as a `try` around `yield from` did.

Generator procedures still run: a `GenFrame` wraps one. A generator may `yield` a Decision (it gets the chosen
option id back, as `ask_action` always did), an `Ask` (it gets the action), or a Frame (the runner runs it and
sends back its return value). A converted procedure keeps its old name as a generator (`drive` runs a frame
inside a generator, so unconverted callers and tests that drive generators by hand do not change).

What a frame may hold, so that `copy_stack` and `to_data` are generic: None, bools, ints, strs; lists, tuples,
dicts, sets and frozensets of those; `Ctx`, `Turn` and `Ability` and classes registered with `register_mutable`
(copied with a memo, so frames sharing one still share it in the copy); DSL AST nodes of the compiled rules (shared, never copied; saved by their address
in the rules, `node_index`); typed Actions, Options and Decisions, and value classes registered with
`register_value` (frozen: shared). Nothing else: no generators, no Runtime, no State objects (read them from
`rt` on each resume). A frame holding anything else cannot be copied or saved: the game then falls back to
replaying the step (see interpreter/engine/game.py), which stays correct, only slower.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from types import GeneratorType
from typing import Any, Callable, ClassVar, Generator, Mapping, Protocol, Sequence, Union

from kcd.dsl import ast
from kcd.engine.action_types import Action, action_from_dict
from kcd.engine.context import MAX_DEPTH, Ability, Ctx, EngineError, Runtime, Turn
from kcd.engine.decisions import Decision, Option, Text, distinct_index
from kcd.engine.fastinit import fast_slots_init
from kcd.memo import PerOwner


# --- signals ------------------------------------------------------------------------------------------
@fast_slots_init
@dataclass(frozen=True, slots=True)
class Ask:
    """Ask `player` to choose one of `options`; the frame is resumed with the chosen option's action.

    `always`: ask even when a single option is left. A question with one option is answered at once, so everyone
    sees that it was not asked; where the number of options depends on something hidden from others (a hand, the
    terrains of face-down markers), whether the player is asked must not, so the asking frame sets `always` when
    only public facts decide that it asks (docs/SECURITY.md)."""

    player: str
    kind: str
    prompt: Text   # a decisions.Text: built only when the Decision's prompt is read
    options: Sequence[Option]
    always: bool = False


@fast_slots_init
@dataclass(frozen=True, slots=True)
class Call:
    """Run `frame` (a Frame, a GenFrame, or a generator, which is wrapped) and resume with its return value."""

    frame: "Entry | Generator[Any, Any, Any]"   # never None: a procedure with nothing to do returns Done()


@fast_slots_init
@dataclass(frozen=True, slots=True)
class Return:
    """The frame is done; `value` goes to its parent."""

    value: Any = None


Signal = Union[Ask, Call, Return, "RawAsk"]
# `Return()`, shared: signals are frozen, and most frames end with no value (one allocation fewer each time)
RETURN = Return()

# --- frames -------------------------------------------------------------------------------------------
# step -> decision kind -> the action kinds of its options (`Frame.ask_kinds`)
AskKinds = Mapping[int, Mapping[str, tuple[str, ...]]]
FRAME_KINDS: dict[str, type["Frame"]] = {}


def register_frame(name: str) -> Callable[[type["Frame"]], type["Frame"]]:
    """Class decorator: the frame's kind name in saves (stable, lower-case, e.g. "payment.pay")."""
    def decorate(cls: type["Frame"]) -> type["Frame"]:
        if name in FRAME_KINDS and FRAME_KINDS[name] is not cls:
            raise ValueError(f"frame kind `{name}` is registered twice")
        cls.kind = name
        FRAME_KINDS[name] = cls
        return cls
    return decorate


@dataclass(eq=False)
class Frame:
    """One running procedure. Subclasses are `@dataclass(eq=False)` with plain-data fields and `resume`."""

    kind: ClassVar[str] = ""
    # the steps at which the frame waits for the answer to its Ask (None: not declared). A loaded stack must have
    # its top frame at one of them and every other frame elsewhere (each waits for its child)
    asks: ClassVar["frozenset[int] | None"] = None
    # per step of `asks`, the decision kinds asked there and the action kinds of their options (None: not declared;
    # compose frames check theirs with `check_answer`). A loaded pending decision must be one of them (Game._rebuild)
    ask_kinds: ClassVar["AskKinds | None"] = None
    pc: int = field(default=0, kw_only=True)

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """Run until the frame needs an answer, a child's result, or is done."""
        raise NotImplementedError(f"{type(self).__name__} has no resume")

    def fail(self, rt: Runtime, exc: Exception) -> Signal:
        """A child frame raised `exc`: handle it (return a signal) or re-raise it (the default)."""
        raise exc


class Resumable(Protocol):
    """What the runner drives besides frames: a program's continuation (machine.Cont)."""

    def resume(self, rt: Runtime, value: Any) -> Any:
        """Run until an answer, a child's result or the end is needed (a Signal)."""

    def fail(self, rt: Runtime, exc: Exception) -> Any:
        """A child raised `exc`: handle or re-raise it."""


# what a stack holds: a frame, or a program's continuation (machine.Cont)
Entry = Union[Frame, Resumable]


@dataclass(eq=False)
class Done(Frame):
    """A procedure whose work is already done when it is called: it returns `value` at once."""

    value: Any = None

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """Return at once."""
        return RETURN if self.value is None else Return(self.value)


class GenFrame(Frame):
    """A generator procedure on the stack (the compatibility path; it can be neither copied nor saved)."""

    kind = "generator"

    def __init__(self, gen: Generator[Any, Any, Any]) -> None:
        self.gen = gen
        self.pc = 0

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """Send `value` into the generator; what it yields becomes the signal."""
        try:
            out = self.gen.send(value)
        except StopIteration as stop:
            return Return(stop.value)
        return RawAsk(out) if type(out) is Decision else _signal(out)

    def fail(self, rt: Runtime, exc: Exception) -> Signal:
        """Throw the child's exception into the generator (its `try` around `yield from` sees it)."""
        try:
            return _signal(self.gen.throw(exc))
        except StopIteration as stop:
            return Return(stop.value)

    def __repr__(self) -> str:
        return f"GenFrame({getattr(self.gen, '__qualname__', self.gen)})"


class RawAsk:
    """A Decision a generator yielded itself (a GenFrame's signal): it is answered with the option id, not the
    action."""

    __slots__ = ("decision",)

    def __init__(self, decision: Decision) -> None:
        self.decision = decision


def _signal(out: Any) -> Signal:
    kind = type(out)
    if kind is Decision:
        return RawAsk(out)
    if kind is Ask or kind is Call or kind is Return:
        return out   # a generator may yield a signal of its own
    if isinstance(out, Frame) or kind in ENTRY_TYPES:
        return Call(out)
    if isinstance(out, Generator):
        return Call(GenFrame(out))
    raise EngineError(f"a procedure yielded {type(out).__name__}, not a Decision, Ask or Frame")


register_frame("frames.done")(Done)
# stack entries that are not Frames (machine.Cont registers itself): a generator may yield one to call it
ENTRY_TYPES: set[type] = set()


def as_frame(procedure: Any) -> Entry:
    """A stack entry for a step procedure: frames and continuations as they are, generators in a GenFrame."""
    return procedure if isinstance(procedure, Frame) or type(procedure) in ENTRY_TYPES else GenFrame(procedure)


# --- the runner ---------------------------------------------------------------------------------------
class Runner:
    """Drives a stack of frames until a real decision or until the stack is empty.

    Ask semantics (exactly decisions.ask_action's): no options is an EngineError; options with identical ids are
    one choice (the first is kept); a single distinct option is answered at once without asking, unless the Ask
    says `always` (the option count depends on hidden facts). Anything else
    stops the run with a Decision; `answer(option_id)` is the value the asking frame resumes with.
    """

    __slots__ = ("rt", "stack", "budget", "limit", "result", "raw")

    def __init__(self, rt: Runtime, stack: list[Entry], limit: int) -> None:
        self.rt = rt
        self.stack = stack
        self.limit = limit
        self.budget = limit
        self.result: Any = None     # the return value of the last frame popped off an emptied stack
        self.raw = False            # the pending decision came from a generator: answer it with the id

    def value_of(self, decision: Decision, option_id: str) -> Any:
        """The value the asking frame resumes with: the option's action (an Ask) or its id (a raw Decision)."""
        return option_id if self.raw else decision.action_of(option_id)

    def tick(self) -> None:
        """Count one unit of work against the limit (flow steps count too)."""
        self.budget -= 1
        if self.budget < 0:
            raise EngineError(f"no decision after {self.limit} steps: the state or content loops")

    def run(self, value: Any) -> Decision | None:
        """Resume the top frame with `value` and go on until a Decision (returned) or an empty stack (None)."""
        rt = self.rt
        stack = self.stack
        budget = self.budget   # tick(), inlined with a local count: this loop runs for every resumption
        while True:
            budget -= 1
            if budget < 0:
                raise EngineError(f"no decision after {self.limit} steps: the state or content loops")
            top = stack[-1]
            try:
                sig = top.resume(rt, value)
            except Exception as exc:   # noqa: BLE001 - handed to the parent frame, as `try` across `yield from`
                sig = self._unwind(exc)
            if type(sig) is Call:
                child = sig.frame
                if type(child) is Done:   # it would return its value at once: hand it over without pushing it
                    value = child.value
                    continue
                # a frame or a program's continuation (machine.Cont) as it is; a generator wrapped
                stack.append(GenFrame(child) if type(child) is GeneratorType else child)   # type: ignore[arg-type]
                value = None
            elif type(sig) is Return:
                stack.pop()
                value = sig.value
                if not stack:
                    self.result = value
                    self.budget = budget
                    return None
            elif type(sig) is Ask:
                options = sig.options
                if not options:
                    raise EngineError(f"no legal option for {sig.kind}")
                chosen = options[0]
                if len(options) > 1 or sig.always:
                    index = distinct_index(options)
                    if len(index) > 1 or sig.always:
                        self.raw = False
                        self.budget = budget
                        # the prompt is a Text, built when read
                        decision = Decision(sig.player, sig.kind, sig.prompt,   # type: ignore[arg-type]
                                            tuple(index.values()))
                        decision.__dict__["_index"] = index   # Decision.index(), already built
                        return decision
                value = chosen.action
                if value is None:
                    raise EngineError(f"option {chosen.id} of {sig.kind} has no action")
            elif type(sig) is RawAsk:
                self.raw = True
                self.budget = budget
                return sig.decision
            else:
                raise EngineError(f"frame {type(top).__name__} returned {type(sig).__name__}, not Ask, Call or Return")

    def _unwind(self, exc: Exception) -> Signal:
        """Pop the failed frame and let the parents handle `exc`; re-raise it when none does."""
        stack = self.stack
        stack.pop()
        while stack:
            try:
                return stack[-1].fail(self.rt, exc)
            except Exception as again:   # noqa: BLE001 - the parent re-raised: on to its parent
                exc = again
                stack.pop()
        raise exc


def drive(rt: Runtime, frame: Entry) -> Generator[Decision, str, Any]:
    """Run a frame inside a generator: yields each Decision, receives the option id, returns the frame's value.

    The old generator names of converted procedures are `drive` wrappers, so a caller that is itself a generator
    (`yield from payment.pay(...)`) and tests that drive a procedure by hand work unchanged. A converted caller
    uses `Call(TheFrame(...))` instead, so the frame lands on the game's stack, where it can be copied.
    """
    runner = Runner(rt, [frame], 1 << 62)
    decision = runner.run(None)
    while decision is not None:
        answer = yield decision
        decision = runner.run(runner.value_of(decision, answer))
    return runner.result


def has_generators(stack: list[Frame]) -> bool:
    """True when a generator frame is on the stack (then it can be neither copied nor saved)."""
    for f in stack:
        if type(f) is GenFrame:
            return True
    return False


# --- copying ------------------------------------------------------------------------------------------
class Uncopyable(Exception):
    """A frame holds something that is not plain data (a generator, a State object): replay instead."""


_ATOMS = frozenset({type(None), bool, int, str, float})
# mutable plain-data classes copied with the memo (frames sharing one keep sharing the copy), by their save tag
MUTABLES: dict[str, type] = {"ctx": Ctx, "turn": Turn, "ability": Ability}
_MUTABLE_TAGS: dict[type, str] = {cls: tag for tag, cls in MUTABLES.items()}


def register_mutable(name: str) -> Callable[[type], type]:
    """Class decorator for a mutable dataclass of plain data a frame may hold and several frames may share (like
    Ctx and Turn): copied with the memo, saved by `name` with its fields (e.g. Kiwibot's segment plan)."""
    def decorate(cls: type) -> type:
        if name in MUTABLES and MUTABLES[name] is not cls or name in ("dict", "ref", "node", "value", "action",
                                                                        "option", *_CONTAINERS_NAMES):
            raise ValueError(f"mutable kind `{name}` is taken")
        MUTABLES[name] = cls
        _MUTABLE_TAGS[cls] = name
        return cls
    return decorate


_CONTAINERS_NAMES = ("tuple", "set", "frozenset")
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
        items = tuple(_copy(v, memo) for v in value)
        return value if all(a is b for a, b in zip(items, value)) else items
    if kind is set:
        return set(value) if all(type(v) in _ATOMS for v in value) else {_copy(v, memo) for v in value}
    if kind is frozenset:
        if not value or all(type(v) in _ATOMS for v in value):
            return value
        raise Uncopyable("a frozenset of objects")
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
    raise Uncopyable(f"a frame holds a {kind.__name__}")


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


def copy_stack(stack: list[Frame]) -> list[Frame]:
    """Independent copies of explicit frames (one memo: shared Ctx/Turn/Ability stay shared); Uncopyable else."""
    memo: dict[int, Any] = {}
    out = []
    new = object.__new__
    for f in stack:
        kind = type(f)
        if kind is GenFrame:
            raise Uncopyable("a generator frame is running")
        twin = new(kind)
        twin.__dict__ = _copy_fields(f.__dict__, memo, kind)
        out.append(twin)
    return out


# --- saving: frames as JSON data ----------------------------------------------------------------------
# (nodes, addresses) of each live Rules, dropped with it (interpreter/memo.py PerOwner): it was kept for every
# Rules a process ever saved with
_INDEX = PerOwner()


def node_index(rules: Any) -> tuple[list[Any], dict[int, int]]:
    """Every DSL node of the compiled rules in a fixed order (the walk of the rules' fields), and the address of
    each by identity: how a save names the node a frame runs. Built once per Rules."""
    cached = _INDEX.get(rules)
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
    return _INDEX.put(rules, (nodes, where))


class Unsaveable(Exception):
    """A frame holds something a save cannot name (a node built during play, an object): save the replay."""


def stack_to_data(stack: list[Frame], rules: Any) -> list[dict]:
    """The stack as JSON data: [{"kind", "pc", "fields"}]; Unsaveable when a frame cannot be written."""
    _, where = node_index(rules)
    refs: dict[int, int] = {}
    return [frame_to_data(f, where, refs) for f in stack]


def frame_to_data(f: Frame, where: dict[int, int], refs: dict[int, int]) -> dict:
    """One frame as {"kind", "pc", "fields"} (`where`: node addresses; `refs`: the stack's shared mutables)."""
    if type(f) is GenFrame:
        raise Unsaveable("a generator frame is running")
    fields = {k: _encode(v, where, refs) for k, v in f.__dict__.items() if k != "pc"}
    return {"kind": f.kind, "pc": f.pc, "fields": fields}


def _encode(value: Any, where: dict[int, int], refs: dict[int, int]) -> Any:
    kind = type(value)
    if kind in _ATOMS:
        if kind is float:
            raise Unsaveable("a float")
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
        if address is None:
            raise Unsaveable("a DSL node built during play")
        return {"$": "node", "a": address}
    raise Unsaveable(f"a frame holds a {kind.__name__}")


class FrameDataError(ValueError):
    """Saved frames that do not describe frames of this engine (the message says where)."""


def stack_from_data(data: Any, rules: Any) -> list[Frame]:
    """Frames from `stack_to_data` output, checked: known kinds, exactly their fields, values of allowed types.
    (Game.from_json then calls each frame's optional `check(rt)` against the loaded state.)"""
    if not isinstance(data, list) or not data:
        raise FrameDataError("frames: expected a non-empty list")
    nodes, _ = node_index(rules)
    refs: dict[int, Any] = {}
    return [frame_from_data(item, f"frames/{i}", nodes, refs) for i, item in enumerate(data)]


def frame_from_data(item: Any, where: str, nodes: list[Any], refs: dict[int, Any]) -> Frame:
    """One frame from its data (`where`: its path in messages; `refs`: the stack's shared mutables so far)."""
    if not isinstance(item, dict) or set(item) != {"kind", "pc", "fields"}:
        raise FrameDataError(f"{where}: expected an object with kind, pc and fields")
    cls = FRAME_KINDS.get(item["kind"]) if isinstance(item["kind"], str) else None
    if cls is None:
        raise FrameDataError(f"{where}: unknown frame kind {str(item['kind'])[:40]!r}")
    pc = item["pc"]
    if type(pc) is not int or not 0 <= pc <= getattr(cls, "max_pc", 64):
        raise FrameDataError(f"{where}/pc: {str(pc)[:20]} is not a step of {cls.kind}")
    fields = item["fields"]
    names = {f.name for f in dataclasses.fields(cls)} - {"pc"}
    if not isinstance(fields, dict) or set(fields) != names:
        raise FrameDataError(f"{where}/fields: {cls.kind} has the fields {', '.join(sorted(names))}")
    frame = object.__new__(cls)
    for f in dataclasses.fields(cls):
        if f.name == "pc":
            continue
        value = _decode(fields[f.name], nodes, refs, f"{where}/fields/{f.name}")
        allowed = _allowed(f.type)
        if allowed is not None and not isinstance(value, allowed):
            raise FrameDataError(f"{where}/fields/{f.name}: a {type(value).__name__}, not {f.type}")
        frame.__dict__[f.name] = value
    frame.pc = pc
    return frame


_CONTAINERS = {"tuple": tuple, "set": set, "frozenset": frozenset}
_TYPE_NAMES = {"str": str, "int": int, "bool": bool, "list": list, "tuple": tuple, "dict": dict, "set": set,
               "None": type(None), "Ctx": Ctx, "Turn": Turn, "Ability": Ability}


def _allowed(annotation: Any) -> tuple[type, ...] | None:
    """The types a field annotated `annotation` (a string such as "str | None") may hold; None: any."""
    parts = [p.strip() for p in str(annotation).split("|")]
    if not all(p in _TYPE_NAMES for p in parts):
        return None
    return tuple(_TYPE_NAMES[p] for p in parts)


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
    except FrameDataError:
        raise
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise FrameDataError(f"{where}: bad {tag} data ({type(exc).__name__})") from None
    raise FrameDataError(f"{where}: unknown tag {tag[:20]!r}")


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
