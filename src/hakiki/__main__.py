from hakiki.cli import main

main()
