"""The rules machine: procedures as programs of a few instruction kinds, continuations as plain data.

A `Program` is a named sequence of instructions (frozen dataclasses, built once at import by `program`):

    Ask(name, build, into, kinds, otherwise)   ask a decision: `build(rt, env)` gives a `Question` or None
    Call(name, build, into)                    run a child procedure: `build(rt, env)` gives it, or None
    Do(fn)                                     a state update: `fn(rt, env)`, returns None
    Emit(form, build)                          an event: `build(rt, env)` gives (player, fields)
    If(cond, then, orelse)                     `cond(rt, env)` chooses a branch
    ForEach(var, items, body)                  the body once per item of `items(rt, env)`, the item in env[var]
    While(cond, body)                          the body while `cond(rt, env)` holds
    Label(name) / Jump(label)                  a place in the program, and a jump to it
    Return(value)                              end the program; `value(rt, env)` (or None) goes to the caller

A running program is a `Cont` (continuation): the program, where it resumes, and an environment `env`, a plain
dict of the values values.py copies and saves (atoms, containers, Ctx/Turn/Ability and registered mutables,
actions, options, decisions, registered values, DSL nodes; anything else is an error of the program, never a
replay). The runner (`Runner`, and `step` on it, below) drives a stack of them: `resume(rt, value)` runs
instructions until an Ask or a Call suspends it, then the answer (the chosen option's action) or the child's
return value is stored into the env name the suspending instruction gives (`into`). A save names the program by
its id and the resume point by the `name` of the Ask or Call it waits on, never by a number: reordering other
instructions keeps saves loadable. See docs/machine.md.

Each program is compiled once into "threaded code": a tuple of plain functions, one per instruction (consecutive
Do and Emit merged into one), each called as `op(rt, env)` and returning None (go on), an int (jump there), a
signal (a Question or a Return: suspend or return) or a child to call (suspend). A Do, an Ask without `otherwise`
and a Call without `into` are their own builder function, so running one is one call.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence, Union

from kcd.engine import values as F
from kcd.engine.context import EngineError, Runtime
from kcd.core.decisions import Decision, distinct_index
from kcd.engine.values import Ask as Question          # what an Ask's builder returns
from kcd.engine.values import FrameDataError, RETURN

Env = dict[str, Any]   # a continuation's environment: names to saveable values (values.py)
# the types an env name may hold (checked on load); None: any saveable value
Types = Union[type, tuple[type, ...], None]

__all__ = ["Ask", "Call", "Do", "Emit", "If", "ForEach", "While", "Label", "Jump", "Return", "Program", "Cont",
           "Question", "program", "PROGRAMS", "copy_stack", "stack_to_data", "stack_from_data", "OldFrames",
           "Runner", "step", "Done"]


# --- instructions -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Ask:
    """Ask a decision: `build(rt, env)` returns the `Question` (a values.Ask) or None when there is nothing to ask
    (then the program goes on at the Label `otherwise`, or at the next instruction when it is None; env[`into`] is
    not set then). The answer, the chosen option's action, is stored in env[`into`] (None: dropped). `kinds`: the
    decision kinds this Ask may ask and the action kinds of their options, {decision kind: (action kind, ...)},
    checked when a save is loaded."""

    name: str
    build: Callable[[Runtime, Env], "Question | None"]
    into: str | None = None
    kinds: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    otherwise: str | None = None


@dataclass(frozen=True)
class Call:
    """Run a child procedure: `build(rt, env)` returns a Cont (a program's `start`), a values.Call signal (its
    continuation is run), or None (nothing to run: go on at once, env[`into`] set to None). The child's return
    value is stored in env[`into`]."""

    name: str
    build: Callable[[Runtime, Env], Any]
    into: str | None = None


@dataclass(frozen=True)
class Do:
    """A state update: `fn(rt, env)` changes the state or the env and returns None."""

    fn: Callable[[Runtime, Env], None]


@dataclass(frozen=True)
class Emit:
    """An event of `form` (events.FORMS): `build(rt, env)` returns (player, {field: value})."""

    form: str
    build: Callable[[Runtime, Env], tuple[str | None, dict[str, Any]]]


@dataclass(frozen=True)
class If:
    """`then` when `cond(rt, env)` holds, else `orelse`."""

    cond: Callable[[Runtime, Env], bool]
    then: tuple[Any, ...] = ()
    orelse: tuple[Any, ...] = ()


@dataclass(frozen=True)
class ForEach:
    """`body` once for each item of `items(rt, env)` (read once, when the loop starts), the item in env[`var`].
    The items and the position are kept in env as "`var`.items" and "`var`.i" (saved like any env value)."""

    var: str
    items: Callable[[Runtime, Env], Iterable[Any]]
    body: tuple[Any, ...] = ()


@dataclass(frozen=True)
class While:
    """`body` again and again while `cond(rt, env)` holds (checked before each round)."""

    cond: Callable[[Runtime, Env], bool]
    body: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Label:
    """A place a Jump or an Ask's `otherwise` goes to."""

    name: str


