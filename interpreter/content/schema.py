"""The project's JSON Schemas in one `referencing.Registry` (content, protocol, save), content checking with
readable, located messages, and DSL field discovery via `x-dsl`."""
from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

from kcd.core import paths
from kcd.content.yamlsafe import Path as YamlPath

# Bump when the way validity is decided changes (inlining, jsonschema major version): old cache entries lapse.
_ENGINE_VERSION = "kcd-schema-2"

# YAML 1.1 booleans that YAML 1.2 (and this loader) keep as strings.
YAML11_BOOLS = {"yes", "no", "on", "off", "y", "n", "Yes", "No", "On", "Off", "Y", "N", "YES", "NO", "ON", "OFF"}

_ANNOTATIONS = {"description", "title", "examples", "default", "$comment", "deprecated", "readOnly", "writeOnly"}

_TYPE_NAMES = {"integer": "a whole number", "number": "a number", "string": "text", "boolean": "true or false",
               "array": "a list", "object": "a mapping", "null": "empty (null)"}


@dataclass(frozen=True)
class SchemaProblem:
    """One schema finding: the failing path, whether to point at the key, the message and a hint."""

    path: YamlPath
    message: str
    at_key: bool = False
    hint: str | None = None


# --- the one registry of the shipped schemas --------------------------------------------------------------

# Every schema file of a schemas folder is known by one URI: a content schema by its `$id`, a protocol message
# schema (protocol/) by its `urn:kcd-protocol:` name. Only these two forms are ever looked up on disk.
CONTENT_URI = "https://kiwi-chow-down.example/schemas/"
PROTOCOL_URI = "urn:kcd-protocol:"
PROTOCOL_FOLDER = "protocol"
SUFFIX = ".schema.json"
_FILE_NAME = re.compile(r"[a-z0-9][a-z0-9_.-]*\.schema\.json")


def schema_uri(name: str) -> str:
    """The URI of schema file `name` of a schemas folder (`nests.schema.json`, `protocol/reply.view.schema.json`)."""
    folder, _, file = name.rpartition("/")
    if folder == PROTOCOL_FOLDER:
        return PROTOCOL_URI + file.removesuffix(SUFFIX)
    if folder:
        raise ValueError(f"not a schema of the schemas folder: {name!r}")
    return CONTENT_URI + file


def schema_file(uri: str) -> str | None:
    """The schema file (relative to the schemas folder) that `uri` names, None for any other URI.

    Only a plain file name of one of the two URI forms: never a folder, `..`, a file URL or a web address.
    """
    uri = uri.partition("#")[0]
    if uri.startswith(CONTENT_URI):
        name = uri[len(CONTENT_URI):]
        return name if _FILE_NAME.fullmatch(name) else None
    if uri.startswith(PROTOCOL_URI):
        name = uri[len(PROTOCOL_URI):] + SUFFIX
        return f"{PROTOCOL_FOLDER}/{name}" if _FILE_NAME.fullmatch(name) else None
    return None


def _schema_names(folder: Path) -> list[str]:
    """The schema files of a schemas folder: its own, then protocol/'s, each sorted."""
    names = [p.name for p in sorted(folder.glob("*" + SUFFIX)) if _FILE_NAME.fullmatch(p.name)]
    names += [f"{PROTOCOL_FOLDER}/{p.name}" for p in sorted((folder / PROTOCOL_FOLDER).glob("*" + SUFFIX))
              if _FILE_NAME.fullmatch(p.name)]
    return names


def _read_schema(folder: Path, name: str) -> bytes | None:
    """The bytes of schema file `name` when it is a regular file inside `folder` (a link out of it is not read)."""
    path = folder / name
    try:
        if path.is_file() and path.resolve().parent == (folder / name).parent.resolve():
            return path.read_bytes()
    except OSError:
        pass
    return None


