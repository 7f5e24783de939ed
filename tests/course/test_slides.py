"""``pooltutor slides`` and ``pooltutor app`` without a browser: arguments, name
resolution, the pinned JavaScript, and what the exported decks contain.

The decks are exported once per session (:func:`deck_helpers.exported_decks`, shared with
``tests/course/test_browser.py``): every course notebook plus :data:`DEMO_SOURCE`, a
small notebook that uses each delivery feature (a static figure with
``hide-input``, a ``remove-cell`` cell, a formula, a live explorer, a
kernel-free stepper and a self-check).
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import re
import tarfile
from html.parser import HTMLParser
from pathlib import Path

import pytest
from process_helpers import bad_arguments_error

from pooltutor.course import app, cli, js_assets, slides
from pooltutor.course.notebooks import UnknownNotebookError, resolve_notebooks

from deck_helpers import (  # isort: skip
    DEMO_NAME,
    HIDDEN_MARKER,
    NOTEBOOK_NAMES,
    REMOVED_MARKER,
    exported_decks,
    fake_chromium,
    run_cli,
    write_demo,
)


@pytest.fixture(scope="module")
def decks(tmp_path_factory) -> Path:
    return exported_decks(tmp_path_factory.getbasetemp())


# ------------------------------------------------------------ bad arguments

BAD_ARGUMENTS = {
    "slides unknown notebook": ["slides", "no_such_notebook"],
    "slides unknown option": ["slides", "--bogus"],
    "slides jobs zero": ["slides", "--jobs", "0"],
    "slides timeout not a number": ["slides", "--timeout", "soon"],
    "slides out missing": ["slides", "--out"],
    "slides passthrough refused": ["slides", "--ServerApp.token=x"],
    "app unknown notebook": ["app", "no_such_notebook"],
    "app two notebooks": ["app", NOTEBOOK_NAMES[0], NOTEBOOK_NAMES[0]],
    "app notebook as a path": ["app", "some/folder/x.ipynb"],
    "app port out of range": ["app", "--port", "70000"],
    "app abbreviated option": ["app", "--no-brow"],
}


@pytest.mark.parametrize("argv", BAD_ARGUMENTS.values(), ids=BAD_ARGUMENTS.keys())
def test_bad_arguments_exit_2_with_one_line(capsys, argv):
    line = bad_arguments_error(cli.main, capsys, argv)
    assert line.startswith(f"pooltutor {argv[0]}: error:")


@pytest.mark.parametrize("command", ["slides", "app"])
def test_unknown_notebook_lists_the_available_ones(capsys, command):
    with pytest.raises(SystemExit):
        cli.main([command, "no_such_notebook"])
    err = capsys.readouterr().err
    assert "'no_such_notebook'" in err
    for name in NOTEBOOK_NAMES:
        assert name in err


def test_out_that_is_a_file_is_a_usage_error(tmp_path, capsys):
    target = tmp_path / "file.txt"
    target.write_text("x")
    with pytest.raises(SystemExit) as exc:
        cli.main(["slides", NOTEBOOK_NAMES[0], "--out", str(target)])
    assert exc.value.code == 2
    assert "not a folder" in capsys.readouterr().err


def test_bad_notebook_in_a_subprocess_has_no_traceback(tmp_path):
    proc = run_cli("slides", "nope", cwd=tmp_path)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "slides").exists()  # nothing was started


def test_both_commands_are_registered():
    help_text = cli.build_parser().format_help()
    assert "slides" in help_text and "app" in help_text and "lab" in help_text


# ------------------------------------------------------- name resolution


@pytest.fixture
def fake_course(tmp_path) -> list[Path]:
    names = ["00_course_map", "01_window_placement", "02_output_size_rounding",
             "02b_one_model_six_runtimes", "05_quantized_relu", "05b_requantization_rounding"]
    paths = []
    for name in names:
        path = tmp_path / f"{name}.py"
        path.write_text("# %%\n")
        paths.append(path)
    return paths


@pytest.mark.parametrize(
    ("name", "stem"),
    [("01_window_placement", "01_window_placement"),
     ("01_window_placement.py", "01_window_placement"),
     ("01_window_placement.ipynb", "01_window_placement"), ("01", "01_window_placement"),
     ("00_course", "00_course_map"), ("02_", "02_output_size_rounding")],
)
def test_resolve_notebooks_by_name_suffix_or_prefix(fake_course, name, stem):
    assert [p.stem for p in resolve_notebooks([name], fake_course)] == [stem]


def test_resolve_notebooks_defaults_keeps_order_and_drops_repeats(fake_course):
    assert resolve_notebooks([], fake_course) == fake_course
    got = resolve_notebooks(["01", "00", "01_window_placement"], fake_course)
    assert [p.stem for p in got] == ["01_window_placement", "00_course_map"]


def test_resolve_notebooks_accepts_a_path(fake_course, tmp_path):
    other = tmp_path / "elsewhere" / "mine.ipynb"
    other.parent.mkdir()
    other.write_text("{}")
    assert resolve_notebooks([str(other)], fake_course) == [other]


@pytest.mark.parametrize(("number", "stem", "b_stem"), [
    ("02", "02_output_size_rounding", "02b_one_model_six_runtimes"),
    ("05", "05_quantized_relu", "05b_requantization_rounding"),
])
def test_a_whole_number_picks_its_notebook_not_its_b_part(fake_course, number, stem, b_stem):
    """"02" is 02_output_size_rounding even beside 02b_...; "02b" is the other one."""
    assert [p.stem for p in resolve_notebooks([number], fake_course)] == [stem]
    assert [p.stem for p in resolve_notebooks([number + "b"], fake_course)] == [b_stem]


def test_the_real_course_resolves_every_split_notebook():
    """The shipped notebooks: "02"/"05" name the first part, "02b"/"05b" the second."""
    for key in ("02", "02b", "03", "03b", "05", "05b"):
        (path,) = resolve_notebooks([key])
        assert path.stem.startswith(key + "_"), (key, path.stem)


@pytest.mark.parametrize(("name", "message"), [
    ("0", "ambiguous: it starts 00_course_map, 01_"),
    ("03", "no notebook '03'; available: 00_course_map, "),
    ("", "no notebook ''"),
])
def test_resolve_notebooks_errors(fake_course, name, message):
    with pytest.raises(UnknownNotebookError, match=re.escape(message)):
        resolve_notebooks([name], fake_course)


def test_export_decks_refuses_bad_arguments_before_any_work(tmp_path):
    from pooltutor.errors import PoolTutorError, PoolTutorTypeError

    nb = tmp_path / "a.py"
    nb.write_text("# %%\n")
    with pytest.raises(PoolTutorTypeError, match="notebooks="):
        slides.export_decks(str(nb), tmp_path / "out")
    with pytest.raises(PoolTutorError, match="not a .py or .ipynb notebook file"):
        slides.export_decks([tmp_path / "missing.py"], tmp_path / "out")
    with pytest.raises(PoolTutorError, match="jobs=0"):
        slides.export_decks([nb], tmp_path / "out", jobs=0)
    with pytest.raises(PoolTutorTypeError, match="timeout="):
        slides.export_decks([nb], tmp_path / "out", timeout=1.5)
    assert not (tmp_path / "out").exists()


# -------------------------------------------------------------------- app


def test_app_dry_run_prepares_notebooks_and_opens_the_course_map(tmp_path, capsys):
    dest = tmp_path / "nb"
    assert cli.main(["app", "--dry-run", "--notebook-dir", str(dest), "--port", "8899",
                     "--VoilaConfiguration.theme=dark"]) == 0
    out = capsys.readouterr().out.splitlines()
    from pooltutor.course import classroom

    timeouts = " ".join([*(f"--{k}={v}" for k, v in classroom.CLASSROOM_TIMEOUTS.items()),
                         *classroom.kernel_transport_options()])
    assert out[0] == (f"voila {dest.resolve()} --Voila.ip=127.0.0.1 --Voila.open_browser=False "
                      f"--template=pooltutor-light {timeouts} "
                      "--Voila.port=8899 --VoilaConfiguration.theme=dark")
    default = app.DEFAULT_NOTEBOOK if app.DEFAULT_NOTEBOOK in NOTEBOOK_NAMES else NOTEBOOK_NAMES[0]
    assert out[1] == f"http://127.0.0.1:8899/voila/render/{default}.ipynb"
    for name in NOTEBOOK_NAMES:
        assert (dest / f"{name}.ipynb").is_file()


def test_app_dry_run_named_notebook_and_extra_notebooks_in_the_folder(tmp_path, capsys):
    dest = tmp_path / "nb"
    write_demo(dest)  # a notebook of the user's own, next to the course
    assert cli.main(["app", DEMO_NAME, "--dry-run", "--notebook-dir", str(dest)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == f"http://127.0.0.1:{app.DEFAULT_PORT}/voila/render/{DEMO_NAME}.ipynb"
    assert (dest / f"{DEMO_NAME}.ipynb").is_file()
    if len(NOTEBOOK_NAMES) > 1:
        argv = ["app", NOTEBOOK_NAMES[1][:2], "--dry-run", "--notebook-dir", str(dest)]
        assert cli.main(argv) == 0
        assert capsys.readouterr().out.splitlines()[1].endswith(f"/{NOTEBOOK_NAMES[1]}.ipynb")


# ------------------------------------------------------- pinned JavaScript


def test_online_and_offline_decks_use_the_same_pinned_versions():
    online, offline = js_assets.asset_urls(False), js_assets.asset_urls(True)
    assert set(online) == set(offline) == {"reveal", "require_js", "jquery", "widgets", "mathjax"}
    for key, url in online.items():
        folder = offline[key].split("/")[1]
        package = js_assets.JS_PACKAGES[folder]
        assert url.startswith(f"https://unpkg.com/{package.name}@{package.version}")
        assert "@*" not in url and "^" not in url
        assert not offline[key].startswith(("http:", "https:", "/"))
    assert js_assets.JS_PACKAGES["html-manager"].version == "1.0.15"
    assert js_assets.JS_PACKAGES["reveal.js"].version == "4.0.2"


def _fake_package(cache: Path, files: dict[str, bytes]) -> js_assets.JSPackage:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    blob = buf.getvalue()
    integrity = "sha512-" + base64.b64encode(hashlib.sha512(blob).digest()).decode()
    package = js_assets.JSPackage("@fake/pkg", "1.0.0", integrity,
                               ("dist/*.css", "dist/keep.js"), "fake")
    cache.mkdir(parents=True, exist_ok=True)
    (cache / package.tarball_name).write_bytes(blob)
    return package


def test_offline_assets_come_from_the_verified_tarball_only(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    css = b"@import url(https://fonts.googleapis.com/css?family=Lato:400);\nbody{color:red}\n"
    package = _fake_package(cache, {"dist/theme.css": css, "dist/keep.js": b"1",
                                    "dist/drop.js": b"2", "dist/sub/deep.css": b"x"})
    monkeypatch.setattr(js_assets, "JS_PACKAGES", {"fake": package})
    monkeypatch.setattr(js_assets, "_npm", lambda: pytest.fail("npm must not run: all are cached"))
    lib = js_assets.install_offline_assets(tmp_path / "out", cache)
    files = sorted(p.relative_to(lib).as_posix() for p in lib.rglob("*") if p.is_file())
    assert files == ["fake/.version", "fake/dist/keep.js", "fake/dist/theme.css"]
    assert (lib / "fake/dist/theme.css").read_text() == "\nbody{color:red}\n"  # no Google fonts
    # a second call finds the stamp and does nothing (the tarball may even be gone)
    (cache / package.tarball_name).unlink()
    assert js_assets.install_offline_assets(tmp_path / "out", cache) == lib


def test_a_tampered_tarball_is_refused_and_removed(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    package = _fake_package(cache, {"dist/keep.js": b"1"})
    tampered = js_assets.JSPackage(package.name, package.version, "sha512-" + "A" * 86 + "==",
                                package.files, package.folder)
    monkeypatch.setattr(js_assets, "JS_PACKAGES", {"fake": tampered})
    with pytest.raises(slides.SlidesError, match="is not @fake/pkg@1.0.0 as published"):
        js_assets.install_offline_assets(tmp_path / "out", cache)
    assert not (cache / package.tarball_name).exists()
    assert not (tmp_path / "out" / "lib" / "fake").exists()


def test_missing_npm_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(js_assets.shutil, "which", lambda name: None)
    with pytest.raises(slides.SlidesError, match=r"npm \(Node.js\) was not found"):
        js_assets.fetch_js_packages(tmp_path / "empty-cache")


# ------------------------------------------------------------ exported decks


class _Links(HTMLParser):
    """Every src / href attribute of a page."""

    def __init__(self):
        super().__init__()
        self.urls: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href") and value is not None:
                self.urls.append((tag, name, value))


def _links(html_text: str) -> list[tuple[str, str, str]]:
    parser = _Links()
    parser.feed(html_text)
    return parser.urls


def _widget_state(html_text: str) -> dict:
    match = re.search(r'<script type="application/vnd.jupyter.widget-state\+json">(.*?)</script>',
                      html_text, re.S)
    assert match, "no widget state embedded"
    return json.loads(match.group(1))


DECK_NAMES = [*NOTEBOOK_NAMES, DEMO_NAME]


@pytest.mark.slow
@pytest.mark.parametrize("name", DECK_NAMES)
def test_deck_is_complete_and_offline(decks: Path, name: str):
    text = (decks / f"{name}{slides.DECK_SUFFIX}").read_text(encoding="utf-8")
    assert "<section" in text
    # every static figure is embedded, and never taller than a slide
    assert "data:image/png;base64," in text
    assert "max-height: 600px" in text
    # no output shows an error
    assert "Traceback" not in text
    assert 'data-mime-type="application/vnd.jupyter.stderr"' not in text
    # offline: no src/href leaves the folder, and each local one exists
    for tag, attr, url in _links(text):
        assert not re.match(r"(?i)^(https?:)?//", url), f"<{tag} {attr}={url!r}> needs the network"
        if not url.startswith(("data:", "#", "blob:", "javascript:")):
            local = decks / url.split("?")[0].split("#")[0]
            assert local.is_file(), f"<{tag} {attr}={url!r}> is missing"
    assert "@import url(http" not in text
    # the scripts it loads (through require.js and the widget loader) are local files
    for url in js_assets.asset_urls(True).values():
        target = decks / url.split("?")[0]
        assert target.is_file() or (target / "dist" / "reveal.js").is_file(), url
        assert url in text or url.split("?")[0] in text
    # widgets: every view on the page has its model in the embedded state
    views = re.findall(r'<script type="application/vnd.jupyter.widget-view\+json">(.*?)</script>',
                       text, re.S)
    if views:
        state = _widget_state(text)["state"]
        for view in views:
            assert json.loads(view)["model_id"] in state


@pytest.mark.slow
def test_demo_deck_follows_the_tags(decks: Path):
    text = (decks / f"{DEMO_NAME}{slides.DECK_SUFFIX}").read_text(encoding="utf-8")
    assert REMOVED_MARKER not in text  # remove-cell: gone, input and output
    assert HIDDEN_MARKER not in text  # hide-input: the code is hidden ...
    assert text.count("data:image/png;base64,") >= 1  # ... its figure is shown
    assert "class WindowExplorer" not in text  # skip + hide-input
    assert not re.search(r"In&nbsp;\[\d|Out\[\d", text)  # no prompts on slides
    assert len(re.findall(r"<section\b[^>]*>\s*<section\b", text)) == 3
    # the kernel-free stepper: a Stack of PNG frames linked to a slider in the browser
    state = _widget_state(text)["state"]
    models = {m["model_name"] for m in state.values()}
    assert {"StackModel", "IntSliderModel", "LinkModel", "ImageModel"} <= models
    stacks = [m for m in state.values() if m["model_name"] == "StackModel"]
    assert any(len(m["state"]["children"]) == 4 for m in stacks)  # 2x2 output -> 4 windows
    # the self-check shows its kernel-free form (question + "Show answer")
    assert "pooltutor-selfcheck-static" in text and "Show answer" in text
    # formulas render with the local MathJax, SVG output
    assert "lib/mathjax/MathJax.js?config=TeX-AMS_SVG-full" in text


@pytest.mark.slow
def test_offline_lib_is_small_and_pinned(decks: Path):
    lib = decks / js_assets.LIB_DIR
    for package in js_assets.JS_PACKAGES.values():
        assert (lib / package.folder / ".version").read_text().strip() == package.stamp
    css = "".join(p.read_text(encoding="utf-8") for p in lib.rglob("*.css"))
    assert "fonts.googleapis.com" not in css
    size = sum(p.stat().st_size for p in lib.rglob("*") if p.is_file())
    assert size < 8_000_000, f"lib/ is {size} bytes"


@pytest.mark.slow
def test_index_lists_every_deck(decks: Path):
    index = (decks / "index.html").read_text(encoding="utf-8")
    for name in DECK_NAMES:
        assert f'href="{name}{slides.DECK_SUFFIX}"' in index


@pytest.mark.slow
def test_a_failing_cell_names_the_notebook_and_cell(tmp_path):
    bad = tmp_path / "broken.py"
    bad.write_text("# %%\nx = 1\n\n# %%\n1 / 0\n", encoding="utf-8")
    proc = run_cli("slides", str(bad), "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert proc.returncode == 1
    last = proc.stderr.strip().splitlines()[-1]
    assert last == ("pooltutor slides: error: broken.py: cell 2 raised ZeroDivisionError: "
                    "division by zero")
    assert "Traceback" not in proc.stderr


def _flaky_kernels(monkeypatch, failures: int, after_a_cell: bool = False) -> list[int]:
    """NotebookClient whose first ``failures`` kernels die as one whose port was taken
    (before any cell, or after the first cell started); returns the list of attempts."""
    import nbclient

    attempts: list[int] = []
    real = nbclient.NotebookClient.async_execute

    async def execute(self, **kwargs):
        attempts.append(len(attempts) + 1)
        if len(attempts) <= failures:
            if after_a_cell:
                self.on_cell_execute(cell=self.nb.cells[0], cell_index=0)
            raise RuntimeError("Kernel died before replying to kernel_info")
        return await real(self, **kwargs)

    monkeypatch.setattr(nbclient.NotebookClient, "async_execute", execute)
    return attempts


def _tiny_notebook(tmp_path):
    import nbformat

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 6 * 7\nx")])
    return nb, tmp_path / "tiny.py"


@pytest.mark.slow
def test_a_kernel_that_dies_before_its_first_cell_is_replaced(tmp_path, monkeypatch, capsys):
    """A port taken between a kernel's start and its bind (kernels starting at once):
    the notebook has not run, so another kernel runs it."""
    import asyncio

    nb, path = _tiny_notebook(tmp_path)
    attempts = _flaky_kernels(monkeypatch, failures=2)
    asyncio.run(slides._execute(nb, path, timeout=60))
    assert attempts == [1, 2, 3]
    assert nb.cells[0].outputs[0]["data"]["text/plain"] == "42"
    assert capsys.readouterr().err.count("died before its first cell") == 2


def test_kernels_that_keep_dying_or_die_after_a_cell_are_reported(tmp_path, monkeypatch):
    import asyncio

    nb, path = _tiny_notebook(tmp_path)
    attempts = _flaky_kernels(monkeypatch, failures=slides.KERNEL_ATTEMPTS)
    with pytest.raises(slides.SlidesError, match=r"^tiny.py: cannot run the notebook: Kernel "
                       r"died before replying to kernel_info \(3 kernels started\)$"):
        asyncio.run(slides._execute(nb, path, timeout=60))
    assert attempts == [1, 2, 3]
    attempts = _flaky_kernels(monkeypatch, failures=1, after_a_cell=True)
    with pytest.raises(slides.SlidesError, match=r"^tiny.py: cannot run the notebook: Kernel "
                       r"died before replying to kernel_info$"):
        asyncio.run(slides._execute(nb, path, timeout=60))
    assert attempts == [1]              # a cell had started: not run again


def test_mplbackend_is_not_passed_to_kernels(monkeypatch):
    monkeypatch.setenv("MPLBACKEND", "agg")
    assert "MPLBACKEND" not in slides._kernel_env()
    assert os.environ["MPLBACKEND"] == "agg"  # ours is untouched


# ------------------------------------------------------------- print_pdf


def test_print_pdf_calls_chromium_on_the_print_view(tmp_path):
    deck = tmp_path / f"demo{slides.DECK_SUFFIX}"
    deck.write_text("<html></html>")
    exe = fake_chromium(tmp_path / "bin")
    pdf = slides.print_pdf(deck, chromium=str(exe))
    assert pdf == tmp_path / "demo.pdf"
    assert pdf.read_bytes().startswith(b"%PDF")
    argv = json.loads((tmp_path / "bin" / "argv.json").read_text())
    assert argv[-1] == deck.resolve().as_uri() + "?print-pdf"
    for flag in ("--headless", "--no-pdf-header-footer", "--virtual-time-budget=15000",
                 f"--print-to-pdf={pdf.resolve()}"):
        assert flag in argv
    assert any(a.startswith("--user-data-dir=") for a in argv)  # a throw-away profile


def test_print_pdf_failures_are_slides_errors(tmp_path):
    deck = tmp_path / f"demo{slides.DECK_SUFFIX}"
    deck.write_text("<html></html>")
    exe = fake_chromium(tmp_path / "bin", exit_code=3, message="no display")
    with pytest.raises(slides.SlidesError,
                       match=re.escape(f"could not print demo{slides.DECK_SUFFIX} (exit 3): "
                                       "no display")):
        slides.print_pdf(deck, chromium=str(exe))
    with pytest.raises(slides.SlidesError, match="could not print"):
        slides.print_pdf(deck, chromium=str(tmp_path / "no-such-chromium"))