@dataclass(frozen=True)
class Jump:
    """Go on at the Label `label`."""

    label: str


@dataclass(frozen=True)
class Return:
    """End the program: `value(rt, env)` (None: no value) goes to the caller."""

    value: Callable[[Runtime, Env], Any] | None = None


Instruction = Union[Ask, Call, Do, Emit, If, ForEach, While, Label, Jump, Return]
START = "start"   # the resume point of a program that has not run yet
_END = ("end",)   # in `Program.stores`: resuming here returns at once (a plain Return follows)


# --- programs -----------------------------------------------------------------------------------------
PROGRAMS: dict[str, "Program"] = {}


@dataclass(frozen=True, eq=False)
class Program:
    """A procedure: `id` (stable, in saves), its parameters, the types of every env name, its instructions, an
    optional `check(rt, env, at)` of a loaded continuation against the loaded state (FrameDataError when wrong),
    an optional `catch(rt, env, exc)` for an exception a child raised: it re-raises, or returns the Label to go
    on at (None: the program returns), as a `try` around the call would, and an optional
    `check_answer(rt, env, at, decision)` of a loaded pending decision (the question recomputed from the state)."""

    id: str
    params: tuple[str, ...]
    vars: Mapping[str, Types]
    body: tuple[Any, ...]
    check: Callable[[Runtime, Env, str], None] | None = None
    catch: Callable[[Runtime, Env, Exception], "str | None"] | None = None
    # optional: refuse a loaded pending decision that is not the one the program asks at `at` (FrameDataError)
    check_answer: Callable[[Runtime, Env, str, Any], None] | None = None
    # compiled (by `program`): the threaded code, per resume index the env name its value goes to, and the labels
    code: tuple[Callable[[Runtime, Env], Any], ...] = ()
    stores: tuple[Any, ...] = ()
    resume_at: Mapping[str, int] = field(default_factory=dict)     # Ask/Call name -> resume index
    label_of: Mapping[int, str] = field(default_factory=dict)      # resume index -> Ask/Call name
    asks: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)   # Ask name -> its kinds
    labels: Mapping[str, int] = field(default_factory=dict)        # Label name -> index

    def start(self, *args: Any) -> "Cont":
        """A continuation of this program at its start, its parameters bound to `args` (replaced, per program, by
        `_starter`'s faster function of the same meaning)."""
        params = self.params
        if len(args) != len(params):
            raise EngineError(f"{self.id} takes {len(params)} values ({', '.join(params)}), not {len(args)}")
        return Cont(self, dict(zip(params, args)))


def program(id: str, params: Sequence[str], vars: Mapping[str, Types], *body: Instruction,
            check: Callable[[Runtime, Env, str], None] | None = None,
            catch: Callable[[Runtime, Env, Exception], "str | None"] | None = None,
            check_answer: Callable[[Runtime, Env, str, Any], None] | None = None) -> Program:
    """Build, compile and register the program `id` (import time): `params` name the values `start` binds, `vars`
    gives the type of every env name (params included; loop variables too); `check`, `catch` and `check_answer`
    as in Program."""
    if id in PROGRAMS:
        raise ValueError(f"program `{id}` is defined twice")
    missing = [p for p in params if p not in vars]
    if missing:
        raise ValueError(f"program `{id}`: no type for the parameters {', '.join(missing)}")
    all_vars = dict(vars)
    flat: list[Any] = []
    _flatten(id, body, flat, all_vars, [0])
    code, stores, resume_at, asks, labels = _compile(id, flat, all_vars)
    prog = Program(id, tuple(params), all_vars, tuple(body), check, catch, check_answer, code, stores, resume_at,
                   {i: n for n, i in resume_at.items()}, asks, labels)
    object.__setattr__(prog, "start", _starter(prog))
    PROGRAMS[id] = prog
    return prog


