"""``python -m vigtavl``: the command line (:mod:`vigtavl.cli`)."""

import sys

from vigtavl.cli import main

sys.exit(main())
