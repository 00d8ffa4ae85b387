from wizprint.cli import main

main()