def _starter(prog: Program) -> Callable[..., "Cont"]:
    """`prog.start` for its number of parameters: the env built directly (a procedure starts for every call)."""
    new = object.__new__
    params = prog.params
    if len(params) == 1:
        (a,) = params

        def start1(x: Any) -> Cont:
            c = new(Cont)
            c.program, c.at, c.env = prog, 0, {a: x}
            return c
        return start1
    if len(params) == 2:
        a, b = params

        def start2(x: Any, y: Any) -> Cont:
            c = new(Cont)
            c.program, c.at, c.env = prog, 0, {a: x, b: y}
            return c
        return start2
    if len(params) == 3:
        a, b, d = params

        def start3(x: Any, y: Any, z: Any) -> Cont:
            c = new(Cont)
            c.program, c.at, c.env = prog, 0, {a: x, b: y, d: z}
            return c
        return start3
    return prog.start   # (the method: `program` replaces it with this function only after)


def _flatten(pid: str, body: Sequence[Any], out: list[Any], vars: dict[str, Types], fresh: list[int]) -> None:
    """Structured instructions lowered to a flat list of Ask, Call, Do, Emit, Label, Return and the jumps
    ("jump", label), ("unless", cond, label), ("when", cond, label) and the loop steps ("first", ...) and
    ("again", ...)."""
    for ins in body:
        kind = type(ins)
        for fn in (getattr(ins, n, None) for n in ("build", "fn", "cond", "items", "value")):
            if fn is not None and not _named_function(fn):
                raise ValueError(f"program `{pid}`: {getattr(fn, '__qualname__', fn)!r} in {kind.__name__} is not a "
                                 "module-level named function (a compiled machine maps them by name)")
        if kind is If:
            fresh[0] += 1
            other, end = f"#else{fresh[0]}", f"#end{fresh[0]}"
            out.append(("unless", ins.cond, other))
            _flatten(pid, ins.then, out, vars, fresh)
            if ins.orelse:
                out.append(("jump", end))
            out.append(Label(other))
            if ins.orelse:
                _flatten(pid, ins.orelse, out, vars, fresh)
                out.append(Label(end))
        elif kind is While:
            # tested before the first round and after each (one op a round): unless; body; when -> body
            fresh[0] += 1
            top, end = f"#loop{fresh[0]}", f"#done{fresh[0]}"
            out.append(("unless", ins.cond, end))
            out.append(Label(top))
            _flatten(pid, ins.body, out, vars, fresh)
            out.append(("when", ins.cond, top))
            out.append(Label(end))
        elif kind is ForEach:
            # the first item taken when the loop starts, each next one after the body (one op a round)
            fresh[0] += 1
            top, end = f"#each{fresh[0]}", f"#over{fresh[0]}"
            if ins.var not in vars:
                raise ValueError(f"program `{pid}`: no type for the loop variable {ins.var}")
            items, index = f"{ins.var}.items", f"{ins.var}.i"
            vars[items], vars[index] = tuple, int
            out.append(("first", ins.items, ins.var, items, index, end))
            out.append(Label(top))
            _flatten(pid, ins.body, out, vars, fresh)
            out.append(("again", ins.var, items, index, top))
            out.append(Label(end))
        elif kind is Jump:
            out.append(("jump", ins.label))
        elif kind in (Ask, Call, Do, Emit, Label, Return):
            out.append(ins)
        else:
            raise ValueError(f"program `{pid}`: {ins!r} is not an instruction")


def _named_function(fn: Any) -> bool:
    """True for a function defined at a module's top level (no lambda, no closure, no method)."""
    name = getattr(fn, "__name__", "")
    return callable(fn) and name != "<lambda>" and getattr(fn, "__qualname__", "") == name


