"""``pooltutor app`` for a whole class: the kernel pool, the network, the busy page.

The decisions (pool size and memory, token, URL, timeouts) are tested without
a server; one slow test starts the classroom mode with a pool of two kernels
and opens two pages at once: both must be served from preheated kernels.
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from pooltutor.course import app, classroom, cli
from process_helpers import bad_arguments_error, free_port, stop  # isort: skip

TEMPLATE = classroom.template_root() / "voila" / "templates" / classroom.TEMPLATE_NAME


def _dry_run(capsys, tmp_path, *argv) -> tuple[str, str]:
    assert cli.main(["app", "--dry-run", "--notebook-dir", str(tmp_path / "nb"), *argv]) == 0
    captured = capsys.readouterr()
    return captured.out, captured.err


# --------------------------------------------------------------- the pool

def test_pool_plan_counts_kernels_and_memory():
    plan = classroom.PoolPlan(30, ("01_window_placement", "02_output_size_rounding"))
    assert plan.kernels == 60
    assert plan.memory_mib(120) == 7200
    assert "60 in all" in plan.describe(120) and "7.0 GiB" in plan.describe(120)
    assert plan.kernel_pools_config() == {
        "01_window_placement.ipynb": {"pool_size": 30},
        "02_output_size_rounding.ipynb": {"pool_size": 30},
        "default": {"pool_size": 0},          # other notebooks: a kernel per page, as before
    }
    assert "--VoilaConfiguration.preheat_kernel=True" in plan.voila_options()


@pytest.mark.parametrize("size, error", [(0, ValueError), (201, ValueError), (2.5, TypeError),
                                         (True, TypeError)])
def test_pool_plan_refuses_bad_sizes(size, error):
    with pytest.raises(error, match="--class-size"):
        classroom.PoolPlan(size, ("01_window_placement",))


def test_dry_run_class_size_preheats_the_opened_notebook(tmp_path, capsys):
    out, err = _dry_run(capsys, tmp_path, "01", "--class-size", "3")
    assert "--VoilaConfiguration.preheat_kernel=True" in out
    assert "'01_window_placement.ipynb': {'pool_size': 3}" in out
    assert "--VoilaKernelManager.fill_delay=300" in out
    assert "3 preheated kernels for 01_window_placement" in err
    assert f"about {classroom.KERNEL_MIB_ESTIMATE} MiB each" in err


def test_dry_run_preheat_list_and_refill_delay(tmp_path, capsys):
    out, err = _dry_run(capsys, tmp_path, "01", "--class-size", "2", "--preheat", "01,03",
                        "--refill-delay", "30")
    assert "'01_window_placement.ipynb': {'pool_size': 2}" in out
    assert "'03_index_flattening.ipynb': {'pool_size': 2}" in out
    assert "--VoilaKernelManager.fill_delay=30" in out
    assert "(4 in all)" in err


def test_without_class_size_nothing_is_preheated(tmp_path, capsys):
    out, _ = _dry_run(capsys, tmp_path, "01")
    assert "preheat" not in out
    # but outputs are always waited for, and the page says when the server is busy
    assert "--VoilaExecutor.iopub_timeout=120" in out
    assert "--template=pooltutor-light" in out        # the light front end by default
    # Unix sockets, with or without a pool: kernels started at once raced for TCP ports
    # and some died
    assert classroom.kernel_transport_options("posix") == ["--KernelManager.transport=ipc"]
    assert all(option in out for option in classroom.kernel_transport_options())
    assert "--Voila.ip=127.0.0.1" in out and "--Voila.token" not in out


def test_front_end_lab_serves_voilas_jupyterlab_page(tmp_path, capsys):
    out, _ = _dry_run(capsys, tmp_path, "01", "--front-end", "lab")
    assert f"--template={classroom.TEMPLATE_NAME}" in out
    assert "--template=pooltutor-light" not in out


# ------------------------------------------------------------ the network

def test_network_address_gets_a_generated_token_and_a_url_to_hand_out(tmp_path, capsys):
    out, err = _dry_run(capsys, tmp_path, "01", "--ip", "0.0.0.0", "--port", "8900")
    token = re.search(r"--Voila.token=(\S+)", out).group(1)
    assert len(token) == 8
    assert "(generated)" in err and token in err
    url = out.strip().splitlines()[-1]
    assert url.endswith(f":8900/voila/render/01_window_placement.ipynb?token={token}")
    assert "--Voila.ip=0.0.0.0" in out


def test_given_token_is_used(tmp_path, capsys):
    out, _ = _dry_run(capsys, tmp_path, "--ip", "0.0.0.0", "--token", "pool-class")
    assert "--Voila.token=pool-class" in out
    assert out.strip().endswith("?token=pool-class")


def test_no_token_is_said_explicitly(tmp_path, capsys):
    out, err = _dry_run(capsys, tmp_path, "--ip", "0.0.0.0", "--no-token")
    assert "--Voila.token" not in out
    assert "anyone on the network" in err


def test_two_generated_tokens_differ():
    assert classroom.check_network("0.0.0.0").token != classroom.check_network("0.0.0.0").token


BAD = {
    "empty token": ["app", "--ip", "0.0.0.0", "--token", ""],
    "short token": ["app", "--ip", "0.0.0.0", "--token", "ab"],
    "token and no-token": ["app", "--ip", "0.0.0.0", "--token", "abcd", "--no-token"],
    "not an address": ["app", "--ip", "classroom"],
    "class size zero": ["app", "--class-size", "0"],
    "class size word": ["app", "--class-size", "thirty"],
    "preheat without class size": ["app", "--preheat", "01"],
    "preheat unknown": ["app", "--class-size", "2", "--preheat", "nope"],
    "empty Voila token on the network": ["app", "--ip", "0.0.0.0", "--", "--Voila.token="],
    "unknown front end": ["app", "--front-end", "classic"],
}


@pytest.mark.parametrize("argv", BAD.values(), ids=BAD.keys())
def test_classroom_misuse_is_one_line_and_exit_2(capsys, argv):
    line = bad_arguments_error(cli.main, capsys, argv)
    assert line.startswith("pooltutor app: error:")


def test_loopback_detection():
    assert classroom.is_loopback("127.0.0.2") and classroom.is_loopback("::1")
    assert not classroom.is_loopback("10.1.2.3") and not classroom.is_loopback("::")


# ------------------------------------------------------------- the busy page

@pytest.mark.parametrize("front_end", sorted(classroom.FRONT_ENDS))
def test_template_says_busy_after_the_documented_delay(front_end):
    folder = TEMPLATE.parent / classroom.FRONT_ENDS[front_end]
    text = (folder / "index.html.j2").read_text()
    assert f"page.status_css(busy_after | default({classroom.BUSY_AFTER_S}))" in text
    assert "page.status_and_accessibility(nb)" in text
    macros = (TEMPLATE / "page.macros.j2").read_text()
    assert "reload the page in a minute" in macros
    assert 'role="status"' in macros                 # read out by screen readers
    assert "body:has(.jupyter-widgets) .pooltutor-status { display: none; }" in macros
    assert "animation: pooltutor-show 0s linear {{ busy_after }}s forwards" in macros
    base = {"light": "pooltutor", "lab": "lab"}[front_end]
    assert f'"base_template": "{base}"' in (folder / "conf.json").read_text()


def test_template_ships_in_the_package():
    assert (TEMPLATE / "index.html.j2").is_file()
    assert Path(app.__file__).parent in TEMPLATE.parents


# ---------------------------------------------------- a class of two, for real

def _write_demo(folder: Path) -> None:
    import nbformat

    folder.mkdir(parents=True, exist_ok=True)
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nb.cells = [nbformat.v4.new_markdown_cell("# A class of two"),
                nbformat.v4.new_code_cell("from pooltutor.viz import WindowStepper\n"
                                          "WindowStepper(size=5)")]
    nbformat.write(nb, folder / "classdemo.ipynb")


@pytest.mark.slow
def test_two_pages_at_once_are_served_from_preheated_kernels(tmp_path):
    _write_demo(tmp_path / "nb")
    port = free_port()
    log_path = tmp_path / "app.log"
    env = {"JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"),
           "JUPYTER_CONFIG_DIR": str(tmp_path / "config")}
    import os

    with log_path.open("w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "pooltutor", "app", "classdemo", "--no-browser",
             "--port", str(port), "--notebook-dir", str(tmp_path / "nb"),
             "--class-size", "2", "--token", "twostudents"],
            cwd=tmp_path, env={**os.environ, **env}, stdin=subprocess.DEVNULL, stdout=log,
            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 240
        while "the kernel pool is warm:" not in log_path.read_text(errors="replace"):
            assert proc.poll() is None, log_path.read_text()
            assert time.monotonic() < deadline, "pool not warm in 240 s:\n" + log_path.read_text()
            time.sleep(0.5)
        warm = re.search(r"the kernel pool is warm: 2 kernel\(s\) ran classdemo in \d+ s; "
                         r"(\d+) MiB each", log_path.read_text())
        assert warm, log_path.read_text()
        assert 40 < int(warm.group(1)) < 1000          # a kernel that imported matplotlib

        url = f"http://127.0.0.1:{port}/voila/render/classdemo.ipynb?token=twostudents"
        pages: list[str] = []

        def open_page():
            with urllib.request.urlopen(url, timeout=120) as response:
                pages.append(response.read().decode())

        students = [threading.Thread(target=open_page) for _ in range(2)]
        for s in students:
            s.start()
        for s in students:
            s.join(150)
        assert len(pages) == 2
        for page in pages:
            assert "pooltutor-status" in page                    # the busy-aware template
            assert "/voila/templates/pooltutor-light/static/light.js" in page  # light page
            assert "application/vnd.jupyter.widget-view+json" in page   # the explorer is there
        used = re.findall(r"Using pre-heated kernel: (\S+) for classdemo.ipynb",
                          log_path.read_text())
        assert len(set(used)) == 2, log_path.read_text()

        # without the token, no notebook: Voila answers with its login form
        try:
            with urllib.request.urlopen(url.split("?")[0], timeout=30) as response:
                body, where = response.read().decode(), response.url
        except urllib.error.HTTPError as exc:
            body, where = "", f"refused {exc.code}"
        assert "widget-view+json" not in body
        assert "login" in where or where.startswith("refused")
    finally:
        stop(proc, grace=10)


# ------------------------------------------- JupyterHub / BinderHub: repo2docker's inputs

REPO_ROOT = Path(__file__).resolve().parents[2]


def test_repo2docker_inputs_are_valid():
    """repo2docker builds the image from environment.yml, then runs postBuild."""
    import os
    import stat

    import yaml

    env = yaml.safe_load((REPO_ROOT / "environment.yml").read_text(encoding="utf-8"))
    assert env["channels"] == ["conda-forge"]
    deps = env["dependencies"]
    assert any(isinstance(d, str) and d.startswith("python") for d in deps)
    pip = [d for d in deps if isinstance(d, dict)]
    assert pip and pip[0]["pip"] == ["-e ."], "the image installs the project itself"
    for name in ("voila", "jupyterlab", "ipywidgets", "jupytext"):
        assert any(isinstance(d, str) and d.split(">")[0].split("=")[0] == name for d in deps)
    post_build = REPO_ROOT / "postBuild"
    assert post_build.read_text().startswith("#!/bin/bash")
    assert post_build.stat().st_mode & stat.S_IXUSR and os.access(post_build, os.X_OK)


def test_readme_gives_the_app_urls_for_a_hub():
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Teaching a large class", 1)[1].split("\n## ", 1)[0]
    assert "nbgitpuller" in section and "repo2docker" in section
    assert "voila/render/notebooks/01_window_placement.ipynb" in section
    assert "--class-size" in text


@pytest.mark.slow
def test_postbuild_runs_in_a_clean_virtual_environment(tmp_path):
    """postBuild, as repo2docker runs it (bash, in the repository), in a fresh venv that
    has only what postBuild itself uses (jupytext), writes every notebook."""
    import shutil
    import venv

    repo = tmp_path / "repo"
    shutil.copytree(REPO_ROOT / "notebooks", repo / "notebooks",
                    ignore=shutil.ignore_patterns("*.ipynb", ".ipynb_checkpoints"))
    shutil.copy2(REPO_ROOT / "jupytext.toml", repo)
    shutil.copy2(REPO_ROOT / "postBuild", repo)
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    pip = subprocess.run([str(env_dir / "bin" / "python"), "-m", "pip", "install", "-q",
                          "jupytext"], capture_output=True, text=True, timeout=600)
    assert pip.returncode == 0, pip.stderr[-2000:]
    import os

    run = subprocess.run(["bash", "postBuild"], cwd=repo, capture_output=True, text=True,
                         timeout=300, env={**os.environ,
                                           "PATH": f"{env_dir / 'bin'}:{os.environ['PATH']}"})
    assert run.returncode == 0, run.stderr[-2000:]
    sources = sorted(p.stem for p in (repo / "notebooks").glob("[0-9]*.py"))
    written = sorted(p.stem for p in (repo / "notebooks").glob("[0-9]*.ipynb"))
    assert sources and written == sources
