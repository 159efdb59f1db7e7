from modtool.cli import main

main()