def _compile(pid: str, flat: list[Any], vars: Mapping[str, Types]) -> tuple[
        tuple[Callable[[Runtime, Env], Any], ...], tuple[Any, ...], dict[str, int],
        dict[str, Mapping[str, tuple[str, ...]]], dict[str, int]]:
    """The threaded code of a flat program: one function per instruction, runs of Do/Emit merged into one (a label
    between them keeps them apart), and an implicit Return at the end."""
    # pass 1: group into ops and find where each label lands
    groups: list[list[Any]] = []
    labels: dict[str, int] = {}
    for ins in flat:
        if type(ins) is Label:
            if ins.name in labels:
                raise ValueError(f"program `{pid}`: label {ins.name} is defined twice")
            labels[ins.name] = len(groups)
            groups.append([])       # a fresh group starts at a label (it may stay empty: dropped below)
            continue
        mergeable = type(ins) in (Do, Emit)
        if mergeable and groups and groups[-1] and all(type(g) in (Do, Emit) for g in groups[-1]):
            groups[-1].append(ins)
        else:
            groups.append([ins])
    groups.append([Return()])
    # drop empty groups, mapping labels to the next real op
    index: list[int] = []
    n = 0
    for g in groups:
        index.append(n)
        if g:
            n += 1
    labels = {k: index[v] for k, v in labels.items()}
    ops = [g for g in groups if g]

    def target(name: str) -> int:
        if name not in labels:
            raise ValueError(f"program `{pid}`: no label {name}")
        return labels[name]

    def returns_next(i: int) -> bool:
        """The op after op `i` is a plain Return: a loop's last test there returns itself (one op fewer a run)."""
        nxt = ops[i + 1] if i + 1 < len(ops) else None
        return nxt is not None and len(nxt) == 1 and type(nxt[0]) is Return and nxt[0].value is None

    code: list[Callable[[Runtime, Env], Any]] = []
    stores: list[Any] = [None]   # per resume index: the env name, None, _END, or (env name, updates)
    resume_at: dict[str, int] = {START: 0}
    asks: dict[str, Mapping[str, tuple[str, ...]]] = {}
    for i, g in enumerate(ops):
        ins = g[0]
        store = None
        if len(g) > 1 or type(ins) in (Do, Emit):
            code.append(_updates(g))
        elif type(ins) is Ask:
            _named(pid, ins.name, resume_at, i + 1)
            asks[ins.name] = dict(ins.kinds)
            if not ins.kinds or not all(ins.kinds.values()):
                raise ValueError(f"program `{pid}`: Ask {ins.name} declares no decision and action kinds")
            code.append(ins.build if ins.otherwise is None else _ask(ins.build, target(ins.otherwise)))
            store = ins.into
        elif type(ins) is Call:
            _named(pid, ins.name, resume_at, i + 1)
            code.append(ins.build if ins.into is None else _call_into(ins.build, ins.into))
            store = ins.into
        elif type(ins) is Return:
            code.append(_return(ins.value))
        elif ins[0] == "jump":
            code.append(_jump(target(ins[1])))
        elif ins[0] == "unless":
            code.append(_unless(ins[1], target(ins[2])))
        elif ins[0] == "when":
            code.append(_when(ins[1], target(ins[2]), returns_next(i)))
        elif ins[0] == "first":
            code.append(_first(ins[1], ins[2], ins[3], ins[4], target(ins[5])))
        elif ins[0] == "again":
            code.append(_again(ins[1], ins[2], ins[3], target(ins[4]), returns_next(i)))
        else:
            raise ValueError(f"program `{pid}`: cannot compile {ins!r}")
        if store is not None and store not in vars:
            raise ValueError(f"program `{pid}`: no type for {store}")
        stores.append(store)
    # resuming right before a plain Return (the answer or value dropped) returns at once, without calling it;
    # resuming right before updates (Do, Emit) and a plain Return runs the updates and returns (no op for the Return)
    for i, g in enumerate(ops):
        if not i or type(ops[i - 1][0]) not in (Ask, Call) or len(ops[i - 1]) != 1:
            continue
        if stores[i] is None and type(g[0]) is Return and g[0].value is None and len(g) == 1:
            stores[i] = _END
        elif all(type(x) in (Do, Emit) for x in g) and returns_next(i):
            stores[i] = (stores[i], code[i])
    return tuple(code), tuple(stores[:len(code)]), resume_at, asks, labels


