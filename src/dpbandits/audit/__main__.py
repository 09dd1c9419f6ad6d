"""``python -m dpbandits.audit``: the same as ``dpbandits audit``."""

import sys

from ..cli import main

sys.exit(main(["audit", *sys.argv[1:]]))
