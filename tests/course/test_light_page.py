"""pooltutor's light page front end (js/light-page, built into the pooltutor-light
Voila template): the built files are those of the sources, complete, and local.

The page itself is tested in a browser by tests/course/test_browser.py (every app test
runs on it: widgets, keyboard, accessibility, nothing from outside the server) and by
tests/course/test_classroom.py (a class of two from preheated kernels)."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from pooltutor.course import classroom

REPO_ROOT = Path(__file__).resolve().parents[2]
SOURCES = REPO_ROOT / "js" / "light-page"
TEMPLATES = classroom.template_root() / "voila" / "templates"
LIGHT = TEMPLATES / classroom.FRONT_ENDS["light"]
STATIC = LIGHT / "static"


def sources_digest() -> str:
    """The digest build.mjs writes into the built files (its sourcesDigest)."""
    files = [f"src/{p.name}" for p in sorted((SOURCES / "src").iterdir(), key=lambda p: p.name)]
    files += ["package.json", "package-lock.json", "build.mjs"]
    digest = hashlib.sha256()
    for name in files:
        text = (SOURCES / name).read_text(encoding="utf-8").replace("\r\n", "\n")
        digest.update(name.encode() + b"\0" + text.encode("utf-8") + b"\0")
    return digest.hexdigest()


def test_built_files_are_those_of_the_sources():
    """Change js/light-page without `npm ci && npm run build` there and this fails."""
    want = sources_digest()
    for name in ("light.js", "light.css"):
        first = (STATIC / name).read_text(encoding="utf-8").split("\n", 1)[0]
        assert f"(sources sha256 {want})" in first, (
            f"{name} was built from other sources: run `npm ci && npm run build` in "
            f"js/light-page")


def test_the_lock_file_pins_what_package_json_asks_for():
    package = json.loads((SOURCES / "package.json").read_text())
    lock = json.loads((SOURCES / "package-lock.json").read_text())
    for name, version in package["devDependencies"].items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), f"{name} {version}: pin it exactly"
        assert lock["packages"][f"node_modules/{name}"]["version"] == version


def test_every_font_the_stylesheet_asks_for_ships_beside_it():
    css = (STATIC / "light.css").read_text(encoding="utf-8")
    urls = set(re.findall(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)", css))
    fonts = {u for u in urls if not u.startswith("data:")}
    assert "./fa-solid-900.woff2" in fonts            # the Play widget's icons
    assert "./KaTeX_Main-Regular.woff2" in fonts      # the formulas
    for url in fonts:
        assert not re.match(r"[a-z]+:|//", url), f"light.css loads {url} from elsewhere"
        assert (STATIC / url).is_file(), f"light.css asks for {url}, which is not built"


def test_the_script_names_no_other_server():
    """The page loads only from the teacher's machine (the browser test checks the
    requests; this checks the script asks for nothing by an absolute address)."""
    js = (STATIC / "light.js").read_text(encoding="utf-8")
    assert not re.search(r"""(?:src|href)\s*=\s*["']https?://""", js)
    assert not re.search(r"""import\(\s*["']https?://""", js)


def test_template_loads_the_built_files_and_keeps_voilas_cell_loop():
    text = (LIGHT / "index.html.j2").read_text()
    assert "voila/templates/pooltutor-light/static/" in text
    assert '{{ static }}light.js' in text and '{{ static }}light.css' in text
    # Voila streams the page from its cell loop, with the kernel it started or preheated
    assert "kernel_start(nb)" in text and "cell_generator(nb, kernel_id)" in text
    assert 'type="application/vnd.voila.cell-output+json"' in text
    js = (SOURCES / "src" / "light.js").read_text()
    assert 'script[type="application/vnd.voila.cell-output+json"]' in js
    assert "voila/api/shutdown/" in js          # a page that is left frees its kernel


def test_light_page_is_a_fifth_of_voilas_jupyterlab_page():
    """The measured reason for the light page (benchmarks/README.md): its script,
    stylesheet and fonts together stay under 2 MB (Voila's page: 5.8 MB)."""
    total = sum(p.stat().st_size for p in STATIC.iterdir() if p.suffix != ".txt")
    assert total < 2_000_000, f"the light page's files weigh {total} bytes"