def _named(pid: str, name: str, resume_at: dict[str, int], at: int) -> None:
    if name in resume_at:
        raise ValueError(f"program `{pid}`: the name {name} is used twice")
    resume_at[name] = at


def _updates(group: list[Any]) -> Callable[[Runtime, Env], None]:
    """One op for a run of Do and Emit: a lone Do is its own function (a Do returns None)."""
    steps = [ins.fn if type(ins) is Do else _emit(ins.form, ins.build) for ins in group]
    if len(steps) == 1:
        return steps[0]
    if len(steps) == 2:
        first, second = steps

        def two(rt: Runtime, env: Env) -> None:
            first(rt, env)
            second(rt, env)
        return two
    run = tuple(steps)

    def many(rt: Runtime, env: Env) -> None:
        for step in run:
            step(rt, env)
    return many


def _emit(form: str,
          build: Callable[[Runtime, Env], tuple[str | None, dict[str, Any]]]) -> Callable[[Runtime, Env], None]:
    def op(rt: Runtime, env: Env) -> None:
        player, fields = build(rt, env)
        rt.emit(form, player, None, **fields)
    return op


def _ask(build: Callable[[Runtime, Env], Any], otherwise: int) -> Callable[[Runtime, Env], Any]:
    def ask_or(rt: Runtime, env: Env) -> Any:
        q = build(rt, env)
        return q if q is not None else otherwise
    return ask_or


def _call_into(build: Callable[[Runtime, Env], Any], into: str) -> Callable[[Runtime, Env], Any]:
    def call_into(rt: Runtime, env: Env) -> Any:
        child = build(rt, env)
        if child is None:
            env[into] = None
        return child
    return call_into


def _return(value: Callable[[Runtime, Env], Any] | None) -> Callable[[Runtime, Env], Any]:
    if value is None:
        def done(rt: Runtime, env: Env) -> Any:
            return RETURN
        return done
    ReturnSignal = F.Return

    def give(rt: Runtime, env: Env) -> Any:
        return ReturnSignal(value(rt, env))
    return give


def _jump(to: int) -> Callable[[Runtime, Env], int]:
    def jump(rt: Runtime, env: Env) -> int:
        return to
    return jump


def _unless(cond: Callable[[Runtime, Env], bool], to: int) -> Callable[[Runtime, Env], int | None]:
    def unless(rt: Runtime, env: Env) -> int | None:
        return None if cond(rt, env) else to
    return unless


def _when(cond: Callable[[Runtime, Env], bool], to: int, last: bool = False) -> Callable[[Runtime, Env], Any]:
    """Back to the loop's body while `cond` holds; then on (`last`: return, a plain Return follows)."""
    if last:
        def when_or_return(rt: Runtime, env: Env) -> Any:
            return to if cond(rt, env) else RETURN
        return when_or_return

    def when(rt: Runtime, env: Env) -> int | None:
        return to if cond(rt, env) else None
    return when


def _first(items: Callable[[Runtime, Env], Iterable[Any]], var: str, key: str, index: str,
           end: int) -> Callable[[Runtime, Env], int | None]:
    def first(rt: Runtime, env: Env) -> int | None:
        env[key] = seq = tuple(items(rt, env))
        if not seq:
            return end
        env[var] = seq[0]
        env[index] = 1
        return None
    return first


def _again(var: str, key: str, index: str, body: int, last: bool = False) -> Callable[[Runtime, Env], Any]:
    """The next item and back to the loop's body; after the last one on (`last`: return, a plain Return follows)."""
    over = RETURN if last else None

    def again(rt: Runtime, env: Env) -> Any:
        i = env[index]
        seq = env[key]
        if i >= len(seq):
            return over
        env[var] = seq[i]
        env[index] = i + 1
        return body
    return again


# --- continuations ------------------------------------------------------------------------------------
CallSignal = F.Call
ReturnSignal = F.Return


