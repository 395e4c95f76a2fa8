import BackgroundSimCLI

// `bgsim`: the command-line tool with the built-in policies.
BackgroundSimCLI().main()
