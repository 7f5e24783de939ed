"""The README's examples run, and what it promises is there."""

import doctest
import re
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_pycon_examples_run():
    blocks = re.findall(r"```pycon\n(.*?)```", README, flags=re.S)
    assert len(blocks) >= 2
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    # one DocTest for all blocks: later blocks use the names of earlier ones
    test = parser.get_doctest("\n".join(blocks), {"np": np}, "README", "README.md", 0)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted >= 10


def test_readme_links_and_pictures_exist():
    for target in re.findall(r"\]\(([^)#]+)\)", README):
        if target.startswith("http"):
            continue
        assert (ROOT / target).exists(), target


def test_quick_start_has_exactly_the_two_commands_ci_runs():
    quick = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```bash\n(.*?)\n```", quick, flags=re.S)
    assert commands == ["pip install -e . && pooltutor lab", 'pip install -e ".[test]" && pytest']
    ci = (ROOT / ".ci" / "run").read_text()
    assert 'pip install -e ".[test]" && pytest' in ci