class Cont:
    """A running program: `program`, the index `at` it resumes at, and its environment `env` (plain data)."""

    __slots__ = ("program", "at", "env")

    def __init__(self, program: Program, env: Env, at: int = 0) -> None:
        self.program = program
        self.env = env
        self.at = at

    @property
    def kind(self) -> str:
        """The program's id (a frame's `kind`, in messages)."""
        return self.program.id

    @property
    def label(self) -> str:
        """The name of the Ask or Call the continuation waits on ("start" before it runs)."""
        return self.program.label_of[self.at]

    def resume(self, rt: Runtime, value: Any) -> Any:
        """Store `value` where the suspending instruction says, then run until an Ask, a Call or a Return."""
        prog = self.program
        env = self.env
        at = self.at
        name = prog.stores[at]
        if name is not None:
            if name is _END:
                return RETURN
            if type(name) is tuple:   # (the env name or None, the updates): a plain Return follows them
                into, updates = name
                if into is not None:
                    env[into] = value
                updates(rt, env)
                return RETURN
            env[name] = value
        code = prog.code
        while True:
            r = code[at](rt, env)
            if r is None:
                at += 1
                continue
            kind = type(r)
            if kind is int:
                at = r
                continue
            self.at = at + 1
            if kind is Question or kind is ReturnSignal or kind is CallSignal:
                return r
            return CallSignal(r)   # a Call's child (a Cont)

    def fail(self, rt: Runtime, exc: Exception) -> Any:
        """A child raised `exc`: the program's `catch` re-raises it or names the Label to go on at (None: return);
        without a `catch` it goes on to the caller."""
        catch = self.program.catch
        if catch is None:
            raise exc
        label = catch(rt, self.env, exc)
        if label is None:
            return RETURN
        self.at = self.program.labels[label]
        return self.resume(rt, None)

    def __repr__(self) -> str:
        return f"Cont({self.program.id} at {self.label}, {self.env!r})"


# --- the runner ---------------------------------------------------------------------------------------
class Runner:
    """Drives a stack of continuations until a real decision or until the stack is empty.

    Ask semantics: no options is an EngineError; options with identical ids are
    one choice (the first is kept); a single distinct option is answered at once without asking, unless the Ask
    says `always` (the option count depends on hidden facts). Anything else stops the run with a Decision;
    `value_of(decision, option_id)` is the value the asking continuation resumes with.
    """

    __slots__ = ("rt", "stack", "budget", "limit", "result")

    def __init__(self, rt: Runtime, stack: list["Cont"], limit: int) -> None:
        self.rt = rt
        self.stack = stack
        self.limit = limit
        self.budget = limit
        self.result: Any = None     # the return value of the last continuation popped off an emptied stack

    @staticmethod
    def value_of(decision: Decision, option_id: str) -> Any:
        """The value the asking continuation resumes with: the chosen option's action."""
        return decision.action_of(option_id)

    def tick(self) -> None:
        """Count one unit of work against the limit (flow steps count too)."""
        self.budget -= 1
        if self.budget < 0:
            raise EngineError(f"no decision after {self.limit} steps: the state or content loops")

    def run(self, value: Any) -> Decision | None:
        """Resume the top continuation with `value` and go on until a Decision (returned) or an empty stack
        (None)."""
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
            except Exception as exc:   # noqa: BLE001 - handed to the caller's `catch`, as a `try` around a call
                sig = self._unwind(exc)
            kind = type(sig)
            if kind is CallSignal:
                child = sig.frame
                if child is None:   # nothing to run: the caller goes on at once
                    value = None
                    continue
                stack.append(child)
                value = None
            elif kind is ReturnSignal:
                stack.pop()
                value = sig.value
                if not stack:
                    self.result = value
                    self.budget = budget
                    return None
            elif kind is Question:
                options = sig.options
                if not options:
                    raise EngineError(f"no legal option for {sig.kind}")
                chosen = options[0]
                if len(options) > 1 or sig.always:
                    index = distinct_index(options)
                    if len(index) > 1 or sig.always:
                        self.budget = budget
                        # the prompt is a Text, built when read
                        decision = Decision(sig.player, sig.kind, sig.prompt,
                                            tuple(index.values()))
                        decision.__dict__["_index"] = index   # Decision.index(), already built
                        return decision
                value = chosen.action
                if value is None:
                    raise EngineError(f"option {chosen.id} of {sig.kind} has no action")
            else:
                raise EngineError(f"{top!r} returned {kind.__name__}, not Ask, Call or Return")

    def _unwind(self, exc: Exception) -> Any:
        """Pop the failed continuation and let the callers handle `exc`; re-raise it when none does."""
        stack = self.stack
        stack.pop()
        while stack:
            try:
                return stack[-1].fail(self.rt, exc)
            except Exception as again:   # noqa: BLE001 - the caller re-raised: on to its caller
                exc = again
                stack.pop()
        raise exc


