"""``python -m dpbandits.bench``: the same as ``dpbandits bench``."""

import sys

from ..cli import main

sys.exit(main(["bench", *sys.argv[1:]]))
