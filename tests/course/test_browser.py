"""The classroom delivery in a real browser: Debian's Chromium driven by Playwright.

* ``pooltutor app`` (Voila, one server for the module): every notebook renders
  without an error, a slider moved with the keyboard changes the picture, a
  self-check answers right and wrong for typed answers;
* ``pooltutor slides --offline`` (exported once per session, shared with
  ``tests/course/test_slides.py``): every deck opens from ``file://`` with all
  its pictures loaded and makes no request outside the file system; the
  kernel-free stepper changes frame; ``print_pdf`` makes a handout.

Without Chromium or Playwright these tests skip, unless
``POOLTUTOR_REQUIRE_BROWSER=1`` (set by ``.ci/run``): then they fail.  With
``POOLTUTOR_SCREENSHOTS=<folder>`` they also save ``app.png`` and ``slide.png``
there (the README's pictures).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from pooltutor.course import js_assets, slides
from pooltutor.course.notebooks import notebook_sources

# the session's deck export and the demo notebook, shared with the non-browser tests
from process_helpers import chromium_missing, free_port, skip_without_browser, stop  # isort: skip
from deck_helpers import (  # isort: skip
    DEMO_NAME,
    DEMO_RIGHT,
    DEMO_WRONG,
    exported_decks,
    start_deck_export,
    write_demo,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

REPO_ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = notebook_sources(REPO_ROOT / "notebooks")
PAGE_NAMES = [*(p.stem for p in NOTEBOOKS), DEMO_NAME]
CHROMIUM = os.environ.get("POOLTUTOR_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--no-first-run", "--disable-quic"]
APP_START_TIMEOUT = 90  # s for Voila to answer
RENDER_TIMEOUT = 120_000  # ms for Voila to execute one notebook (all run at once)
SCREENSHOTS = os.environ.get("POOLTUTOR_SCREENSHOTS")
MAX_SCREENSHOT_BYTES = 150_000


def _missing_browser() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install playwright)"
    return chromium_missing(CHROMIUM)


skip_without_browser(_missing_browser(), module=True)


# ------------------------------------------------------------------ fixtures


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def deck_export(tmp_path_factory):
    """The session's deck export, started in the background as early as possible."""
    proc = start_deck_export(tmp_path_factory.getbasetemp())
    yield proc
    if proc is not None:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()              # closes its pipes, read or not


@pytest.fixture(scope="module")
def decks(tmp_path_factory, deck_export) -> Path:
    return exported_decks(tmp_path_factory.getbasetemp(), deck_export)


#: A teacher's own notebook with ipywidgets' Output widget: a button that prints into
#: one, and ``interact`` (which shows its function's output in one).
OUTPUT_DEMO_NAME = "zz_output_demo"
OUTPUT_DEMO_SOURCE = """# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Output widgets

# %%
import ipywidgets as widgets

out = widgets.Output()
button = widgets.Button(description="Print")


def on_click(_):
    with out:
        print("clicked at the page")


button.on_click(on_click)
widgets.VBox([button, out])

# %%
@widgets.interact(n=widgets.IntSlider(value=2, min=1, max=5, description="n"))
def square(n):
    print(f"n squared is {n * n}")
"""


def _write_notebooks(folder: Path) -> None:
    write_demo(folder)
    (folder / f"{OUTPUT_DEMO_NAME}.py").write_text(OUTPUT_DEMO_SOURCE, encoding="utf-8")


@contextlib.contextmanager
def _serve_app(folder: Path, *options: str):
    """``pooltutor app OPTIONS`` on a free port serving ``folder / "notebooks"``: yields
    the base URL and the log's path."""
    port = free_port()
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(folder / "runtime"),
           "JUPYTER_CONFIG_DIR": str(folder / "config")}
    log_path = folder / "app.log"
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "pooltutor", "app", "--no-browser", "--port", str(port),
             "--notebook-dir", str(folder / "notebooks"), *options, "--",
             "--VoilaConfiguration.show_tracebacks=True"],
            cwd=folder, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,  # own process group: stop Voila and its kernels
        )
    base = f"http://127.0.0.1:{port}"
    try:
        start = time.monotonic()
        while True:
            if proc.poll() is not None:
                pytest.fail(f"pooltutor app exited with {proc.returncode}:\n{log_path.read_text()}")
            try:
                with urllib.request.urlopen(f"{base}/voila/tree", timeout=5) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() - start > APP_START_TIMEOUT:
                pytest.fail(f"no answer from {base} in {APP_START_TIMEOUT} s:\n"
                            f"{log_path.read_text()}")
            time.sleep(0.25)
        yield base, log_path
    finally:
        stop(proc, grace=2)


@pytest.fixture(scope="module")
def app_server(tmp_path_factory, deck_export):
    """``pooltutor app`` (its default, light front end) on a free port, serving the
    course notebooks and the demo (the deck export runs meanwhile)."""
    folder = tmp_path_factory.mktemp("app")
    _write_notebooks(folder / "notebooks")
    with _serve_app(folder) as served:
        yield served