class Schemas:
    """Every JSON Schema of a schemas folder (content, protocol/, the save's) in one `referencing.Registry`, with
    cached validators and each schema with its references inlined.

    The registry's retrieve function reads only the schema files of this folder (see `schema_file`): a
    reference to anything else is unresolvable, never fetched. jsonschema and referencing are imported only when
    some data actually has to be validated: results are cached in memory per (schema, data) and, for clean
    results, on disk (see `validated_cache`), so a content set that validated before loads without paying for
    the import.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder.resolve()
        self.docs: dict[str, Any] = {}
        # The fingerprint covers the content schema files and the code that decides validity (this module).
        digest = hashlib.sha256(_ENGINE_VERSION.encode() + Path(__file__).read_bytes())
        for name in _schema_names(self.folder):
            raw = _read_schema(self.folder, name)
            if raw is None:
                continue
            if "/" not in name:
                digest.update(name.encode() + b"\0" + raw + b"\0")
            self.docs[name] = json.loads(raw.decode("utf-8"))
        self.fingerprint = digest.hexdigest()
        self._registry: Any = None
        self._inlined: dict[str, Any] = {}
        self._validators: dict[str, Any] = {}
        self._problems: dict[str, list[SchemaProblem]] = {}
        self._dsl_memo: dict[int, bool] = {}

    @property
    def registry(self) -> Any:
        """The referencing.Registry of every schema file, by its URI and its `$id`."""
        if self._registry is None:
            from referencing import Registry, Resource
            from referencing.jsonschema import DRAFT202012

            # referencing builds its classes with attrs through a wrapper mypy does not see, so their keyword
            # arguments (both documented) are unknown to it
            self._registry = Registry(retrieve=self._retrieve).with_resources(  # type: ignore[call-arg]
                (schema_uri(name), Resource.from_contents(doc, default_specification=DRAFT202012))
                for name, doc in self.docs.items()).crawl()
        return self._registry

    def _retrieve(self, uri: str) -> Any:
        """A schema file of this folder named by `uri` (the registry asks for any URI it does not hold)."""
        from referencing import Resource
        from referencing.exceptions import NoSuchResource
        from referencing.jsonschema import DRAFT202012

        name = schema_file(uri)
        raw = _read_schema(self.folder, name) if name is not None else None
        if raw is None:
            raise NoSuchResource(ref=uri)  # type: ignore[call-arg]   # see `registry`
        return Resource.from_contents(json.loads(raw.decode("utf-8")), default_specification=DRAFT202012)

    def has(self, name: str) -> bool:
        """True when schema file `name` exists."""
        return name in self.docs

    def base_uri(self, name: str) -> str:
        """The URI references inside schema file `name` are resolved against: its `$id`, else its own URI."""
        doc = self.docs.get(name)
        own = doc.get("$id") if isinstance(doc, dict) else None
        return own if isinstance(own, str) else schema_uri(name)

    def inlined(self, name: str) -> Any:
        """Schema file `name` with every reference that does not recurse replaced by its target (cached).

        Validation then follows no reference, which makes it several times faster; a recursive reference
        stays, made absolute, and the registry resolves it.
        """
        if name not in self._inlined:
            self._inlined[name] = self._inline(self.docs[name], self.base_uri(name), ())
        return self._inlined[name]

    def follow(self, ref: str, base: str) -> tuple[Any, str]:
        """The target of reference `ref` written in a schema whose base URI is `base`, and the target's base URI
        (raises referencing's Unresolvable)."""
        from urllib.parse import urldefrag, urljoin

        resolved = self.registry.resolver(base_uri=base).lookup(ref)
        return resolved.contents, (base if ref.startswith("#") else urldefrag(urljoin(base, ref))[0])

    def resolve(self, schema: Any, base: str = "") -> tuple[Any, str]:
        """Follow the `$ref` chain of a subschema; (schema, its base URI), or ({}, base) when it does not resolve."""
        seen = 0
        while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and seen < 32:
            from referencing.exceptions import Unresolvable

            seen += 1
            try:
                schema, base = self.follow(schema["$ref"], base)
            except Unresolvable:
                return {}, base
        return schema, base

    def validator(self, name: str) -> Any:
        """The compiled Draft 2020-12 validator of schema file `name` (cached)."""
        if name not in self._validators:
            from jsonschema import Draft202012Validator

            self._validators[name] = Draft202012Validator(self.inlined(name), registry=self.registry)
        return self._validators[name]

    def check(self, name: str, data: Any) -> list[SchemaProblem]:
        """Every schema problem of `data` against schema `name`, as readable located problems (cached)."""
        key = hashlib.sha256(f"{self.fingerprint}\0{name}\0".encode() + _canonical_json(data)).hexdigest()
        found = self._problems.get(key)
        if found is not None:
            return found
        if key in validated_cache().keys:
            self._problems[key] = []
            return []
        validator = self.validator(name)
        problems: list[SchemaProblem] = []
        for error in validator.iter_errors(data):
            problems.extend(_explain(error, self))
        problems.sort(key=lambda p: [str(x) for x in p.path])
        if len(self._problems) > 4096:
            self._problems.clear()
        self._problems[key] = problems
        if not problems:
            validated_cache().add(key)
        return problems

    def _inline(self, schema: Any, base: str, stack: tuple[str, ...]) -> Any:
        """A copy of `schema` (written at base URI `base`) with every non-recursive `$ref` replaced by its target."""
        if isinstance(schema, list):
            return [self._inline(s, base, stack) for s in schema]
        if not isinstance(schema, dict):
            return schema
        ref = schema.get("$ref")
        if isinstance(ref, str):
            from urllib.parse import urljoin

            from referencing.exceptions import Unresolvable

            key = urljoin(base, ref)
            others = {k: self._inline(v, base, stack) for k, v in schema.items() if k != "$ref"}
            found: tuple[Any, str] | None = None
            if key not in stack and len(stack) <= 16:
                try:
                    found = self.follow(ref, base)
                except Unresolvable:
                    found = None
            if found is None:
                # left in place, absolute: it resolves the same from wherever the copy puts it
                return {"$ref": key, **others}
            inlined = self._inline(found[0], found[1], stack + (key,))
            if not others:
                return inlined
            if isinstance(inlined, dict) and all(k in _ANNOTATIONS or k.startswith("x-") for k in others):
                return {**inlined, **others}
            return {"allOf": [inlined], **others}
        return {k: (self._inline(v, base, stack) if k not in ("enum", "const", "examples", "default") else v)
                for k, v in schema.items()}

    def _has_dsl(self, schema: Any) -> bool:
        """True when `schema` marks some value below it with `x-dsl`."""
        key = id(schema)
        found = self._dsl_memo.get(key)
        if found is None:
            found = "x-dsl" in json.dumps(schema) if isinstance(schema, (dict, list)) else False
            self._dsl_memo[key] = found
        return found

    def dsl_fields(self, name: str, data: Any) -> list[tuple[YamlPath, str]]:
        """(path, field kind) of every string value of `data` that the schema marks with `x-dsl`.

        The walk follows no `$ref`: an `x-dsl` mark is never behind one (tests/test_content_schema.py holds the
        schemas to that), so loading content needs neither the registry nor jsonschema.
        """
        found: list[tuple[YamlPath, str]] = []
        self._walk(self.docs.get(name, {}), data, (), found, 0)
        return found

    def _walk(self, schema: Any, data: Any, path: YamlPath, out: list[tuple[YamlPath, str]], depth: int) -> None:
        if depth > 64 or not isinstance(schema, dict) or not self._has_dsl(schema):
            return
        kind = schema.get("x-dsl")
        if isinstance(kind, str):
            if isinstance(data, str):
                out.append((path, kind))
            return
        for key in ("allOf", "anyOf", "oneOf"):
            for branch in schema.get(key, ()) or ():
                self._walk(branch, data, path, out, depth + 1)
        for key in ("if", "then", "else"):
            if key in schema:
                self._walk(schema[key], data, path, out, depth + 1)
        if isinstance(data, dict):
            props = schema.get("properties", {}) or {}
            patterns = schema.get("patternProperties", {}) or {}
            extra = schema.get("additionalProperties")
            for key, value in data.items():
                skey = str(key)
                if skey in props:
                    self._walk(props[skey], value, path + (key,), out, depth + 1)
                    continue
                matched = False
                for pattern, sub in patterns.items():
                    if _regex(pattern).search(skey):
                        matched = True
                        self._walk(sub, value, path + (key,), out, depth + 1)
                if not matched and isinstance(extra, dict):
                    self._walk(extra, value, path + (key,), out, depth + 1)
        elif isinstance(data, list):
            prefix = schema.get("prefixItems", []) or []
            items = schema.get("items")
            for index, value in enumerate(data):
                if index < len(prefix):
                    self._walk(prefix[index], value, path + (index,), out, depth + 1)
                elif isinstance(items, dict):
                    self._walk(items, value, path + (index,), out, depth + 1)


@lru_cache(maxsize=256)
def _regex(pattern: str) -> Any:
    import re

    return re.compile(pattern)


_SCHEMAS: dict[str, Schemas] = {}


def schemas_for(folder: Path | None = None) -> Schemas:
    """The Schemas of `folder` (default: the shipped schemas; the loader passes a copy beside a content folder),
    cached per process: the one registry every validator of the project uses."""
    folder = (folder or paths.schemas_dir()).resolve()
    key = str(folder)
    if key not in _SCHEMAS:
        _SCHEMAS[key] = Schemas(folder)
    return _SCHEMAS[key]


def clear_cache() -> None:
    """Forget compiled schemas and cached results (tests that write schemas)."""
    _SCHEMAS.clear()


def _canonical_json(data: Any) -> bytes:
    """Data as canonical JSON bytes (keys as strings, sorted) for cache keys."""
    return json.dumps(_stringify(data), sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      default=str).encode("utf-8")


def _stringify(value: Any) -> Any:
    if isinstance(value, dict):
        # the key's type is kept visible so `1:` and `"1":` (valid vs invalid for a schema) differ
        return {(k if isinstance(k, str) else f"\0{type(k).__name__}:{k}"): _stringify(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_stringify(v) for v in value]
    return value


class ValidatedCache:
    """Keys of (schema, data) pairs that validated clean, kept on disk between processes.

    Only a set of hex digests is stored (JSON, never pickles), so a tampered cache can at worst skip a
    schema check of data it names; it cannot run code. Set KCD_NO_CACHE=1 to disable it.
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.keys: set[str] = set()
        self._dirty = False
        if path is not None:
            try:
                loaded = json.loads(path.read_text(encoding="utf-8"))
                if isinstance(loaded, list):
                    self.keys = {k for k in loaded if isinstance(k, str)}
            except (OSError, ValueError):
                self.keys = set()

    def add(self, key: str) -> None:
        """Remember a clean result (written by `flush`)."""
        if self.path is not None and key not in self.keys:
            self.keys.add(key)
            self._dirty = True

    def flush(self) -> None:
        """Write new keys to disk atomically; any I/O problem just leaves the cache unwritten."""
        if not self._dirty or self.path is None:
            return
        self._dirty = False
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            import tempfile

            keys = sorted(self.keys)[-20000:]
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".validated-")
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(keys, out)
            os.replace(tmp, self.path)
        except OSError:
            pass


_VALIDATED: list[ValidatedCache] = []


def cache_dir() -> Path | None:
    """Where the loader keeps its cache (None when disabled with KCD_NO_CACHE)."""
    if os.environ.get("KCD_NO_CACHE"):
        return None
    base = os.environ.get("KCD_CACHE_DIR") or os.environ.get("XDG_CACHE_HOME")
    if base:
        return Path(base) / ("" if os.environ.get("KCD_CACHE_DIR") else "kiwi-chow-down")
    return Path.home() / ".cache" / "kiwi-chow-down"


def validated_cache() -> ValidatedCache:
    """The process's ValidatedCache (loaded from disk once)."""
    if not _VALIDATED:
        folder = cache_dir()
        _VALIDATED.append(ValidatedCache(folder / "validated.json" if folder else None))
    return _VALIDATED[0]


def reset_validated_cache() -> None:
    """Forget the loaded ValidatedCache (it is re-read from disk on next use)."""
    _VALIDATED.clear()


# --- messages ----------------------------------------------------------------------------------------

def field_name(path: YamlPath) -> str:
    """How a message names the value at `path`: its key, or `key` entry for a list element."""
    if not path:
        return "the file"
    last = path[-1]
    if isinstance(last, int):
        for part in reversed(path[:-1]):
            if not isinstance(part, int):
                return f"each `{part}` entry"
        return f"entry {last + 1}"
    return f"`{last}`"


def show(value: Any) -> str:
    """A value as messages quote it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null (empty)"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return f"`{value}`"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return f"`{value}`"


def _alternatives(values: list[Any]) -> str:
    shown = [json.dumps(v) if isinstance(v, (dict, list)) else (show(v) if not isinstance(v, str) else v)
             for v in values]
    if len(shown) == 1:
        return shown[0]
    return ", ".join(shown[:-1]) + " or " + shown[-1]


def _types(expected: Any) -> str:
    names = expected if isinstance(expected, list) else [expected]
    return " or ".join(str(_TYPE_NAMES.get(n, n)) for n in names)


def did_you_mean(word: str, options: list[str] | set[str] | tuple[str, ...]) -> str | None:
    """The closest option to `word` (difflib), or None."""
    import difflib

    close = difflib.get_close_matches(str(word), [str(o) for o in options], n=1, cutoff=0.6)
    return close[0] if close else None


def _explain(error: Any, schemas: Schemas) -> Iterator[SchemaProblem]:
    """Turn one jsonschema ValidationError into readable problems."""
    path = tuple(error.absolute_path)
    kind = error.validator
    value = error.instance
    name = field_name(path)
    if kind in ("oneOf", "anyOf") and error.context:
        from jsonschema.exceptions import best_match

        # Prefer the branch whose errors go deepest: that is the one the author meant.
        best = best_match(error.context, key=_relevance)
        shape = _branch_fields(error.validator_value)
        if best is not None and shape and len(best.absolute_path) == len(path) \
                and best.validator in ("not", "required"):
            # No branch got past its field shape: name the shapes instead of one branch's complaint.
            present = [k for k in value if isinstance(k, str)] if isinstance(value, dict) else []
            described = error.schema.get("description") if isinstance(error.schema, dict) else None
            yield SchemaProblem(path, f"{name} needs exactly one of: {shape}"
                                      + (f" (it has {', '.join(f'`{k}`' for k in present)})" if present else ""),
                                hint=described)
            return
        if best is not None:
            yield from _explain(best, schemas)
            return
    if kind == "additionalProperties" or kind == "unevaluatedProperties":
        allowed = _allowed_keys(error.schema, schemas)
        extras = [k for k in value if str(k) not in allowed] if isinstance(value, dict) else []
        if not extras:
            extras = list(_quoted(error.message))
        for extra in extras:
            guess = did_you_mean(str(extra), allowed)
            if guess is None and _SYNONYMS.get(str(extra)) in allowed:
                guess = _SYNONYMS[str(extra)]
            message = f"unknown field `{extra}`" + (f": did you mean `{guess}`?" if guess else "")
            hint = None if guess or not allowed else "allowed fields: " + ", ".join(sorted(allowed))
            yield SchemaProblem(path + (extra,), message, at_key=True, hint=hint)
        return
    if kind == "required":
        missing = error.validator_value
        given = value if isinstance(value, dict) else {}
        owner = given.get("id") if isinstance(given.get("id"), (str, int)) else None
        if owner is not None:
            where = f" in `{owner}`"
        elif path and not isinstance(path[-1], int):
            where = f" in `{path[-1]}`"
        else:
            where = ""
        for field in missing:
            if field not in given:
                yield SchemaProblem(path, f"missing field `{field}`{where}", at_key=True)
        return
    if kind == "enum":
        yield SchemaProblem(path, f"{name} must be {_alternatives(error.validator_value)}, got {show(value)}",
                            hint=_enum_hint(value, error.validator_value))
        return
    if kind == "const":
        yield SchemaProblem(path, f"{name} must be {_alternatives([error.validator_value])}, got {show(value)}")
        return
    if kind == "type":
        expected = error.validator_value
        message = f"{name} must be {_types(expected)}, got {show(value)}"
        hint = None
        names = expected if isinstance(expected, list) else [expected]
        if "boolean" in names and isinstance(value, str) and value in YAML11_BOOLS:
            message += ": write true or false"
            hint = "YAML 1.2 reads yes/no/on/off as words, not booleans"
        yield SchemaProblem(path, message, hint=hint)
        return
    if kind in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"):
        words = {"minimum": "at least", "exclusiveMinimum": "more than", "maximum": "at most",
                 "exclusiveMaximum": "less than"}[kind]
        yield SchemaProblem(path, f"{name} must be {words} {error.validator_value}, got {show(value)}")
        return
    if kind in ("minItems", "maxItems"):
        words = "at least" if kind == "minItems" else "at most"
        count = len(value) if isinstance(value, list) else 0
        yield SchemaProblem(path, f"{name} must have {words} {error.validator_value} "
                                  f"entr{'y' if error.validator_value == 1 else 'ies'}, got {count}", at_key=True)
        return
    if kind in ("minLength", "maxLength"):
        words = "at least" if kind == "minLength" else "at most"
        yield SchemaProblem(path, f"{name} must be {words} {error.validator_value} characters long, got {show(value)}")
        return
    if kind in ("minProperties", "maxProperties"):
        words = "at least" if kind == "minProperties" else "at most"
        yield SchemaProblem(path, f"{name} must have {words} {error.validator_value} fields")
        return
    if kind == "pattern":
        described = error.schema.get("description") if isinstance(error.schema, dict) else None
        message = f"{name} must match `{error.validator_value}`, got {show(value)}"
        if str(error.validator_value).startswith("^(rulebook ") and isinstance(value, str):
            message = (f"{name} must be `rulebook R-XXX-N` (clause ids of RULES.md) or `designed: <reason>`, "
                       f"got {show(value)}")
            described = f"for example `designed: {value.strip()}`" if value.strip() and not value.startswith(
                ("rulebook", "designed")) else described
        if error.validator_value in ID_PATTERNS and isinstance(value, str):
            slug = re.sub(r"[^a-z0-9]+", "-", value.lower()).strip("-")
            message = f"{name} must be lowercase letters, digits and `-`, got {show(value)}"
            described = f"for example `{slug}`" if slug else described
        yield SchemaProblem(path, message, hint=described)
        return
    if kind == "uniqueItems":
        yield SchemaProblem(path, f"{name} must not repeat entries", at_key=True)
        return
    if kind == "propertyNames":
        yield SchemaProblem(path, f"{name}: {error.message}", at_key=True)
        return
    if kind == "not":
        banned = [f for f in _required_fields(error.validator_value)
                  if isinstance(value, dict) and f in value]
        if banned:
            beside = [str(f) for f in (error.schema.get("required") or [])] if isinstance(error.schema, dict) else []
            where = " beside " + " + ".join(f"`{f}`" for f in beside) if beside else f" in {name}"
            for banned_field in banned:
                yield SchemaProblem(path + (banned_field,), f"field `{banned_field}` is not allowed{where}",
                                    at_key=True, hint=f"remove `{banned_field}`")
            return
        yield SchemaProblem(path, f"{name} is not allowed here: {show(value)}")
        return
    yield SchemaProblem(path, f"{name}: {error.message}")


# The id patterns of common.schema.json: explained in words, with a fixed-up example.
ID_PATTERNS = ("^[a-z0-9][a-z0-9-]*$", "^[a-z][a-z0-9-]*$")

# Field names other engines use, mapped to ours (only offered when ours is allowed where the slip is).
_SYNONYMS = {"on": "when", "trigger": "when", "if": "when", "then": "do", "effect": "do", "action": "do"}


def _required_fields(schema: Any) -> list[str]:
    """Fields a `required` schema (or an anyOf of them) names: what a `not` forbids."""
    if not isinstance(schema, dict):
        return []
    fields = [str(f) for f in schema.get("required", []) or []]
    for branch in schema.get("anyOf", []) or []:
        fields.extend(_required_fields(branch))
    return fields


def _branch_fields(branches: Any) -> str | None:
    """"`when` + `do`, or `modifier`" when every oneOf/anyOf branch is told apart by its required fields."""
    if not isinstance(branches, list) or not branches:
        return None
    shapes = []
    for branch in branches:
        required = branch.get("required") if isinstance(branch, dict) else None
        if not required:
            return None
        shapes.append(" + ".join(f"`{r}`" for r in required))
    return ", or ".join(shapes)


def _relevance(error: Any) -> tuple[Any, ...]:
    """best_match key: deeper paths and non-type errors first (jsonschema's default, deepened)."""
    from jsonschema.exceptions import relevance

    key: Any = relevance(error)   # jsonschema types its key function loosely; it returns a tuple
    return (len(error.absolute_path), error.validator not in ("type", "required", "additionalProperties"),
            ) + tuple(key)


def _enum_hint(value: Any, options: list[Any]) -> str | None:
    if isinstance(value, str):
        guess = did_you_mean(value, [o for o in options if isinstance(o, str)])
        if guess:
            return f"did you mean `{guess}`?"
    return None


def _allowed_keys(schema: Any, schemas: Schemas) -> set[str]:
    """Property names a (possibly composed) object schema allows."""
    allowed: set[str] = set()
    stack = [(schema, "")]
    seen = 0
    while stack and seen < 64:
        seen += 1
        sub, base = stack.pop()
        sub, base = schemas.resolve(sub, base) if isinstance(sub, dict) else (sub, base)
        if not isinstance(sub, dict):
            continue
        allowed.update(str(k) for k in (sub.get("properties") or {}))
        for key in ("allOf", "anyOf", "oneOf"):
            stack.extend((b, base) for b in sub.get(key, ()) or ())
    return allowed


def _quoted(message: str) -> Iterator[str]:
    import re

    yield from re.findall(r"'([^']+)'", message)
