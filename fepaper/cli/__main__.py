"""``python -m fepaper.cli``: the ``fepaper`` command."""

import sys

from . import main

sys.exit(main())