def _render(page, served, name: str) -> None:
    """Open notebook ``name`` of the app ``served`` (its base URL and log) and wait until
    Voila has run it (the page's load event).  If that does not come, the page is loaded
    once more, as a student would, and the first attempt is reported on the real stderr
    (it lands in the CI log); if the second does not come either, the test fails with
    what the page shows and the end of the app's log, so that a hang says where it is."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    base, log_path = served
    problem = ""
    for attempt in (1, 2):
        page.goto(f"{base}/voila/render/{name}.ipynb", wait_until="commit",
                  timeout=RENDER_TIMEOUT)
        try:
            page.wait_for_load_state("load", timeout=RENDER_TIMEOUT)
        except PlaywrightTimeout:
            shown = page.evaluate("() => document.readyState + ': ' + "
                                  "(document.body ? document.body.innerText.slice(-600) : '')")
            log = "\n".join(Path(log_path).read_text(errors="replace").splitlines()[-40:])
            problem = (f"{name}: no load event in {RENDER_TIMEOUT / 1000:g} s (attempt "
                       f"{attempt}); the page shows {shown!r}\nthe app's log ends:\n{log}")
            if attempt == 2:
                pytest.fail(problem)
            continue
        if problem:
            print(f"\n[tests/course/test_browser.py] loaded on the second attempt; the first: "
                  f"{problem}", file=sys.__stderr__, flush=True)
        return


class _Tabs(dict):
    """The app's pages by notebook name, each a tab of one browser window; a page looked
    up is brought to the front first, as a student clicks its tab before using it.

    Chromium throttles the timers and animation frames of background tabs (to about
    one a second), and Playwright waits for animation frames before it scrolls or
    clicks: in a background tab one click took 2 s, in the front one 0.1 s.
    """

    def __getitem__(self, name: str):
        page = super().__getitem__(name)
        page.bring_to_front()
        return page


@pytest.fixture(scope="module")
def app_pages(browser, app_server):
    """Every notebook opened in the app at once (Voila runs their kernels side by side)."""
    base, log_path = app_server
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    pages = _Tabs()
    for name in PAGE_NAMES:
        page = context.new_page()
        page.goto(f"{base}/voila/render/{name}.ipynb", wait_until="commit", timeout=RENDER_TIMEOUT)
        pages[name] = page
    for name in PAGE_NAMES:
        page = pages[name]              # (in front while its widgets are drawn)
        page.wait_for_load_state("load", timeout=RENDER_TIMEOUT)
        page.wait_for_load_state("networkidle", timeout=RENDER_TIMEOUT)
        _wait_until_widgets_settle(page)
    yield pages
    context.close()


def _wait_until_widgets_settle(page, quiet: float = 1.5, timeout: float = 30.0) -> None:
    """Wait until the page's widget count has not changed for ``quiet`` seconds.

    Voila sends the executed notebook, then the page's JavaScript draws the
    widgets (a second or two later), with no event that says it is done.
    """
    page.wait_for_selector("#rendered_cells", state="visible", timeout=timeout * 1000)
    has_widgets = page.evaluate(
        "() => Array.from(document.querySelectorAll("
        "'script[type=\"application/vnd.voila.cell-output+json\"]'))"
        ".some(s => s.textContent.includes('application/vnd.jupyter.widget-view+json'))")
    count, since, start = -1, time.monotonic(), time.monotonic()
    while time.monotonic() - start < timeout:
        now = page.locator(".jupyter-widgets").count()
        if has_widgets and now == 0:
            pass
        elif now != count:
            count, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return
        time.sleep(0.25)
    pytest.fail(f"the widgets of {page.url} kept changing for {timeout} s")


def _save_screenshot(page, name: str, top=None) -> None:
    """Save a small PNG of ``page`` into $POOLTUTOR_SCREENSHOTS (palette PNG < 150 kB),
    scrolled so that the locator ``top`` starts the picture."""
    if not SCREENSHOTS:
        return
    from PIL import Image

    if top is not None:
        top.evaluate("e => { e.scrollIntoView({block: 'start'}); window.scrollBy(0, -12); }")
        time.sleep(0.5)

    folder = Path(SCREENSHOTS)
    folder.mkdir(parents=True, exist_ok=True)
    raw = folder / f".{name}.raw.png"
    page.screenshot(path=str(raw))
    image = Image.open(raw).convert("RGB")
    for colors in (128, 64, 32):
        image.quantize(colors=colors, method=Image.Quantize.MEDIANCUT).save(
            folder / name, optimize=True)
        if (folder / name).stat().st_size < MAX_SCREENSHOT_BYTES:
            break
    raw.unlink()
    assert (folder / name).stat().st_size < MAX_SCREENSHOT_BYTES


# ----------------------------------------------------------------------- app


def _allowed_errors(name: str) -> int:
    """Cells tagged raises-exception in the notebook's source (their error is the lesson)."""
    path = REPO_ROOT / "notebooks" / f"{name}.py"
    if not path.is_file():
        return 0
    return len(re.findall(r"^# %%.*\braises-exception\b", path.read_text(encoding="utf-8"), re.M))


@pytest.mark.parametrize("name", PAGE_NAMES)
def test_app_serves_the_notebook_without_an_error(app_pages, name):
    page = app_pages[name]
    text = page.inner_text("body")
    errors = (page.locator('[data-mime-type="application/vnd.jupyter.stderr"]').count()
              + text.count("There was an error when executing cell"))
    allowed = _allowed_errors(name)
    assert errors <= allowed, f"{name}: {errors} error output(s) on the page:\n{text[:3000]}"
    if allowed == 0:
        assert "Traceback" not in text
    assert page.locator(".jp-Cell, .jp-OutputArea-output, .jp-RenderedMarkdown").count() > 0
    assert "404" not in page.title()
    # every picture on the page is loaded
    broken = page.evaluate("() => Array.from(document.images)"
                           ".filter(i => !(i.complete && i.naturalWidth > 0))"
                           ".map(i => i.src.slice(0, 80))")
    assert broken == []
    # the status line of pooltutor's Voila template is gone once the widgets are alive
    # (it stays, saying the server is busy, on a page whose widgets never come)
    status = page.locator(".pooltutor-status")
    if page.locator(".jupyter-widgets").count():
        assert status.count() in (0, 1) and not status.is_visible()
    elif status.count():
        pytest.fail(f"{name}: widgets never came alive: {status.inner_text()}")


