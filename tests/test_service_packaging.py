"""The wheel ships the service: the `service` package, the web client's files and the protocol
schemas, and an installed copy finds them outside a checkout."""
from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_wheel_ships_the_service_the_web_client_and_the_protocol_schemas(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
                   check=True, capture_output=True, text=True)
    (wheel,) = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"kcd/apps/service/hub.py", "kcd/apps/service/web.py", "kcd/apps/service/_data/webclient/index.html",
            "kcd/apps/service/_data/webclient/app.js", "kcd/_data/schemas/protocol/request.apply.schema.json"} <= names
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True, capture_output=True, text=True)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(target), sysconfig.get_paths()["purelib"]]))
    probe = subprocess.run([sys.executable, "-c",
                            "from kcd.apps.service.paths import webclient_dir, protocol_schemas_dir; import kcd.apps.service as service;"
                            "print(service.__file__); print((webclient_dir() / 'index.html').is_file());"
                            "print(len(list(protocol_schemas_dir().glob('*.schema.json'))))"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    where, has_index, schemas = probe.stdout.split()
    assert where.startswith(str(target)) and has_index == "True"
    assert int(schemas) == len(list((ROOT / "schemas" / "protocol").glob("*.schema.json")))
