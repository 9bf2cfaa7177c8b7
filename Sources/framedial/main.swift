import FrameDialCLI

#if canImport(Glibc)
  import Glibc
#endif

exit(CLI.run(CommandLine.arguments))
