import FrameDialCLI
import FrameDialFullCLI

#if canImport(Glibc)
  import Glibc
#endif

// First of all: a signal sent as the process starts waits for the command's trap.
CLI.holdSignals()
exit(FullCLI.run(CommandLine.arguments))
