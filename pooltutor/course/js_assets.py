"""The pinned JavaScript of the slide decks: npm tarballs checked against their sha512.

Online decks load reveal.js, require.js, jQuery, MathJax and the widget
renderer from the unpkg CDN at the exact versions of :data:`JS_PACKAGES`;
offline decks carry the few files they need in ``<out>/lib/``, taken from
tarballs that ``npm pack`` fetched once into a cache (``--js-cache``,
``$POOLTUTOR_JS_CACHE`` or ``~/.cache/pooltutor/js``) and that must match
their pinned sha512.  The browser tests take axe-core from here too.
"""

from __future__ import annotations

import base64
import fnmatch
import hashlib
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from pooltutor.course.errors import SlidesError

__all__ = [
    "CDN",
    "JS_CACHE_ENV",
    "JS_PACKAGES",
    "LIB_DIR",
    "JSPackage",
    "asset_urls",
    "default_js_cache",
    "fetch_js_packages",
    "install_offline_assets",
]

#: Folder, inside the output folder, that holds an offline deck's JavaScript.
LIB_DIR = "lib"
#: Environment variable naming the npm tarball cache.
JS_CACHE_ENV = "POOLTUTOR_JS_CACHE"
CDN = "https://unpkg.com"
#: reveal.js theme (nbconvert's default); its Google-fonts imports are removed offline.
REVEAL_THEME = "simple"
#: MathJax 2 combined configuration: SVG output needs no web fonts (which
#: Chromium refuses to load from file:// pages).
MATHJAX_CONFIG = "TeX-AMS_SVG-full,Safe"


@dataclass(frozen=True)
class JSPackage:
    """One npm package an offline deck needs, pinned by version and tarball hash.

    Parameters
    ----------
    name : str
        The npm package name.
    version : str
        The exact version (also used in the CDN URLs of online decks).
    integrity : str
        ``sha512-<base64>`` of the tarball, as the npm registry lists it.
    files : tuple of str
        ``fnmatch`` patterns of the package files a deck needs (paths
        inside the package, ``/``-separated).
    folder : str
        Where they go, under ``<out>/lib/``.

    >>> p = JSPackage("@scope/pkg", "1.2.3", "sha512-x", ("dist/*.js", "fonts/**"), "pkg")
    >>> p.spec, p.tarball_name, p.cdn_url("dist/a.js")
    ('@scope/pkg@1.2.3', 'scope-pkg-1.2.3.tgz', 'https://unpkg.com/@scope/pkg@1.2.3/dist/a.js')
    >>> p.wants("dist/a.js"), p.wants("dist/sub/a.js"), p.wants("dist/a.map")
    (True, False, False)
    >>> p.wants("fonts/a/b/c.js"), p.wants("fonts")
    (True, False)
    """

    name: str
    version: str
    integrity: str
    files: tuple[str, ...]
    folder: str

    @property
    def spec(self) -> str:
        return f"{self.name}@{self.version}"

    @property
    def stamp(self) -> str:
        """What ``<out>/lib/<folder>/.version`` holds: the spec and a hash of :attr:`files`."""
        digest = hashlib.sha256("\n".join(self.files).encode()).hexdigest()[:12]
        return f"{self.spec} {digest}"

    @property
    def tarball_name(self) -> str:
        """The file name ``npm pack`` gives the tarball."""
        return f"{self.name.lstrip('@').replace('/', '-')}-{self.version}.tgz"

    def cdn_url(self, path: str) -> str:
        return f"{CDN}/{self.spec}/{path}"

    def wants(self, path: str) -> bool:
        """True if ``path`` matches one of :attr:`files`.

        ``*`` stays inside one folder; a final ``/**`` takes everything below.
        """
        parts = path.split("/")
        for pattern in self.files:
            pieces = pattern.split("/")
            if pieces[-1] == "**":
                pieces = pieces[:-1]
                if len(parts) <= len(pieces):
                    continue
            elif len(parts) != len(pieces):
                continue
            pairs = zip(parts[: len(pieces)], pieces, strict=True)
            if all(fnmatch.fnmatchcase(part, piece) for part, piece in pairs):
                return True
        return False