@pytest.mark.parametrize("name", PAGE_NAMES)
def test_app_pages_load_nothing_from_outside_the_server(app_pages, app_server, name):
    """A classroom network may drop outside traffic: no stylesheet, script or picture of
    a page comes from anywhere but the teacher's machine (Voila's lab template links
    Font Awesome from a CDN; pooltutor's template leaves those links out)."""
    base, _ = app_server
    page = app_pages[name]
    sources = page.evaluate(
        "() => [...document.querySelectorAll('link[href], script[src], img[src]')]"
        ".map(e => e.href || e.src)")
    assert sources, f"{name}: no linked resource at all?"
    outside = [s for s in sources
               if s.startswith(("http:", "https:", "//")) and not s.startswith(base)]
    assert outside == [], f"{name}: loads from outside the server: {outside}"
    # and the page is still styled by JupyterLab's and Voila's own stylesheets
    assert page.evaluate("() => document.styleSheets.length") > 3


def test_app_status_line_says_busy_when_the_widgets_do_not_come(browser, app_server):
    """A page whose kernel never answers keeps its text and, after a while, says why."""
    context = browser.new_context()
    # the widget renderer's websocket to the kernel never answers: the widgets never come
    context.route_web_socket(re.compile(r".*/api/kernels/.*"), lambda ws: None)
    page = context.new_page()
    _render(page, app_server, DEMO_NAME)
    status = page.locator(".pooltutor-status")
    status.wait_for(state="visible", timeout=RENDER_TIMEOUT)
    assert "Starting the interactive explorers" in status.inner_text()
    # the CSS switches the message after BUSY_AFTER_S seconds: let the animations end now
    page.evaluate("() => document.getAnimations().forEach(a => a.finish())")
    assert page.locator(".pooltutor-status .busy").is_visible()
    assert "reload the page in a minute" in page.locator(".pooltutor-status .busy").inner_text()
    context.close()


@pytest.fixture(scope="module")
def lab_app_server(tmp_path_factory):
    """``pooltutor app --front-end lab`` (Voila's JupyterLab page) serving the demo alone."""
    folder = tmp_path_factory.mktemp("lab-app")
    _write_notebooks(folder / "notebooks")
    with _serve_app(folder, "--front-end", "lab") as served:
        yield served


def test_app_pages_use_the_light_front_end_and_the_lab_one_on_request(
        browser, app_server, lab_app_server):
    """The default page runs pooltutor's light front end, ``--front-end lab`` Voila's
    JupyterLab application; on both the explorer is live (a key on its slider changes
    the picture) and the status line gives way to the widgets."""
    for served, light in ((app_server, True), (lab_app_server, False)):
        base, _ = served
        context = browser.new_context(viewport={"width": 1100, "height": 800})
        page = context.new_page()
        _render(page, served, DEMO_NAME)
        _wait_until_widgets_settle(page)
        scripts = page.evaluate("() => Array.from(document.scripts, s => s.src).join(' ')")
        assert ("pooltutor-light/static/light.js" in scripts) is light, scripts
        assert ("voila/static/voila.js" in scripts or "/static/voila.js" in scripts) is not light
        assert page.locator(".pooltutor-status").is_hidden()
        _key_changes_the_picture(page)
        # the formulas of the markdown are typeset (KaTeX on the light page, MathJax on lab)
        assert page.locator(".katex, mjx-container, .MathJax").count() > 0
        # a student who leaves the page frees its kernel (Voila's shutdown beacon)
        kernel_id = page.evaluate(
            "() => JSON.parse(document.getElementById('jupyter-config-data').textContent)"
            ".kernelId")
        assert _kernel_runs(base, kernel_id)
        page.close(run_before_unload=True)
        deadline = time.monotonic() + 20
        while _kernel_runs(base, kernel_id):
            assert time.monotonic() < deadline, f"kernel {kernel_id} still runs after leaving"
            time.sleep(0.25)
        context.close()


def _kernel_runs(base: str, kernel_id: str) -> bool:
    """Whether Voila still has the kernel (its REST API answers 404 once it is gone)."""
    try:
        with urllib.request.urlopen(f"{base}/api/kernels/{kernel_id}", timeout=10) as response:
            return response.status == 200
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            return False
        raise


@pytest.mark.parametrize("front_end", ["light", "lab"])
def test_app_output_widgets_show_what_the_kernel_prints(browser, app_server, lab_app_server,
                                                        front_end):
    """ipywidgets' Output widget on both front ends: what ``interact``'s function printed
    when the notebook ran is there, a new slider value prints anew, and a button's
    ``with out: print(...)`` lands in its Output."""
    served = app_server if front_end == "light" else lab_app_server
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    page = context.new_page()
    _render(page, served, OUTPUT_DEMO_NAME)
    _wait_until_widgets_settle(page)
    outputs = page.locator(".widget-output")
    outputs.filter(has_text="n squared is 4").wait_for(timeout=15_000)
    handle = page.locator(ENABLED_HANDLE).first
    handle.focus()
    page.keyboard.press("ArrowRight")
    outputs.filter(has_text="n squared is 9").wait_for(timeout=15_000)
    assert "n squared is 4" not in outputs.all_inner_texts()[-1]     # cleared, not appended
    page.get_by_role("button", name="Print").click()
    outputs.filter(has_text="clicked at the page").wait_for(timeout=15_000)
    context.close()


#: the handle of a visible slider that is not disabled (ipywidgets marks a disabled one's track)
ENABLED_HANDLE = ".noUi-target:not([disabled]) .noUi-handle >> visible=true"
_PICTURE = """() => Array.from(document.querySelectorAll('img'))
    .filter(i => i.offsetParent !== null).map(i => i.src).join('|')
  + Array.from(document.querySelectorAll('.widget-output, .widget-html-content'))
    .filter(e => e.offsetParent !== null).map(e => e.innerText).join('|')"""


