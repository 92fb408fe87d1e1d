"""``python -m scorekeeper.cli``: the command."""

import sys

from . import main

sys.exit(main())