# what `step` returns when the stack is empty: the return value of the program at its bottom
@dataclass(frozen=True)
class Done:
    """The stack ran empty: `value` is what the bottom program returned."""

    value: Any = None


def step(rules: Any, rt: Runtime, stack: list["Cont"], answer: Any = None, limit: int = 1 << 62) -> "Decision | Done":
    """Run `stack` (continuations, the running one last) with `answer` (None to start, else the chosen option's
    action) until the next decision (returned; the stack holds where it waits) or until it is empty (Done with the
    bottom program's return value). `rules` is the runtime's rules (`rt.rules`), named for the reader."""
    if rules is not rt.rules:
        raise EngineError("step: the rules are not the runtime's")
    runner = Runner(rt, stack, limit)
    decision = runner.run(answer)
    return Done(runner.result) if decision is None else decision


# --- the stack as data: copy, save, load, check ---------------------------------------------------------
def copy_stack(stack: list[Cont]) -> list[Cont]:
    """Independent copies of a stack of continuations (one memo: shared Ctx/Turn/Ability stay shared; frozen values,
    actions and DSL nodes shared). An env value that is not data is an error of its program: values.Uncopyable."""
    memo: dict[int, Any] = {}
    out: list[Cont] = []
    new = object.__new__
    copy = F._copy
    as_is = F._AS_IS
    try:
        for f in stack:
            twin = new(Cont)
            twin.program = f.program
            twin.at = f.at
            twin.env = {k: v if type(v) in as_is else copy(v, memo) for k, v in f.env.items()}
            out.append(twin)
    except F.Uncopyable as exc:
        raise F.Uncopyable(_not_data(stack, lambda v: F._copy(v, {}), F.Uncopyable, exc)) from None
    return out


def stack_to_data(stack: list[Cont], rules: Any) -> list[dict[str, Any]]:
    """The stack as JSON data: each continuation as {"program", "at", "env"}. An env value that is not data is an
    error of its program: values.Unsaveable."""
    _, where = F.node_index(rules)
    refs: dict[int, int] = {}
    encode = F._encode
    out = []
    try:
        for f in stack:
            out.append({"program": f.program.id, "at": f.program.label_of[f.at],
                        "env": {k: encode(v, where, refs) for k, v in f.env.items()}})
    except F.Unsaveable as exc:
        raise F.Unsaveable(_not_data(stack, lambda v: F._encode(v, where, {}), F.Unsaveable, exc)) from None
    return out


def _not_data(stack: list[Cont], attempt: Callable[[Any], object], error: type[Exception], exc: Exception) -> str:
    """The message of a stack that does not copy or save: the program and the env name holding the value that is
    not data, and its type (found again value by value: this runs only for a broken program)."""
    for f in stack:
        for name, value in f.env.items():
            try:
                attempt(value)
            except error as found:
                return (f"{f.program.id}: env `{name}` holds a {found} (at or inside it), which is not data a "
                        "continuation may hold (docs/machine.md)")
    return f"a continuation holds a {exc}, which is not data (docs/machine.md)"


class OldFrames(FrameDataError):
    """A save's frames are a format-3 stack of frames ({"kind", "pc", "fields"}; their kinds are program ids now):
    the save is loaded by replaying it."""