def _move_slider(page, handle) -> str:
    """Press an arrow key on a focused slider handle; return the key (away from the end)."""
    now, top = handle.get_attribute("aria-valuenow"), handle.get_attribute("aria-valuemax")
    key = "ArrowLeft" if now is not None and now == top else "ArrowRight"
    handle.focus()
    page.keyboard.press(key)
    return key


def _key_changes_the_picture(page) -> None:
    """Press an arrow key on the page's first enabled slider; wait for a new picture."""
    handle = page.locator(ENABLED_HANDLE).first
    handle.wait_for(state="visible")
    images = page.locator(".widget-image")
    before = [images.nth(i).get_attribute("src") for i in range(images.count())]
    _move_slider(page, handle)
    page.wait_for_function(
        "before => Array.from(document.querySelectorAll('.widget-image'))"
        ".some((img, i) => img.getAttribute('src') !== before[i])", arg=before, timeout=15_000)


def test_app_slider_moved_with_the_keyboard_changes_the_picture(app_pages):
    page = app_pages[DEMO_NAME]
    _key_changes_the_picture(page)
    shown = app_pages.get("01_window_placement", page)
    _save_screenshot(shown, "app.png", top=shown.locator(ENABLED_HANDLE).first.locator(
        "xpath=ancestor::div[contains(@class, 'widget-vbox')][last()]"))


@pytest.mark.parametrize("name", [p.stem for p in NOTEBOOKS])
def test_app_sliders_of_the_course_notebooks_do_something(app_pages, name):
    """The first slider of each course notebook that has one changes what the page shows."""
    page = app_pages[name]
    handles = page.locator(ENABLED_HANDLE)
    if handles.count() == 0:
        return  # this notebook has no slider that can move: nothing to check
    handle = handles.first
    handle.scroll_into_view_if_needed()
    before = page.evaluate(_PICTURE)
    key = _move_slider(page, handle)
    page.wait_for_function(f"before => ({_PICTURE})() !== before", arg=before, timeout=15_000)
    assert key in ("ArrowLeft", "ArrowRight")


def _feedback_after(page, check, answer: str, submit: str) -> str:
    box = check.locator("input[type=text]")
    feedback = check.locator(".widget-html").last
    old = feedback.inner_text()
    box.fill(answer)
    if submit == "enter":
        box.press("Enter")
    else:
        check.get_by_role("button", name="Check").click()
    page.wait_for_function("([el, old]) => el.innerText !== old && el.innerText.trim() !== ''",
                           arg=[feedback.element_handle(), old], timeout=15_000)
    return feedback.inner_text()


def test_app_self_check_answers_right_and_wrong(app_pages):
    page = app_pages[DEMO_NAME]
    check = page.locator(".pooltutor-selfcheck").first
    check.wait_for(state="visible")
    wrong = _feedback_after(page, check, DEMO_WRONG, "enter")
    # a first wrong try gives the hint only, never the answer
    assert "Not quite" in wrong and f"you said {DEMO_WRONG}" in wrong
    assert "the answer is" not in wrong and "Try again" in wrong
    right = _feedback_after(page, check, DEMO_RIGHT, "click")
    assert right.strip().startswith("\u2714") and "Right: 2." in right


def test_app_self_check_show_answer_button_reveals_it(app_pages):
    page = app_pages[DEMO_NAME]
    check = page.locator(".pooltutor-selfcheck").nth(0)
    feedback = check.locator(".widget-html").last
    check.get_by_role("button", name="Show answer").click()
    page.wait_for_function("el => el.innerText.includes('The answer is')",
                           arg=feedback.element_handle(), timeout=15_000)
    assert "2" in feedback.inner_text()


@pytest.mark.parametrize("name", [p.stem for p in NOTEBOOKS])
def test_app_self_checks_of_the_course_notebooks_answer(app_pages, name):
    """The first self-check of each course notebook reacts to a typed answer (it has a kernel)."""
    page = app_pages[name]
    checks = page.locator(".pooltutor-selfcheck")
    if checks.count() == 0:
        return  # no self-check in this notebook
    check = checks.first
    check.scroll_into_view_if_needed()
    text = _feedback_after(page, check, "not a number", "click")
    assert "Could not read 'not a number'" in text


