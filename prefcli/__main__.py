from prefcli.cli.main import entry

entry()
