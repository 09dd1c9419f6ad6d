"""``python -m dpbandits.privacy``: the same as ``dpbandits privacy``."""

import sys

from ..cli import main

sys.exit(main(["privacy", *sys.argv[1:]]))