def _open_in_own_tab(browser, app_server, name: str):
    """A fresh context and page on notebook ``name`` of the app, its widgets drawn (for
    tests that change a page the shared ``app_pages`` should keep as it was)."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    _render(page, app_server, name)
    page.wait_for_load_state("networkidle", timeout=RENDER_TIMEOUT)
    _wait_until_widgets_settle(page)
    return context, page


def test_app_output_cell_button_shows_its_window_and_explain(browser, app_server):
    """The stepper of 01_window_placement: pressing an output-cell button (the chooser
    under the picture) moves the window there: the picture and the explain text change,
    and the pressed button is marked as chosen."""
    context, page = _open_in_own_tab(browser, app_server, "01_window_placement")
    chooser = page.locator(".pooltutor-cell-chooser").first
    chooser.wait_for(state="visible", timeout=30_000)
    explorer = chooser.locator("xpath=ancestor::div[contains(@class, 'widget-vbox')][1]")
    picture = explorer.locator(".widget-image").first
    before = picture.get_attribute("src")
    button = chooser.locator("button[title^='output (1, 2)']")
    assert button.count() == 1
    button.scroll_into_view_if_needed()
    button.click()
    page.wait_for_function(
        "el => el.innerText.includes('output[0, 0, 1, 2]')",
        arg=explorer.element_handle(), timeout=15_000)
    page.wait_for_function("([img, old]) => img.getAttribute('src') !== old",
                           arg=[picture.element_handle(), before], timeout=15_000)
    chosen = button.element_handle()
    page.wait_for_function("b => b.innerText.startsWith('[') && b.title.endsWith('(chosen)')",
                           arg=chosen, timeout=15_000)
    # the keyboard works too: Tab to the next cell's button, Enter chooses it
    chosen.focus()
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.wait_for_function("el => el.innerText.includes('output[0, 0, 2, 0]')",
                           arg=explorer.element_handle(), timeout=15_000)
    _save_screenshot(page, "cell-chooser.png", top=explorer)
    context.close()


def test_app_same_call_panel_follows_the_settings(browser, app_server):
    """The stepper of 01_window_placement: under the picture, the call that reproduces the
    settings in every framework; moving the window slider rewrites it (PyTorch's
    kernel_size follows), and the code blocks are reachable with the keyboard."""
    context, page = _open_in_own_tab(browser, app_server, "01_window_placement")
    panel = page.locator(".pooltutor-same-call").first
    panel.wait_for(state="visible", timeout=30_000)
    text = panel.inner_text()
    for framework in ("PyTorch", "ONNX", "OpenVINO", "TensorRT", "TensorFlow", "DirectML"):
        assert framework in text, framework
    assert "torch.nn.functional.max_pool2d(" in text and "kernel_size=3" in text, text
    explorer = panel.locator("xpath=ancestor::div[contains(@class, 'widget-vbox')][1]")
    window = explorer.locator(".widget-slider", has_text="window").locator(".noUi-handle").first
    window.scroll_into_view_if_needed()
    window.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("el => el.innerText.includes('kernel_size=4')",
                           arg=panel.element_handle(), timeout=15_000)
    blocks = panel.locator("pre")
    assert blocks.count() >= 4
    assert all(blocks.nth(i).get_attribute("tabindex") == "0" for i in range(blocks.count()))
    context.close()


# -------------------------------------------------------------------- slides


DECK_NAMES = [*(p.stem for p in NOTEBOOKS), DEMO_NAME]


# ------------------------------------------------------------------ accessibility

#: axe-core, the accessibility engine, pinned like the decks' JavaScript (npm tarball,
#: checked against its sha512 by js_assets.fetch_js_packages)
AXE_CORE = js_assets.JSPackage(
    "axe-core", "4.14.1",
    "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ==",
    ("axe.min.js", "LICENSE"), "axe-core")
#: WCAG 2.1 A and AA rules (text contrast AA, "color-contrast", among them: its counts of
#: elements checked are kept, so that a run that skipped it fails)
AXE_RUN = """async () => {
  const r = await axe.run(document, {runOnly: {type: 'tag',
    values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}});
  const count = (list) => list.filter(v => v.id === 'color-contrast')
    .reduce((n, v) => n + v.nodes.length, 0);
  return {violations: r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => `${v.impact} ${v.id} (${v.help}): ` + v.nodes.slice(0, 3)
      .map(n => n.target.join(' ') + ' ' + n.failureSummary.replace(/\\s+/g, ' ')).join(' | ')),
    contrast: {passes: count(r.passes), violations: count(r.violations),
               incomplete: count(r.incomplete)}};
}"""
#: text contrast counts of each audited page (elements that pass / fail / axe could not
#: decide, e.g. text over a picture), for the accessibility note
CONTRAST_COUNTS: dict[str, dict] = {}


@pytest.fixture(scope="module")
def axe_script() -> str:
    import tarfile

    tarball = js_assets.fetch_js_packages(packages=[AXE_CORE])["axe-core"]
    with tarfile.open(tarball) as tar:
        return tar.extractfile("package/axe.min.js").read().decode("utf-8")


def _violations(page, axe_script, name: str | None = None) -> list[str]:
    """axe-core's serious and critical WCAG 2.1 AA violations on ``page``; its text contrast
    check must have run on some text (recorded under ``name``)."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(content=axe_script)
    page.bring_to_front()       # the app's pages share one browser window: audit the shown tab
    # from the top: axe checks the text its scroll container shows, and an earlier test may
    # have scrolled the page down to an explorer (then only the widgets' text is checked)
    page.evaluate("() => { window.scrollTo(0, 0); for (const el of document.querySelectorAll"
                  "('*')) { if (el.scrollTop) el.scrollTop = 0; } }")
    result = page.evaluate(AXE_RUN)
    contrast = result["contrast"]
    assert contrast["passes"] + contrast["violations"] > 0, \
        f"the text contrast check did not run ({contrast}) on {page.url}"
    if name is not None:
        CONTRAST_COUNTS[name] = contrast
        print(f"{name}: text contrast {contrast}")
    return result["violations"]


COURSE_NAMES = [p.stem for p in NOTEBOOKS]     # the demo is a test notebook of plain figures


@pytest.mark.parametrize("name", COURSE_NAMES)
def test_app_pages_pass_the_accessibility_check(app_pages, axe_script, name):
    """axe-core on every course page of the app: no serious or critical WCAG 2.1 AA
    violation (every picture described, every control named, text contrast AA)."""
    page = app_pages[name]
    page.wait_for_timeout(300)          # the page's accessibility script names new widgets
    assert _violations(page, axe_script, f"app {name}") == []


def test_app_explorer_picture_is_described_and_follows_it(app_pages):
    page = app_pages["01_window_placement"]
    img = page.locator("img.widget-image").first
    before = img.get_attribute("alt")
    assert before and "output cell" in before
    names = page.evaluate("() => Array.from(document.querySelectorAll('[role=slider]'))"
                          ".map(h => h.getAttribute('aria-label'))")
    assert names and all(names), names                   # every slider handle is named
    handle = page.locator(".widget-slider", has_text="position").locator("[role=slider]").first
    assert handle.get_attribute("aria-label") == "position"
    _move_slider(page, handle)
    page.wait_for_function("(before) => document.querySelector('img.widget-image').alt "
                           "!== before", arg=before, timeout=10_000)
    assert "output cell" in img.get_attribute("alt")


