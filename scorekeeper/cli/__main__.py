"""``python -m scorekeeper.cli``: the command."""

import sys

from . import main

if __name__ == "__main__":  # imported (as a test that walks every module does), it runs nothing
    sys.exit(main())