#: The JavaScript of a deck.  Versions: reveal.js 4.0.2 is what nbconvert's
#: reveal template is written for; html-manager 1.0.15 renders ipywidgets 8
#: widget state (tried with ipywidgets 8.1.9); MathJax 2 is what nbconvert's
#: MathJax configuration speaks.
JS_PACKAGES: dict[str, JSPackage] = {
    p.folder: p
    for p in (
        JSPackage(
            "reveal.js", "4.0.2",
            "sha512-LWZSUenufF1gpD7npxJ7KfoQQFKgc1D6XrLTFgKlwWNP1BQ74hT48KONFWMAw+8R/QUeaScCLCLrBVHDfFIEiw==",
            ("dist/reveal.css", "dist/reveal.js", f"dist/theme/{REVEAL_THEME}.css",
             "plugin/notes/notes.js", "LICENSE"),
            "reveal.js",
        ),
        JSPackage(
            "requirejs", "2.3.6",
            "sha512-ipEzlWQe6RK3jkzikgCupiTbTvm4S0/CAU5GlgptkN5SO6F3u0UD0K18wy6ErDqiCyP4J4YYe1HuAShvsxePLg==",
            ("require.js",),
            "requirejs",
        ),
        JSPackage(
            "jquery", "3.8.0",
            "sha512-AOYt0viqPysMUTq45O8gF9DuOnBT3Il/8WtM/TT8z/2QeGsZ70ImwSJtNFxznn2R71v8yIgaEunOGo82OY/f0g==",
            ("dist/jquery.min.js", "LICENSE.txt"),
            "jquery",
        ),
        JSPackage(
            "@jupyter-widgets/html-manager", "1.0.15",
            "sha512-5thBIV6ymNgmPVOHvzx+gGy8ZSKmSazhtGw4/c4xJDVzRhG9PTeQsRjF3FUTopvFi//SABeNz1yp47bCrJ3CQA==",
            ("dist/embed-amd.js", "dist/*.woff2", "dist/*.woff", "dist/embed.js.LICENSE.txt"),
            "html-manager",
        ),
        JSPackage(
            "mathjax", "2.7.9",
            "sha512-NOGEDTIM9+MrsqnjPEjVGNx4q0GQxqm61yQwSK+/5S59i26wId5IC5gNu9/bu8+CCVl5p9G2IHcAl/wJa+5+BQ==",
            ("MathJax.js", "LICENSE", "config/TeX-AMS_SVG-full.js", "config/Safe.js",
             "extensions/*.js", "extensions/TeX/*.js", "jax/input/TeX/*",
             "jax/element/mml/*", "jax/element/mml/optable/*", "jax/output/SVG/*.js",
             "jax/output/SVG/autoload/*", "jax/output/SVG/fonts/TeX/**",
             "localization/en/*"),
            "mathjax",
        ),
    )
}

# where the deck's template finds each asset, inside its package
_ASSET_PATHS = {
    "reveal": ("reveal.js", ""),
    "require_js": ("requirejs", "require.js"),
    "jquery": ("jquery", "dist/jquery.min.js"),
    "widgets": ("html-manager", "dist/embed-amd.js"),
    "mathjax": ("mathjax", f"MathJax.js?config={MATHJAX_CONFIG}"),
}


def asset_urls(offline: bool, lib: str = LIB_DIR) -> dict[str, str]:
    """URLs of the deck's JavaScript: the pinned CDN files, or relative paths into ``lib``.

    >>> asset_urls(False)["reveal"]
    'https://unpkg.com/reveal.js@4.0.2'
    >>> asset_urls(True)["widgets"]
    'lib/html-manager/dist/embed-amd.js'
    """
    urls = {}
    for key, (folder, path) in _ASSET_PATHS.items():
        package = JS_PACKAGES[folder]
        if offline:
            url = f"{lib}/{folder}/{path}" if path else f"{lib}/{folder}"
        else:
            url = package.cdn_url(path) if path else f"{CDN}/{package.spec}"
        urls[key] = url
    return urls


def default_js_cache() -> Path:
    """The npm tarball cache: ``$POOLTUTOR_JS_CACHE``, else ``~/.cache/pooltutor/js``.

    (``$XDG_CACHE_HOME`` replaces ``~/.cache`` when set.)
    """
    override = os.environ.get(JS_CACHE_ENV)
    if override:
        return Path(override).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base).expanduser() / "pooltutor" / "js"


def _sha512(path: Path) -> str:
    digest = hashlib.sha512()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return "sha512-" + base64.b64encode(digest.digest()).decode()


def _npm() -> str:
    for name in ("npm", "npm.cmd"):
        found = shutil.which(name)
        if found:
            return found
    raise SlidesError(
        "offline decks need the npm packages "
        + ", ".join(p.spec for p in JS_PACKAGES.values())
        + ": npm (Node.js) was not found; install Node.js, or put the tarballs from"
        " 'npm pack' into the --js-cache folder"
    )


