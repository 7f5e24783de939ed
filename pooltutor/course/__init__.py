"""The classroom delivery: how the course reaches a class (not imported by the core).

* :mod:`pooltutor.course.cli`           the ``pooltutor`` command; ``lab`` and ``audit``
* :mod:`pooltutor.course.notebooks`     finding the course notebooks, writing ``.ipynb`` copies
* :mod:`pooltutor.course.app`           ``pooltutor app``: the notebooks as a Voila web app
* :mod:`pooltutor.course.classroom`     a whole class at once: preheated kernels, network, token
* :mod:`pooltutor.course.slides`        ``pooltutor slides``: executed notebooks as reveal.js decks
* :mod:`pooltutor.course.js_assets`     the decks' pinned JavaScript (npm tarballs, sha512)
* :mod:`pooltutor.course.pdf`           printing a page to PDF with headless Chromium
* :mod:`pooltutor.course.formula_sheet` ``pooltutor formulas``: the one-page formula sheet
* :mod:`pooltutor.course.errors`        :class:`SlidesError`, the delivery's failure

Jupyter, Voila, nbconvert, npm and Chromium are used here only, and imported
inside the functions that need them, so ``import pooltutor.course.cli`` is cheap.
"""
