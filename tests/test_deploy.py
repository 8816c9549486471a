"""The deployment files, replayed: no Docker engine runs here, so the Dockerfile's own steps run in a fresh venv.

`replay` copies what the Dockerfile's COPY lines copy (minus .dockerignore), runs its `RUN pip` lines with the
new environment's pip, and starts its CMD (host and port swapped for 127.0.0.1 and a free port) from a folder
outside the repository, with the Dockerfile's ENV. The page, a demo question and the demo video must answer over
HTTP, and the HEALTHCHECK command must pass while the app runs and fail once it stops. The Space is replayed the
same way: a second fresh venv with only requirements.txt, then `python app.py` in the copied repository.
"""

from __future__ import annotations

import fnmatch
import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from helpers.appserver import free_port, stop

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parent.parent
INSTALL_TIMEOUT = 1500
START_TIMEOUT = 180


# -- reading the Dockerfile -------------------------------------------------------------------------------------


def instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) per Dockerfile instruction, continuation lines joined, comments dropped."""
    joined, current = [], ""
    for line in text.splitlines():
        stripped = line.strip()
        if not current and (not stripped or stripped.startswith("#")):
            continue
        if stripped.endswith("\\"):
            current += stripped[:-1] + " "
            continue
        joined.append(current + stripped)
        current = ""
    return [(word.upper(), rest.strip()) for word, _, rest in (line.partition(" ") for line in joined)]


@dataclass
class Dockerfile:
    base: str = ""
    env: dict[str, str] = field(default_factory=dict)
    workdir: str = "/"
    copies: list[tuple[list[str], str]] = field(default_factory=list)
    pip_runs: list[list[str]] = field(default_factory=list)
    user: str = "root"
    exposed: list[str] = field(default_factory=list)
    healthcheck: list[str] = field(default_factory=list)
    cmd: list[str] = field(default_factory=list)

    @classmethod
    def read(cls, path: Path = REPO / "Dockerfile") -> Dockerfile:
        parsed = cls()
        for word, rest in instructions(path.read_text()):
            parsed.take(word, rest)
        return parsed

    def take(self, word: str, rest: str) -> None:
        if word == "FROM":
            self.base = rest
        elif word == "ENV":
            self.env.update(dict(pair.split("=", 1) for pair in shlex.split(rest)))
        elif word == "WORKDIR":
            self.workdir = rest
        elif word == "COPY":
            parts = [p for p in shlex.split(rest) if not p.startswith("--")]
            self.copies.append((parts[:-1], parts[-1]))
        elif word == "RUN" and re.match(r"(python3? -m )?pip ", rest):
            self.pip_runs.append(shlex.split(rest.removeprefix("python -m ").removeprefix("python3 -m ")))
        elif word == "USER":
            self.user = rest
        elif word == "EXPOSE":
            self.exposed += rest.split()
        elif word == "HEALTHCHECK":
            self.healthcheck = json.loads(rest[rest.index("CMD") + 3 :])
        elif word == "CMD":
            self.cmd = json.loads(rest)


def ignored(relative: str, patterns: list[str]) -> bool:
    """The .dockerignore subset used here: `name`, `**/name` and shell globs on the path or its last part."""
    for pattern in patterns:
        bare = pattern.removeprefix("**/")
        if (
            fnmatch.fnmatch(relative, pattern)
            or fnmatch.fnmatch(Path(relative).name, bare)
            or any(fnmatch.fnmatch(part, bare) for part in Path(relative).parts[:-1])
        ):
            return True
    return False


def dockerignore() -> list[str]:
    lines = (REPO / ".dockerignore").read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def replay_copies(docker: Dockerfile, app_dir: Path) -> None:
    """Copy what the COPY lines copy into `app_dir` (the WORKDIR), skipping what .dockerignore excludes."""
    patterns = dockerignore()
    for sources, dest in docker.copies:
        target = app_dir / dest if dest not in ("./", ".") else app_dir
        for source in sources:
            origin = REPO / source
            if origin.is_dir():
                for file in origin.rglob("*"):
                    relative = file.relative_to(REPO).as_posix()
                    if file.is_file() and not ignored(relative, patterns):
                        out = target / file.relative_to(origin)
                        out.parent.mkdir(parents=True, exist_ok=True)
                        shutil.copy2(file, out)
            else:
                target.mkdir(parents=True, exist_ok=True)
                shutil.copy2(origin, target / origin.name)


# -- environments and servers -----------------------------------------------------------------------------------


def new_venv(path: Path) -> Path:
    """A fresh virtual environment with the base interpreter (not this test's venv); its bin folder."""
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", str(path)], check=True, timeout=300)
    return path / "bin"


def pip(bin_dir: Path, args: list[str], cwd: Path, env: dict[str, str]) -> None:
    done = subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=INSTALL_TIMEOUT,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def container_env(docker: Dockerfile, bin_dir: Path, app_dir: Path, home: Path) -> dict[str, str]:
    """The Dockerfile's ENV with /app and the user's home mapped into tmp, the venv first on PATH."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MATHREEL_", "VIRTUAL_ENV", "PYTHON"))}
    for key, value in docker.env.items():
        env[key] = value.replace(docker.workdir, str(app_dir)).replace("/home/mathreel", str(home))
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(bin_dir.parent)
    return env


def resolve(command: list[str], bin_dir: Path, port: int) -> list[str]:
    """The container's command for this machine: its programs from the venv, loopback and a free port."""
    swap = {"0.0.0.0": "127.0.0.1", "7860": str(port)}
    out = [str(bin_dir / command[0]) if (bin_dir / command[0]).exists() else command[0]]
    return out + [swap.get(arg, arg.replace(":7860/", f":{port}/")) for arg in command[1:]]


@dataclass
class Running:
    url: str
    process: subprocess.Popen
    start_seconds: float


def wait_for(url: str, process: subprocess.Popen, log: Path) -> float:
    started = time.monotonic()
    while time.monotonic() - started < START_TIMEOUT:
        if process.poll() is not None:
            raise AssertionError(f"the app exited with {process.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=10) as response:  # a first render on a busy machine is slow
                if response.status == 200:
                    return time.monotonic() - started
        except OSError:
            time.sleep(0.3)
    raise AssertionError(f"the app did not answer within {START_TIMEOUT} s:\n{log.read_text()[-3000:]}")


def start(command: list[str], env: dict[str, str], cwd: Path, port: int, log: Path) -> Running:
    with log.open("w") as out:
        process = subprocess.Popen(command, env=env, cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        return Running(url, process, wait_for(url, process, log))
    except BaseException:
        stop(process)
        raise


def report(figure: str) -> None:
    """Measured figures go to the terminal (pytest -s) and bench notes, never into an assertion."""
    print(f"\n[deploy] {figure}")


def check_demo_question(url: str) -> None:
    """A demo Video-MME question and its H.264 video arrive over HTTP through the app's own API."""
    from gradio_client import Client

    from mathreel.core.data import demo_dir, load_dataset

    first = load_dataset("videomme", data_dir=demo_dir()).questions[0]
    client = Client(url, verbose=False)
    try:
        outputs = client.predict("videomme:mcq", 8, False, False, False, api_name="/first_question")
    finally:
        client.close()
    page_text = "\n".join(str(o) for o in outputs[:2])
    assert first.question in page_text and first.question_id in page_text
    video = outputs[2]["value"]
    assert Path(video).read_bytes()[4:8] == b"ftyp"


# -- static checks ----------------------------------------------------------------------------------------------


def test_dockerfile_builds_a_non_root_slim_image_serving_on_7860() -> None:
    docker = Dockerfile.read()
    assert docker.base == "python:3.11-slim"
    assert docker.user not in ("root", "0") and docker.exposed == ["7860"]
    assert docker.cmd[:2] == ["mathreel", "serve"] and docker.cmd[docker.cmd.index("--host") + 1] == "0.0.0.0"
    assert docker.healthcheck[0] == "python" and "urllib" in docker.healthcheck[-1]
    assert "127.0.0.1:7860" in docker.healthcheck[-1]
    assert docker.pip_runs, "no RUN pip line: the test would replay nothing"
    copied = {source for sources, _ in docker.copies for source in sources}
    assert {"pyproject.toml", "README.md", "mathreel", "core", "cli", "webapp", "assets"} <= copied
    assert "MATHREEL_DATA" not in docker.env, "an empty /data would hide the demo set; the user sets it on mount"


def test_dockerignore_keeps_the_image_free_of_venv_git_and_tests() -> None:
    patterns = dockerignore()
    for path in (".venv/bin/python", ".git/HEAD", "tests/test_deploy.py", "core/__pycache__/x.cpython-311.pyc"):
        assert ignored(path, patterns), path
    for path in ("cli/serve.py", "assets/demo/videomme/data/demo_vme_001.mp4", "pyproject.toml"):
        assert not ignored(path, patterns), path


def test_space_requirements_are_exactly_the_package_dependencies() -> None:
    declared = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    listed = [line.split("#")[0].strip() for line in (REPO / "requirements.txt").read_text().splitlines()]
    assert [line for line in listed if line] == [d.replace(" ", "") for d in declared]


def space_app():
    """The top-level app.py (the Space entry), loaded by path: the repository root is not a package."""
    spec = importlib.util.spec_from_file_location("mathreel_space_app", REPO / "app.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_space_settings_come_from_the_environment() -> None:
    settings_from_env = space_app().settings_from_env

    defaults = settings_from_env({})
    assert (defaults.host, defaults.port) == ("0.0.0.0", 7860)
    tuned = settings_from_env(
        {
            "GRADIO_SERVER_PORT": "8000",
            "MATHREEL_MAX_FILE_SIZE": "5mb",
            "MATHREEL_SCORE_CONCURRENCY": "3",
            "MATHREEL_BROWSE_CONCURRENCY": "16",
            "MATHREEL_QUEUE_SIZE": "10",
            "MATHREEL_CACHE_SECONDS": "600",
            "GRADIO_SERVER_NAME": "127.0.0.1",
        }
    )
    assert (tuned.port, tuned.max_file_size, tuned.score_concurrency, tuned.browse_concurrency) == (8000, "5mb", 3, 16)
    assert (tuned.queue_size, tuned.cache_seconds, tuned.host) == (10, 600, "127.0.0.1")


def test_the_space_trusts_its_one_proxy_for_the_clients_address_and_a_plain_server_none() -> None:
    """Fair shares go by the client's address (webapp.visitor): on a Space, the entry Hugging Face's proxy adds
    to X-Forwarded-For; elsewhere the TCP peer, unless MATHREEL_PROXY_HOPS says proxies are in front."""
    from mathreel.webapp.settings import Settings

    settings_from_env = space_app().settings_from_env
    assert settings_from_env({}).proxy_hops == 1
    assert settings_from_env({"MATHREEL_PROXY_HOPS": "2"}).proxy_hops == 2
    assert Settings.from_env({}).proxy_hops == 0


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("MATHREEL_SCORE_CONCURRENCY", "0"),
        ("GRADIO_SERVER_PORT", "http"),
        ("MATHREEL_QUEUE_SIZE", "-4"),
        ("MATHREEL_DATA", "/no/such/folder"),
    ],
)
def test_a_bad_setting_stops_the_space_with_one_line(name: str, value: str, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MATHREEL_")}
    env[name] = value
    done = subprocess.run(
        [sys.executable, str(REPO / "app.py")], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("mathreel: ") and value in done.stderr


# -- replayed installs ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def docker_install(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Dockerfile, Path, dict[str, str]]]:
    """The image's /app, installed by the Dockerfile's own pip lines into a fresh venv."""
    docker = Dockerfile.read()
    root = tmp_path_factory.mktemp("image")
    app_dir, home = root / "app", root / "home"
    app_dir.mkdir()
    home.mkdir()
    replay_copies(docker, app_dir)
    bin_dir = new_venv(root / "venv")
    env = container_env(docker, bin_dir, app_dir, home)
    env.pop("PIP_NO_CACHE_DIR", None)  # the image keeps no cache; here the machine's pip cache saves downloads
    started = time.monotonic()
    for args in docker.pip_runs:
        pip(bin_dir, args[1:], app_dir, env)
    report(f"Dockerfile pip steps in a fresh venv: {time.monotonic() - started:.0f} s")
    yield docker, bin_dir, env


@pytest.mark.index
@pytest.mark.timeout(INSTALL_TIMEOUT + START_TIMEOUT)
def test_the_image_serves_the_demo_and_passes_its_healthcheck(docker_install, tmp_path: Path) -> None:
    docker, bin_dir, env = docker_install
    port = free_port()
    outside = tmp_path / "elsewhere"  # not the repository and not /app: the demo set must come from the install
    outside.mkdir()
    running = start(resolve(docker.cmd, bin_dir, port), env, outside, port, tmp_path / "serve.log")
    try:
        report(f"mathreel serve (installed) answered after {running.start_seconds:.1f} s")
        with urllib.request.urlopen(running.url, timeout=10) as response:
            assert response.status == 200 and b"MathReel" in response.read()
        check_demo_question(running.url)
        health = subprocess.run(
            resolve(docker.healthcheck, bin_dir, port), env=env, cwd=outside, capture_output=True, timeout=60
        )
        assert health.returncode == 0, health.stderr
    finally:
        stop(running.process)
    after = subprocess.run(
        resolve(docker.healthcheck, bin_dir, port), env=env, cwd=outside, capture_output=True, timeout=60
    )
    assert after.returncode != 0, "the healthcheck passes with the app stopped"


@pytest.mark.index
@pytest.mark.timeout(INSTALL_TIMEOUT + START_TIMEOUT)
def test_the_space_serves_the_demo_from_requirements_only(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Spaces install requirements.txt, then run `python app.py` in the repository folder."""
    root = tmp_path_factory.mktemp("space")
    repo_copy = root / "repo"
    replay_copies(Dockerfile.read(), repo_copy)
    bin_dir = new_venv(root / "venv")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MATHREEL_", "VIRTUAL_ENV", "PYTHON"))}
    env.update(PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", HOME=str(root), GRADIO_ANALYTICS_ENABLED="False")
    started = time.monotonic()
    pip(bin_dir, ["install", "-r", str(REPO / "requirements.txt")], root, env)
    report(f"requirements.txt in a fresh venv: {time.monotonic() - started:.0f} s")
    port = free_port()
    env.update(GRADIO_SERVER_NAME="127.0.0.1", GRADIO_SERVER_PORT=str(port))
    running = start([str(bin_dir / "python"), "app.py"], env, repo_copy, port, root / "space.log")
    try:
        report(f"python app.py answered after {running.start_seconds:.1f} s")
        check_demo_question(running.url)
    finally:
        stop(running.process)