@pytest.fixture(scope="module")
def deck_page(browser):
    context = browser.new_context(viewport={"width": 1000, "height": 720})
    page = context.new_page()
    yield page
    context.close()


_WIDGETS_RENDERED = """() => Array.from(document.querySelectorAll(
    'script[type="application/vnd.jupyter.widget-view+json"]')).every(view => {
      const area = view.previousElementSibling;
      return area && area.classList.contains('widget-subarea') && area.children.length > 0; })"""


def _open_deck(page, deck: Path, fragment: str = ""):
    requests, failed, errors = [], [], []
    page.on("request", lambda r: requests.append(r.url))
    page.on("requestfailed", lambda r: failed.append(f"{r.url} {r.failure}"))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(deck.as_uri() + fragment)
    page.wait_for_selector(".reveal.ready", timeout=30_000)
    page.wait_for_function(_WIDGETS_RENDERED, timeout=30_000)
    page.wait_for_load_state("load")
    return requests, failed, errors


@pytest.mark.parametrize("name", DECK_NAMES)
def test_offline_deck_shows_every_picture_without_network(decks, deck_page, name):
    page = deck_page
    requests, failed, errors = _open_deck(page, decks / f"{name}{slides.DECK_SUFFIX}")
    page.wait_for_function("() => Array.from(document.images).every(i => i.complete)",
                           timeout=15_000)
    images = page.evaluate(
        "() => Array.from(document.images).map(i => [i.naturalWidth, i.src.slice(0, 60)])")
    assert images, "a deck without pictures"
    assert [src for width, src in images if width == 0] == []
    outside = [u for u in requests if not u.startswith(("file://", "data:", "blob:"))]
    assert outside == [], f"requests outside the deck: {outside}"
    assert failed == []
    assert errors == []
    if name == "01_window_placement" and SCREENSHOTS:
        # the first slide with a figure, after reveal.js' transition
        where = page.evaluate("""() => {
            const tops = Array.from(document.querySelectorAll('.reveal .slides > section'));
            for (const [h, top] of tops.entries()) {
              const leaves = Array.from(top.querySelectorAll(':scope > section'));
              for (const [v, leaf] of (leaves.length ? leaves : [top]).entries()) {
                if (leaf.querySelector('img[src^="data:image/png"]')) return `#/${h}/${v}`;
              }
            }
            return '#/0'; }""")
        page.goto((decks / f"{name}{slides.DECK_SUFFIX}").as_uri() + where)
        page.wait_for_function(_WIDGETS_RENDERED, timeout=30_000)
        time.sleep(1.5)
        _save_screenshot(page, "slide.png")


@pytest.mark.parametrize("name", COURSE_NAMES)
def test_offline_decks_pass_the_accessibility_check(decks, deck_page, axe_script, name):
    """axe-core on every course deck: the opening slide with reveal.js' controls, then the
    print view, where every slide and fragment is laid out at once."""
    page = deck_page
    deck = decks / f"{name}{slides.DECK_SUFFIX}"
    _open_deck(page, deck)
    page.wait_for_timeout(300)
    assert _violations(page, axe_script, f"deck {name}") == []
    page.goto(deck.as_uri() + "?print-pdf")
    page.wait_for_selector(".pdf-page", timeout=30_000)
    page.wait_for_function(_WIDGETS_RENDERED, timeout=30_000)
    page.wait_for_timeout(500)
    assert _violations(page, axe_script, f"deck {name} print view") == []
    alts = page.evaluate("() => Array.from(document.images).map(i => i.alt)")
    assert alts and all(len(a) >= 10 for a in alts), alts


def test_offline_deck_stepper_changes_frame_without_a_kernel(decks, deck_page):
    page = deck_page
    _open_deck(page, decks / f"{DEMO_NAME}{slides.DECK_SUFFIX}", "#/1")
    handle = page.locator("section.present .noUi-handle").first
    handle.wait_for(state="visible", timeout=15_000)
    visible_frame = ("() => Array.from(document.querySelectorAll('section.present img'))"
                     ".filter(i => i.offsetParent !== null).map(i => i.src).join('|')")
    before = page.evaluate(visible_frame)
    assert before
    handle.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        f"before => ({visible_frame})() !== before && ({visible_frame})() !== ''",
        arg=before, timeout=10_000)
    assert page.locator("section.present .widget-readout").first.inner_text().strip() == "1"
    assert page.evaluate("() => location.hash") == "#/1"  # the key moved the slider, not the deck


def test_offline_deck_cell_picker_chooses_a_frame_without_a_kernel(decks, deck_page):
    """The kernel-free stepper of 01_window_placement: a cell picker button (ToggleButtons
    jslinked to the frames' slider) shows that cell's frame."""
    page = deck_page
    deck = decks / f"01_window_placement{slides.DECK_SUFFIX}"
    _open_deck(page, deck)
    where = page.evaluate("""() => {
        const tops = Array.from(document.querySelectorAll('.reveal .slides > section'));
        for (const [h, top] of tops.entries()) {
          const leaves = Array.from(top.querySelectorAll(':scope > section'));
          for (const [v, leaf] of (leaves.length ? leaves : [top]).entries()) {
            if (leaf.querySelector('.pooltutor-cell-picker')) return `#/${h}/${v}`;
          }
        }
        return null; }""")
    assert where is not None, "no cell picker in the deck"
    _open_deck(page, deck, where)
    picker = page.locator("section.present .pooltutor-cell-picker").first
    picker.wait_for(state="visible", timeout=15_000)
    visible_frame = ("() => Array.from(document.querySelectorAll('section.present img'))"
                     ".filter(i => i.offsetParent !== null).map(i => i.src).join('|')")
    before = page.evaluate(visible_frame)
    button = picker.locator("button").nth(2)
    button.click()
    page.wait_for_function(
        f"before => ({visible_frame})() !== before && ({visible_frame})() !== ''",
        arg=before, timeout=10_000)
    readout = page.locator("section.present .widget-readout").first.inner_text().strip()
    assert readout == "2"


