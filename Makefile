# Developer shortcuts; CI runs .ci/run.
.PHONY: test fast-test doctest lint sync notebooks normalize clean

test:            ## full test suite (as in CI)
	pytest

fast-test:       ## skip tests that build wheels or start servers
	pytest -m "not slow"

doctest:         ## doctests of the library only
	pytest pooltutor

lint:            ## needs `pip install ruff`
	ruff check pooltutor tests notebooks
	ruff format --check pooltutor tests

sync:            ## (re)generate notebooks/*.ipynb from the .py sources (never --sync)
	jupytext --to ipynb notebooks/[!_]*.py

notebooks: sync  ## alias

normalize:       ## rewrite notebooks/*.py in jupytext's normal form (review the diff!)
	for f in notebooks/[!_]*.py; do \
	  jupytext --quiet --to ipynb "$$f" && jupytext --quiet --to py:percent "$${f%.py}.ipynb" || exit 1; \
	done

clean:
	rm -f notebooks/*.ipynb notebooks/*.ipynb.bak
	rm -rf .pytest_cache .hypothesis build dist *.egg-info
