"""The command line: argument parsing and printing over the library (``modtool.cli.app``)."""