def test_pdf_handout(decks, tmp_path):
    deck = decks / f"{DEMO_NAME}{slides.DECK_SUFFIX}"
    pdf = slides.print_pdf(deck, tmp_path / "demo.pdf", chromium=CHROMIUM)
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF")
    pages = len(re.findall(rb"/Type\s*/Page\b", data))
    assert pages >= 3  # one page per slide at least


# ------------------------------------------------------------------------- keyboard

#: every control of the widgets a student can use (a slider's handle, its typed readout,
#: dropdowns, buttons, toggle buttons, checkboxes, text boxes), visible and not disabled;
#: each is given a number (data-pooltutor-kb) and its unfocused look is recorded
_MARK_CONTROLS = """() => {
  const sel = ['.jupyter-widgets [role=slider]', '.jupyter-widgets .widget-readout',
               '.jupyter-widgets select', '.jupyter-widgets button',
               '.jupyter-widgets input', '.jupyter-widgets textarea'].join(', ');
  const look = (el) => { const s = getComputedStyle(el);
    return [s.outlineStyle, s.outlineWidth, s.outlineColor, s.boxShadow].join(' / '); };
  const kind = (el) => el.getAttribute('role') === 'slider' ? 'slider'
    : el.classList.contains('widget-readout') ? 'readout'
    : el.tagName === 'SELECT' ? 'dropdown'
    : el.tagName === 'BUTTON' ? (el.closest('.widget-toggle-buttons') ? 'toggle buttons'
        : el.classList.contains('widget-toggle-button') ? 'toggle button' : 'button')
    : el.type === 'checkbox' ? 'checkbox' : 'text';
  const found = [];
  document.activeElement && document.activeElement.blur();
  document.querySelectorAll(sel).forEach((el) => {
    const box = el.getBoundingClientRect();
    const hidden = el.closest('[hidden], [aria-hidden=true]') || box.width === 0
      || getComputedStyle(el).visibility === 'hidden';
    const off = el.disabled || el.closest('[disabled]') || el.closest('.mod-disabled')
      || el.getAttribute('contenteditable') === 'false' || el.type === 'hidden';
    if (hidden || off) { return; }
    el.setAttribute('data-pooltutor-kb', String(found.length));
    found.push({id: found.length, kind: kind(el), look: look(el),
                name: (el.getAttribute('aria-label') || el.textContent || el.title
                       || el.getAttribute('placeholder') || '').trim().slice(0, 40)});
  });
  return found;
}"""

#: what has the focus: its number, how it looks, and the contrast of its outline against
#: what is around it (the first opaque background of its parents; white at the top)
_FOCUSED = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) { return null; }
  const s = getComputedStyle(el);
  const rgba = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) { return null; } const v = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1]; };
  const lum = (c) => { const f = (x) => { x /= 255;
      return x <= 0.04045 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  let back = [255, 255, 255, 1];
  for (let p = el.parentElement; p; p = p.parentElement) {
    const c = rgba(getComputedStyle(p).backgroundColor);
    if (c && c[3] > 0.5) { back = c; break; }
  }
  const ring = rgba(s.outlineColor) || [0, 0, 0, 0];
  const [a, b] = [lum(ring), lum(back)];
  return {id: el.getAttribute('data-pooltutor-kb'), tag: el.tagName,
          look: [s.outlineStyle, s.outlineWidth, s.outlineColor, s.boxShadow].join(' / '),
          style: s.outlineStyle, width: parseFloat(s.outlineWidth) || 0,
          contrast: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05), alpha: ring[3]};
}"""

#: the focus indicator's least contrast against its surroundings (WCAG 2.1 SC 1.4.11)
FOCUS_CONTRAST = 3.0


def _tab_through(page) -> tuple[list[dict], dict[str, dict]]:
    """Tab from the top of ``page`` until the focus comes back round; return the marked
    controls and what each one looked like when Tab reached it (by its number)."""
    controls = page.evaluate(_MARK_CONTROLS)
    tabbable = page.evaluate(
        "() => document.querySelectorAll('a[href], button, input, select, textarea, "
        "[tabindex]:not([tabindex=\"-1\"]), [contenteditable=true]').length")
    page.evaluate("() => window.scrollTo(0, 0)")
    reached, first = {}, None
    for _ in range(tabbable + 20):
        page.keyboard.press("Tab")
        now = page.evaluate(_FOCUSED)
        if now is None:
            continue
        key = (now["tag"], now["id"], now["look"])
        if first is None:
            first = key
        elif key == first and reached:
            break
        if now["id"] is not None:
            reached.setdefault(now["id"], now)
    return controls, reached


def _focus_problems(controls, reached) -> list[str]:
    problems = []
    for c in controls:
        name = f"{c['kind']} {c['name']!r} (#{c['id']})"
        seen = reached.get(str(c["id"]))
        if seen is None:
            problems.append(f"{name}: Tab never reaches it")
        elif seen["style"] == "none" or seen["width"] <= 0 or seen["alpha"] < 0.5:
            problems.append(f"{name}: no visible focus outline ({seen['look']})")
        elif seen["look"] == c["look"]:
            problems.append(f"{name}: looks the same focused and not ({seen['look']})")
        elif seen["contrast"] < FOCUS_CONTRAST:
            problems.append(f"{name}: focus outline contrast {seen['contrast']:.2f} < "
                            f"{FOCUS_CONTRAST} ({seen['look']})")
    return problems


def _operate(page, locator, key: str, timeout: float = 15_000) -> bool:
    """Focus ``locator``, press ``key``; whether the page then shows something else within
    ``timeout`` ms."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    locator.scroll_into_view_if_needed()
    before = page.evaluate(_PICTURE)
    locator.focus()
    page.keyboard.press(key)
    try:
        page.wait_for_function(f"before => ({_PICTURE})() !== before", arg=before,
                               timeout=timeout)
    except PlaywrightTimeout:
        return False
    return True


