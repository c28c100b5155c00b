"""The deployment files (``deploy/``) installed by the steps of ``docs/operating.md`` marked
``<!-- checked: NAME -->``, run as written (``sudo`` dropped) in a throw-away folder standing
for ``/etc``: nginx accepts the site (``nginx -t``, with a self-signed certificate where
certbot's would be), systemd accepts the units (``systemd-analyze verify``, which needs no
running systemd: the units are found through ``SYSTEMD_UNIT_PATH``), and the settings file is
read by the server's own settings (an unknown ``LUDOTECA_`` name would be refused)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ludoteca.server.settings import Settings

from .support.need import need

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Debian's tools")

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "operating.md"
#: where the units expect Ludoteca (a virtual environment), and the program here
INSTALLED = "/opt/ludoteca/bin/ludoteca"
PROGRAM = Path(sys.executable).with_name("ludoteca")


def step(name: str) -> str:
    """The commands of the step of docs/operating.md marked ``<!-- checked: NAME -->``."""
    text = DOC.read_text()
    marker = f"<!-- checked: {name} -->\n```\n"
    start = text.index(marker) + len(marker)
    return text[start : text.index("```", start)]


def run_step(name: str, folder: Path, *edits: tuple[str, str]) -> None:
    """Run a step in ``folder``: ``sudo`` dropped, ``/etc/`` made ``folder/etc/``, then each
    ``(old, new)`` of ``edits`` made (each must be there), from ``folder/src`` (a copy of
    ``deploy/``, which the caller may have changed); fail with its output unless it succeeds."""
    script = step(name).replace("sudo ", "").replace("/etc/", f"{folder}/etc/")
    for old, new in edits:
        assert old in script, f"the step {name} no longer says {old!r}"
        script = script.replace(old, new)
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=folder / "src",
        capture_output=True,
        text=True,
        env={**os.environ, "SYSTEMD_UNIT_PATH": f"{folder}/etc/systemd/system:"},
    )
    assert done.returncode == 0, f"{script}\n{done.stdout}{done.stderr}"
    assert not re.search(r"warn|unknown|ignor", done.stdout + done.stderr, re.I), done.stderr


def copy_deploy(folder: Path) -> Path:
    """A copy of ``deploy/`` in ``folder/src``; its path."""
    shutil.copytree(ROOT / "deploy", folder / "src" / "deploy")
    return folder / "src" / "deploy"


def replace_in(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{path.name} no longer says {old!r}"
    path.write_text(text.replace(old, new))


def test_the_nginx_step_gives_a_site_nginx_accepts(tmp_path: Path) -> None:
    nginx = shutil.which("nginx") or need("/usr/sbin/nginx")
    openssl = need("openssl")
    etc = tmp_path / "etc"
    # nginx as Debian installs it: sites enabled from http {}, the default site on
    conf = etc / "nginx"
    for folder in ("sites-available", "sites-enabled"):
        (conf / folder).mkdir(parents=True)
    (conf / "sites-enabled" / "default").write_text("server { listen 80 default_server; }\n")
    (conf / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\n    access_log off;\n    include {conf}/sites-enabled/*;\n}}\n"
    )
    # certbot's certificate for the name the step puts in (self-signed here)
    live = etc / "letsencrypt" / "live" / "games.club.example"
    live.mkdir(parents=True)
    subprocess.run(
        [
            *(openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-subj", "/CN=games.club.example", "-keyout", str(live / "privkey.pem")),
            *("-out", str(live / "fullchain.pem")),
        ],
        check=True,
        capture_output=True,
    )
    deploy = copy_deploy(tmp_path)
    for name in ("fullchain", "privkey"):
        replace_in(
            deploy / "nginx" / "ludoteca.conf",
            f"/etc/letsencrypt/live/ludoteca.example.org/{name}.pem",
            f"{etc}/letsencrypt/live/ludoteca.example.org/{name}.pem",
        )
    run_step("nginx", tmp_path, ("nginx -t", f"{nginx} -t -p {tmp_path} -c {conf}/nginx.conf"))
    site = (conf / "sites-enabled" / "ludoteca.conf").read_text()
    assert "server_name games.club.example;" in site and "example.org" not in site
    assert not (conf / "sites-enabled" / "default").exists()
    assert (conf / "ludoteca" / "upstream.conf").is_file()


def test_the_systemd_step_gives_units_systemd_accepts(tmp_path: Path) -> None:
    need("systemd-analyze")
    deploy = copy_deploy(tmp_path)
    (tmp_path / "etc" / "systemd" / "system").mkdir(parents=True)
    # (the program the units start must exist: this checkout's, in place of /opt/ludoteca's)
    for unit in ("ludoteca@.service", "ludoteca-worker@.service", "ludoteca-backup.service"):
        replace_in(deploy / "systemd" / unit, INSTALLED, str(PROGRAM))
    run_step("systemd", tmp_path)
    installed = sorted(path.name for path in (tmp_path / "etc" / "systemd" / "system").iterdir())
    shipped = sorted(path.name for path in (ROOT / "deploy" / "systemd").glob("ludoteca*.*"))
    assert installed == [name for name in shipped if not name.endswith(".env")]


def test_the_settings_step_gives_a_file_the_server_reads(tmp_path: Path) -> None:
    copy_deploy(tmp_path)
    # (no ludoteca group here, nor root perhaps: the owner and group left out)
    run_step("settings", tmp_path, ("-o root -g ludoteca ", ""))
    installed = tmp_path / "etc" / "ludoteca" / "ludoteca.env"
    settings = Settings(_env_file=installed)  # type: ignore[call-arg]
    assert settings.db is not None and settings.db.startswith("postgresql+asyncpg://")
    assert settings.redis == "redis://127.0.0.1:6379/0"
    # where the units read it
    for unit in (ROOT / "deploy" / "systemd").glob("ludoteca*.service"):
        assert "EnvironmentFile=/etc/ludoteca/ludoteca.env\n" in unit.read_text(), unit.name
