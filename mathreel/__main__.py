"""`python -m mathreel`: the same as the `mathreel` command."""

import sys

from mathreel.cli import main

sys.exit(main())