def stack_from_data(data: Any, rules: Any) -> list[Cont]:
    """A stack from `stack_to_data` output, checked: known programs at one of their Ask/Call names, env names of
    the program with values of their types. OldFrames for a format-3 frame ({"kind", "pc", "fields"})."""
    if not isinstance(data, list) or not data:
        raise FrameDataError("frames: expected a non-empty list")
    nodes, _ = F.node_index(rules)
    refs: dict[int, Any] = {}
    out: list[Any] = []
    for i, item in enumerate(data):
        where = f"frames/{i}"
        if _old_frame(item):
            raise OldFrames(f"{where}: `{str(item['kind'])[:40]}` is a program now, not a frame")
        if not isinstance(item, dict) or "program" not in item:
            raise FrameDataError(f"{where}: expected an object with program, at and env")
        out.append(_cont_from_data(item, where, nodes, refs))
    return out


def _cont_from_data(item: dict[str, Any], where: str, nodes: list[Any], refs: dict[int, Any]) -> Cont:
    if set(item) != {"program", "at", "env"}:
        raise FrameDataError(f"{where}: expected an object with program, at and env")
    pid = item["program"]
    prog = PROGRAMS.get(pid) if isinstance(pid, str) else None
    if prog is None:
        raise FrameDataError(f"{where}/program: unknown program {str(pid)[:40]!r}")
    at = item["at"]
    if not isinstance(at, str) or at not in prog.resume_at or at == START:
        raise FrameDataError(f"{where}/at: {str(at)[:40]!r} is not an Ask or Call of {pid}")
    env = item["env"]
    if not isinstance(env, dict):
        raise FrameDataError(f"{where}/env: expected an object")
    unknown = [k for k in env if k not in prog.vars]
    if unknown:
        raise FrameDataError(f"{where}/env: {pid} has no value {str(unknown[0])[:40]!r} "
                             f"(its names: {', '.join(prog.vars)})")
    missing = [p for p in prog.params if p not in env]
    if missing:
        raise FrameDataError(f"{where}/env: {pid} needs {', '.join(missing)}")
    decoded: dict[str, Any] = {}
    for name, raw in env.items():
        value = F._decode(raw, nodes, refs, f"{where}/env/{name}")
        allowed = prog.vars[name]
        if allowed is not None and not isinstance(value, allowed):
            raise FrameDataError(f"{where}/env/{name}: a {type(value).__name__}, not {_type_name(allowed)}")
        decoded[name] = value
    return Cont(prog, decoded, prog.resume_at[at])


def _type_name(allowed: Any) -> str:
    kinds = allowed if isinstance(allowed, tuple) else (allowed,)
    return " | ".join(k.__name__ for k in kinds)


def _old_frame(item: Any) -> bool:
    """True for a format-3 frame: {"kind", "pc", "fields"} (its kind is a program id or "frames.done" now)."""
    return isinstance(item, dict) and set(item) == {"kind", "pc", "fields"} and isinstance(item["kind"], str)


def names_programs(data: Any) -> bool:
    """True when saved frames are format-3 frames, each {"kind", "pc", "fields"}: the save loads by replay."""
    return isinstance(data, list) and any(_old_frame(item) for item in data)


def entry_kind(entry: "Cont") -> str:
    """A stack entry's name in messages: its program id."""
    return entry.program.id


def entry_step(entry: "Cont") -> str:
    """Where a stack entry waits, in messages: "at <name>"."""
    return f"at {entry.label}"


def entry_waits(entry: "Cont") -> bool:
    """True when the continuation waits for the answer to its Ask, False when it waits for a child."""
    return entry.label in entry.program.asks


def entry_ask_kinds(entry: "Cont") -> Mapping[str, tuple[str, ...]]:
    """The decision kinds (and their options' action kinds) the continuation may be waiting for."""
    return entry.program.asks.get(entry.label, {})


def entry_values(entry: "Cont") -> Iterable[tuple[str, Any]]:
    """The named values of a continuation: its env."""
    return entry.env.items()


def check_entry(entry: "Cont", rt: Runtime) -> None:
    """The program's own check of a loaded continuation against the loaded state, if it has one."""
    if entry.program.check is not None:
        entry.program.check(rt, entry.env, entry.label)


def check_pending(entry: "Cont", rt: Runtime, decision: Any) -> None:
    """The program's own check that a loaded pending decision is the one it asks (`check_answer`), if it has
    one."""
    if entry.program.check_answer is not None:
        entry.program.check_answer(rt, entry.env, entry.label, decision)
