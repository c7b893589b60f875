"""The project's one `referencing.Registry` of JSON Schemas (kcd.content.schema): it holds every shipped schema,
retrieves only schema files of its own folder, and the content validator, the editor and the service all read it."""
from __future__ import annotations

import json
import re
import shutil
import socket
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from referencing.exceptions import Unresolvable

from kcd.core import paths
from kcd.content.schema import CONTENT_URI, PROTOCOL_URI, Schemas, schema_file, schema_uri, schemas_for
from kcd.apps.editor.logic import schema_help
from kcd.apps.service import protocol

SHIPPED = paths.schemas_dir()


def test_one_registry_holds_every_shipped_schema_by_its_id() -> None:
    """Content schemas, the protocol's message schemas and the save's, each by its `$id`."""
    shipped = schemas_for()
    files = sorted(p.relative_to(SHIPPED).as_posix() for p in SHIPPED.rglob("*.schema.json"))
    assert sorted(shipped.docs) == files and "save.schema.json" in files
    for name, doc in shipped.docs.items():
        assert doc["$id"] == schema_uri(name)
        assert shipped.registry.contents(doc["$id"]) == doc
    assert schema_uri("protocol/request.apply.schema.json") == PROTOCOL_URI + "request.apply"
    assert schema_file(CONTENT_URI + "nests.schema.json#/items") == "nests.schema.json"


@pytest.mark.parametrize("uri", [
    "file:///etc/passwd", "https://example.com/x.schema.json", CONTENT_URI + "../pyproject.toml",
    CONTENT_URI + "protocol/common.schema.json", CONTENT_URI + "sub/nests.schema.json",
    PROTOCOL_URI + "../../etc/passwd", PROTOCOL_URI + "nothing", "nests.schema.json"])
def test_retrieve_reads_only_schema_files_of_the_folder(uri: str) -> None:
    """A reference to anything but a schema file of the folder is unresolvable: never a path, never fetched."""
    with pytest.raises(Unresolvable):
        schemas_for().registry.resolver().lookup(uri)


def test_no_reference_goes_to_the_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """A schema that points at a web address fails to resolve; no socket is opened."""
    def refuse(*_: object) -> None:
        raise AssertionError("the registry opened a network connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    check = Draft202012Validator({"$ref": "https://kiwi-chow-down.example/elsewhere.json"},
                                 registry=schemas_for().registry)
    with pytest.raises(Unresolvable):   # jsonschema's wrapper of referencing's error
        check.is_valid(1)


def test_a_schema_file_added_to_the_folder_is_retrieved_and_a_link_out_of_it_is_not(tmp_path: Path) -> None:
    """The retrieve function reads the folder's own schema files on demand (regular files inside it only)."""
    folder = tmp_path / "schemas"
    shutil.copytree(SHIPPED, folder)
    schemas = Schemas(folder)
    registry = schemas.registry
    (folder / "extra.schema.json").write_text(json.dumps({"$defs": {"n": {"type": "integer"}}}), encoding="utf-8")
    secret = tmp_path / "secret.schema.json"
    secret.write_text(json.dumps({"$defs": {"n": {"const": "secret"}}}), encoding="utf-8")
    (folder / "linked.schema.json").symlink_to(secret)
    assert registry.resolver().lookup(CONTENT_URI + "extra.schema.json#/$defs/n").contents == {"type": "integer"}
    with pytest.raises(Unresolvable):
        registry.resolver().lookup(CONTENT_URI + "linked.schema.json#/$defs/n")
    assert "linked.schema.json" not in Schemas(folder).docs


def test_inlining_leaves_no_reference_and_validation_agrees_with_the_registry() -> None:
    """The inlined copies the validators use hold no `$ref` (no shipped schema recurses) and judge content as
    the plain schema resolved through the registry does."""
    shipped = schemas_for()
    for name in shipped.docs:
        assert '"$ref"' not in json.dumps(shipped.inlined(name)), name
    nests = [{"id": "tree-9", "type": "tree", "row": 1, "cost": "pay 1 fruit", "vp": 1, "dominance": 1,
              "source": "designed: x"}, {"id": "Tree 9"}]
    plain = Draft202012Validator(shipped.docs["nests.schema.json"], registry=shipped.registry)
    assert sorted(e.message for e in plain.iter_errors(nests)) == \
        sorted(e.message for e in shipped.validator("nests.schema.json").iter_errors(nests))


def test_the_service_and_the_editor_read_the_same_registry() -> None:
    """The protocol's schemas and the editor's field help come from `schemas_for()`, the content validator's."""
    shipped = schemas_for()
    assert protocol.schemas()["common"] is shipped.docs["protocol/common.schema.json"]
    assert protocol.validator("request.apply").schema is shipped.inlined("protocol/request.apply.schema.json")
    assert protocol.problem("request.hello", {"protocol": 1, "op": "hello", "id": 1}) is None
    # the editor's help for a field defined through a `$ref` into common.schema.json
    source = schema_help.field_schema("nests", (0, "source"))
    assert source.description and source.types == ("string",)
    assert source.description == shipped.inlined("nests.schema.json")["items"]["properties"]["source"]["description"]


def test_only_the_registry_resolves_references() -> None:
    """No module but kcd.content.schema builds a registry or joins reference URIs: there is one resolver."""
    repo = Path(__file__).resolve().parent.parent
    found = []
    for folder in ("interpreter", "editor", "service"):
        for path in (repo / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            if re.search(r"^\s*(from|import) referencing|urljoin|urldefrag|RefResolver", text, re.MULTILINE):
                found.append(path.relative_to(repo).as_posix())
    assert found == ["interpreter/content/schema.py"]
