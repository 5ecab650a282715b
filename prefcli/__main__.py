import sys

from prefcli.cli.main import main

sys.exit(main())