def fetch_js_packages(cache: str | os.PathLike[str] | None = None, *,
                      packages: Sequence[JSPackage] | None = None,
                      log: Callable[[str], None] | None = None) -> dict[str, Path]:
    """Make sure every :data:`JS_PACKAGES` tarball (or every one of ``packages``) is in
    ``cache``; return their paths by folder.

    Missing tarballs are fetched from the npm registry with ``npm pack``;
    every tarball, new or cached, must match its pinned sha512 (a mismatch
    removes the file and raises :class:`SlidesError`).
    """
    cache = Path(cache) if cache is not None else default_js_cache()
    cache.mkdir(parents=True, exist_ok=True)
    packages = tuple(JS_PACKAGES.values()) if packages is None else tuple(packages)
    missing = [p for p in packages if not (cache / p.tarball_name).is_file()]
    if missing:
        npm = _npm()
        if log:
            log(f"fetching {', '.join(p.spec for p in missing)} from the npm registry into {cache}")
        with tempfile.TemporaryDirectory(dir=cache, prefix=".npm-pack-") as tmp:
            proc = subprocess.run(
                [npm, "pack", *(p.spec for p in missing), "--pack-destination", tmp,
                 "--silent", "--no-fund", "--no-audit"],
                cwd=tmp, capture_output=True, text=True, timeout=600, check=False,
            )
            if proc.returncode != 0:
                reason = (proc.stderr.strip().splitlines() or ["no message"])[-1]
                raise SlidesError(f"'npm pack {' '.join(p.spec for p in missing)}' failed "
                                  f"(exit {proc.returncode}): {reason}")
            for package in missing:
                got = Path(tmp) / package.tarball_name
                if not got.is_file():
                    raise SlidesError(f"npm pack did not write {package.tarball_name}")
                os.replace(got, cache / package.tarball_name)
    paths = {}
    for package in packages:
        tarball = cache / package.tarball_name
        actual = _sha512(tarball)
        if actual != package.integrity:
            tarball.unlink()
            raise SlidesError(f"{tarball} is not {package.spec} as published (sha512 "
                              f"{actual[:23]}... instead of {package.integrity[:23]}...); "
                              "removed it, run again to fetch it anew")
        paths[package.folder] = tarball
    return paths


_GOOGLE_FONTS = re.compile(r"@import\s+url\(\s*['\"]?https?://[^)]*\)\s*;?")


def _extract(package: JSPackage, tarball: Path, dest: Path) -> int:
    """Extract the files ``package`` wants from ``tarball`` into ``dest``; return their count."""
    count = 0
    with tarfile.open(tarball, "r:gz") as tar:
        for member in tar.getmembers():
            parts = PurePosixPath(member.name).parts
            if not member.isfile() or len(parts) < 2 or ".." in parts:
                continue
            inner = "/".join(parts[1:])  # npm tarballs put everything under package/
            if not package.wants(inner):
                continue
            target = dest.joinpath(*parts[1:])
            target.parent.mkdir(parents=True, exist_ok=True)
            source = tar.extractfile(member)
            assert source is not None
            data = source.read()
            if inner.endswith(".css"):
                data = _GOOGLE_FONTS.sub("", data.decode("utf-8")).encode("utf-8")
            target.write_bytes(data)
            count += 1
    return count


def install_offline_assets(out: str | os.PathLike[str], cache: str | os.PathLike[str] | None = None,
                           *, log: Callable[[str], None] | None = None) -> Path:
    """Copy the JavaScript an offline deck needs into ``<out>/lib``; return that folder.

    A package already installed at the pinned version (its ``.version``
    stamp) is left alone.
    """
    lib = Path(out) / LIB_DIR
    stale = [p for p in JS_PACKAGES.values()
             if _read(lib / p.folder / ".version") != p.stamp]
    if not stale:
        return lib
    tarballs = fetch_js_packages(cache, log=log)
    for package in stale:
        dest = lib / package.folder
        if dest.exists():
            shutil.rmtree(dest)
        count = _extract(package, tarballs[package.folder], dest)
        if count == 0:
            raise SlidesError(f"{package.spec}: none of {package.files} is in its tarball")
        (dest / ".version").write_text(package.stamp + "\n", encoding="utf-8")
    if log:
        log(f"JavaScript for offline decks in {lib} ({size_text(tree_size(lib))})")
    return lib


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8").strip()
    except OSError:
        return None


def tree_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def size_text(n: int) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 1e6 else f"{n / 1e3:.0f} kB"


