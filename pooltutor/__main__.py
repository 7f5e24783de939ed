"""``python -m pooltutor``: same as the ``pooltutor`` command."""

import sys

from pooltutor.course.cli import main

if __name__ == "__main__":
    sys.exit(main())