def _operate_dropdowns(page, selects) -> list[bool]:
    """Press the down arrow (up on the last option) on each of the first dropdowns until
    one changes the picture; whether each did.  Each key must change its dropdown."""
    shown = []
    for k in range(min(selects.count(), 4)):
        select = selects.nth(k)
        last = select.evaluate("s => s.selectedIndex === s.options.length - 1")
        old = select.input_value()
        shown.append(_operate(page, select, "ArrowUp" if last else "ArrowDown", 6_000))
        assert select.input_value() != old, f"dropdown {k}: the key did not change it"
        if shown[-1]:
            break
    return shown


#: reached controls per course page (for the accessibility note)
KEYBOARD_COUNTS: dict[str, int] = {}


@pytest.mark.parametrize("name", COURSE_NAMES)
def test_app_pages_every_control_is_reached_by_tab_with_a_visible_focus(app_pages, name):
    page = app_pages[name]
    controls, reached = _tab_through(page)
    problems = _focus_problems(controls, reached)
    assert not problems, "\n".join(problems)
    KEYBOARD_COUNTS[name] = len(controls)
    print(f"{name}: {len(controls)} controls reached by Tab, "
          f"{sorted({c['kind'] for c in controls})}")


@pytest.mark.parametrize("name", COURSE_NAMES)
def test_app_pages_slider_and_dropdown_or_toggle_work_from_the_keyboard(app_pages, name):
    """The first slider moves with an arrow key, a dropdown with the down arrow (the first
    one whose change shows: a rule can leave a picture without padding as it was) and the
    first toggle button with Enter; each changes what the page shows."""
    page = app_pages[name]
    handles = page.locator(ENABLED_HANDLE)
    if handles.count():
        handle = handles.first
        top = handle.get_attribute("aria-valuenow") == handle.get_attribute("aria-valuemax")
        assert _operate(page, handle, "ArrowLeft" if top else "ArrowRight"), "slider"
    selects = page.locator(".jupyter-widgets select:not([disabled]) >> visible=true")
    shown = _operate_dropdowns(page, selects)
    if shown and not shown[-1]:
        # a padding rule changes nothing on a picture without padding: give it some
        pad = page.locator(".noUi-target:not([disabled]) [role=slider][aria-label*=pad]"
                           " >> visible=true")
        if pad.count():
            assert _operate(page, pad.first, "ArrowRight"), "padding slider"
            shown = _operate_dropdowns(page, selects)
    assert not shown or shown[-1], "no dropdown changed the picture"
    toggles = page.locator(".widget-toggle-buttons button:not(.mod-active):not([disabled])"
                           " >> visible=true")
    if toggles.count():
        assert _operate(page, toggles.first, "Enter"), "toggle buttons"


def test_app_course_has_sliders_dropdowns_and_toggles_to_operate(app_pages):
    """The keyboard test above operates each kind of control somewhere in the course."""
    kinds = {k: sum(app_pages[n].locator(sel).count() for n in COURSE_NAMES) for k, sel in
             {"slider": ENABLED_HANDLE, "dropdown": ".jupyter-widgets select",
              "toggle": ".widget-toggle-buttons button"}.items()}
    assert all(kinds.values()), kinds


def _slides_with_widgets(page) -> list[str]:
    return page.evaluate("""() => {
        const found = [];
        const tops = Array.from(document.querySelectorAll('.reveal .slides > section'));
        for (const [h, top] of tops.entries()) {
          const leaves = Array.from(top.querySelectorAll(':scope > section'));
          for (const [v, leaf] of (leaves.length ? leaves : [top]).entries()) {
            if (leaf.querySelector('.jupyter-widgets [role=slider]')) found.push(`#/${h}/${v}`);
          }
        }
        return found; }""")


@pytest.mark.parametrize("name", DECK_NAMES)
def test_offline_deck_kernel_free_controls_are_reached_by_tab(decks, deck_page, name):
    """Every slide of a deck with kernel-free controls (frames_widget: Play, slider): Tab
    reaches each with a visible focus, and the slider's arrow key changes the frame."""
    page = deck_page
    deck = decks / f"{name}{slides.DECK_SUFFIX}"
    _open_deck(page, deck)
    where = _slides_with_widgets(page)
    if name in (DEMO_NAME, "01_window_placement"):
        assert where, "the stepper's slide is missing"
    reached = 0
    for fragment in where:
        page.goto(deck.as_uri() + fragment)
        page.wait_for_function(_WIDGETS_RENDERED, timeout=30_000)
        page.wait_for_timeout(800)                      # reveal.js' transition
        controls, seen = _tab_through(page)
        assert [c for c in controls if c["kind"] == "slider"], fragment
        problems = _focus_problems(controls, seen)
        assert not problems, fragment + "\n" + "\n".join(problems)
        reached += len(controls)
        handle = page.locator("section.present .noUi-handle >> visible=true").first
        here = page.evaluate("() => location.hash")       # as reveal.js writes it
        assert _operate(page, handle, "ArrowRight"), fragment
        assert page.evaluate("() => location.hash") == here   # the slider moved, not the deck
    KEYBOARD_COUNTS[f"deck {name}"] = reached
    print(f"deck {name}: {len(where)} slide(s) with kernel-free controls, {reached} "
          f"controls reached by Tab")
